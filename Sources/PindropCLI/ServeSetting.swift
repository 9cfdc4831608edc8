import Foundation
import PindropCore
import PindropServer

/// One setting of `pindrop serve`, declared once (`ServeSetting.all`): its key in the configuration file, and from
/// the key its environment variable (`PINDROP_` and the key in capitals) and its flag (the key with dashes, unless
/// named otherwise); the value it takes, read by one function whether it comes from the flag, the variable or the
/// file; its default; its help; whether it is a secret. The flags (`ServeFlags`), the file's reader and
/// `--print-config` (`ServeSettings`) and the table of docs/configuration.md (`--print-settings-table`) are made
/// from these declarations.
struct ServeSetting: Sendable {
    /// How the setting is given on the command line.
    enum Flag: Sendable, Equatable {
        /// `--name VALUE`.
        case option(String)
        /// `--name VALUE`, repeatable: each gives one item of the list.
        case repeated(String)
        /// `--name` for true, `--no-name` for false.
        case toggle(String)
        /// None: a secret (a flag would show in the process list), or read by every command.
        case none
    }

    /// The setting's key in the configuration file.
    let key: String
    /// What it accepts.
    let kind: Kind
    let flag: Flag
    /// One or two sentences for `--help` and the docs, without the default.
    let help: String
    /// Shown masked (`***`) by `--print-config`: database passwords, provider keys.
    let secret: Bool
    /// The default as the docs say it, when the value in force depends on the machine or means something else
    /// (nil: `ServerConfiguration()`'s own value).
    let defaultText: String?
    /// Reads `text` and sets it on the configuration; nil for the settings that other parts (the store, the
    /// providers, MusicBrainz) read from the environment themselves.
    let apply: (@Sendable (String, inout ServerConfiguration) throws(PindropError) -> Void)?
    /// The value in force, spelled as the environment would; nil as for `apply`.
    let current: (@Sendable (ServerConfiguration) -> String)?

    /// The environment variable.
    var variable: String { "PINDROP_" + key.uppercased() }

    /// The flag as typed (`--idle-timeout`, `--metrics`), nil for none.
    var flagName: String? {
        switch flag {
        case .option(let name), .repeated(let name), .toggle(let name): "--" + name
        case .none: nil
        }
    }

    /// The default, as the docs and `--help` say it.
    var shownDefault: String {
        if let defaultText { return defaultText }
        return current.map { kind.toml($0(Self.defaults)) } ?? "none"
    }

    /// The defaults, made once (the basemap's is looked for on disk).
    private static let defaults = ServerConfiguration()

    /// A setting of the server's configuration, read from text by `reading` into `path`.
    init<Value>(_ key: String, _ path: any WritableKeyPath<ServerConfiguration, Value> & Sendable, _ reading: Reading<Value>,
                flag: Flag? = nil, defaultText: String? = nil, help: String) {
        self.key = key
        self.kind = reading.kind
        let name = key.replacingOccurrences(of: "_", with: "-")
        self.flag = flag ?? (reading.kind == .boolean ? .toggle(name) : .option(name))
        self.help = help
        self.secret = false
        self.defaultText = defaultText
        self.apply = { text, configuration throws(PindropError) in configuration[keyPath: path] = try reading.read(text) }
        self.current = { reading.write($0[keyPath: path]) }
    }

    /// A setting read from the environment variable `variable` by another part of Pindrop (the file's value reaches
    /// it as that variable); its key is the variable's name without `PINDROP_`, in lower case.
    init(environment variable: String, _ kind: Kind = .text, flag: Flag = .none, secret: Bool = false, defaultText: String,
         help: String) {
        self.key = String(variable.dropFirst("PINDROP_".count)).lowercased()
        self.kind = kind
        self.flag = flag
        self.help = help
        self.secret = secret
        self.defaultText = defaultText
        self.apply = nil
        self.current = nil
    }
}

extension ServeSetting {
    /// What a setting accepts. Its reader (`Reading`) says why a text is refused, the same way for the flag, the
    /// variable and the file.
    enum Kind: Sendable, Equatable {
        case text
        case nonEmptyText
        /// Text, "" for none.
        case optionalText
        case integer(ClosedRange<Int>)
        /// A whole number in the range, "" for none.
        case optionalInteger(ClosedRange<Int>)
        case boolean
        case choice([String])
        /// "LAT,LON".
        case coordinate
        /// An absolute URL, "" for none.
        case optionalURL
        /// Items, comma-separated in the environment, an array in the file, the flag repeated.
        case list
        /// A list of web origins (`https://example.com`) or "*".
        case origins

        /// What the value must be, as refusals and the docs say it.
        var expectation: String {
            switch self {
            case .text: "text"
            case .nonEmptyText: "text, not empty"
            case .optionalText: "text (\"\" for none)"
            case .integer(let range): "a whole number in \(range.lowerBound)...\(range.upperBound)"
            case .optionalInteger(let range): "a whole number in \(range.lowerBound)...\(range.upperBound) (\"\" for none)"
            case .boolean: "true, false, 1 or 0"
            case .choice(let names): names.count == 2 ? names.joined(separator: " or ") : "one of " + names.joined(separator: ", ")
            case .coordinate: "a point as \"LAT,LON\""
            case .optionalURL: "an absolute URL like https://example.org/path (\"\" for none)"
            case .list: "a list of names"
            case .origins: "a list of web origins like https://example.com, or \"*\""
            }
        }

        /// The refusal of `text`.
        func refusal(_ text: String) -> PindropError {
            .invalidInput("must be \(expectation), got \"\(text.prefix(60))\"")
        }

        /// How the file spells a value of this kind (and `--print-config`, which writes a file).
        var isList: Bool { self == .list || self == .origins }
        var isInteger: Bool { if case .integer = self { true } else { false } }

        /// A value, as the environment spells it, written as TOML.
        func toml(_ value: String) -> String {
            func quoted(_ text: String) -> String {
                var writer = JSONWriter(capacity: text.utf8.count + 2)
                writer.string(text)
                return writer.string
            }
            if isList { return "[" + Reading<[String]>.items(value).map(quoted).joined(separator: ", ") + "]" }
            if isInteger || self == .boolean || (!value.isEmpty && self.isOptionalInteger) { return value }
            return quoted(value)
        }

        private var isOptionalInteger: Bool { if case .optionalInteger = self { true } else { false } }
    }
}

extension ServeSetting {
    /// The tables of docs/configuration.md (`pindrop serve --print-settings-table`; a test checks the file has them).
    static var markdownTable: String {
        func table(_ settings: [ServeSetting]) -> String {
            let rows = settings.map { setting in
                let value = setting.kind == .text ? "text" : setting.kind.expectation
                let shownDefault = setting.defaultText ?? "`\(setting.shownDefault)`"
                return [setting.key, setting.variable, setting.flagCell, value, shownDefault, setting.help + (setting.secret ? " A secret: masked by --print-config." : "")]
                .enumerated().map { index, cell in
                    let escaped = cell.replacingOccurrences(of: "|", with: "\\|")
                    return index < 2 ? "`\(escaped)`" : escaped
                }
            }
            return (["| Key | Variable | Flag | Value | Default | What it does |", "|---|---|---|---|---|---|"]
                    + rows.map { "| " + $0.joined(separator: " | ") + " |" }).joined(separator: "\n")
        }
        return """
            ### The server

            \(table(server))

            ### The store, MusicBrainz and the remote providers

            Every command reads these from the environment, and checks them when it uses them; `pindrop serve` also \
            takes them from the file.

            \(table(elsewhere))

            """
    }

    /// The flags as the docs' table shows them.
    private var flagCell: String {
        switch flag {
        case .option(let name): "`--\(name)`"
        case .repeated(let name): "`--\(name)` (repeatable)"
        case .toggle(let name): "`--\(name)`, `--no-\(name)`"
        case .none: "—"
        }
    }
}
