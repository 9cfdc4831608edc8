import Foundation
import PindropCore
import PindropPostgres
import PindropServer
import TOMLKit

/// The settings of `pindrop serve` from all their places, with one precedence: a flag, else the environment
/// (`PINDROP_*`), else the configuration file (`pindrop.toml`), else the default. Each setting's text, wherever it
/// comes from, is read by its declaration (`ServeSetting`); a refusal names where the text came from (the flag, the
/// variable, or the file and its key) and then the reason, which is the same for all three.
struct ServeSettings {
    /// The file read, nil for none.
    let file: String?
    /// The file's values by key, spelled as the environment would ("8080", "true", "a,b").
    let fileValues: [String: String]
    /// The process's own environment.
    let environment: [String: String]
    /// The flags given, by key, spelled likewise.
    let flagValues: [String: String]

    /// The file named by `--config`, else `$PINDROP_CONFIG`, else `pindrop.toml` in the working folder when there is
    /// one; read and checked.
    init(flags: [String: String], configFlag: String?, environment: [String: String]) throws(PindropError) {
        self.environment = environment
        self.flagValues = flags
        let named = configFlag ?? environment["PINDROP_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let file = named ?? (FileManager.default.fileExists(atPath: "pindrop.toml") ? "pindrop.toml" : nil)
        self.file = file
        guard let file else {
            fileValues = [:]
            return
        }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw .invalidInput("the configuration file \(file) cannot be read")
        }
        fileValues = try Self.values(ofTOML: text, file: file)
    }

    /// Each text given for `setting` and where it came from, as a refusal names it (the file and the key, the
    /// variable, the flag), the one in force last.
    func texts(of setting: ServeSetting) -> [(text: String, origin: String)] {
        [(fileValues[setting.key], "\(file ?? "the file"): \"\(setting.key)\""), (environment[setting.variable], setting.variable),
         (flagValues[setting.key], setting.flagName ?? setting.key)]
            .compactMap { text, origin in text.map { ($0, origin) } }
    }

    /// The server's configuration: the defaults, then each setting's texts over them in precedence order (so every
    /// text given is checked, even one a flag overrides), then the checks across settings.
    func serverConfiguration() throws(PindropError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        for setting in ServeSetting.all {
            guard let apply = setting.apply else { continue }
            for (text, origin) in texts(of: setting) {
                do { try apply(text, &configuration) } catch { throw .invalidInput("\(origin) \(error.message)") }
            }
        }
        try configuration.validate()
        return configuration
    }

    /// Makes the file's values the environment's defaults, for the parts that read `PINDROP_*` themselves (the store,
    /// the providers, MusicBrainz): a variable already set keeps its value. Called once at start, before any of them.
    func exportFileValues() {
        for setting in ServeSetting.elsewhere {
            if let value = fileValues[setting.key], environment[setting.variable] == nil { setenv(setting.variable, value, 0) }
        }
    }

    /// Where a setting's value comes from, for `--print-config`.
    func source(of setting: ServeSetting) -> String {
        if flagValues[setting.key] != nil { return "flag" }
        if environment[setting.variable] != nil { return "environment \(setting.variable)" }
        if fileValues[setting.key] != nil { return "file \(file ?? "")" }
        return "default"
    }

    /// `--print-config`: every setting with the value in force and where it comes from, as a TOML document that could
    /// be the file itself; secrets masked.
    func printout(_ configuration: ServerConfiguration) -> String {
        var lines = ["# pindrop serve: the configuration in force (precedence: flag > environment > file > default)",
                     "# file: \(file ?? "none (--config FILE, $PINDROP_CONFIG or ./pindrop.toml)")"]
        for setting in ServeSetting.all {
            let value = setting.current?(configuration) ?? texts(of: setting).last?.text ?? ""
            let shown = setting.secret && !value.isEmpty ? Self.masked(value, setting: setting) : value
            let line = "\(setting.key) = \(setting.kind.toml(shown))"
            lines.append(line.padding(toLength: max(line.count, 48), withPad: " ", startingAt: 0) + "  # " + source(of: setting))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A secret as it may be shown: a database URL without its password, a key as its length alone.
    static func masked(_ value: String, setting: ServeSetting) -> String {
        setting.key == ServeSetting.databaseURL.key ? PostgresPool.redact(value) : "*** (\(value.count) characters)"
    }
}

extension ServeSettings {
    /// The file's keys and their values, spelled as the environment would: a string, a number or a boolean as its
    /// text, an array of strings as "a,b". An unknown key, or a table, a date or an array where no list belongs, stops
    /// the start with a line naming the file and the key.
    static func values(ofTOML text: String, file: String) throws(PindropError) -> [String: String] {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw .invalidInput("\(file), line \(error.source.begin.line): \(error.description)")
        } catch {
            throw .invalidInput("\(file) is not a TOML document")
        }
        var values: [String: String] = [:]
        for key in table.keys.sorted() {
            guard let setting = ServeSetting.all.first(where: { $0.key == key }) else {
                throw .invalidInput("\(file): unknown key \"\(key.prefix(60))\"; the keys are listed in docs/configuration.md")
            }
            guard let value = table[key].flatMap({ Self.text(of: $0, list: setting.kind.isList) }) else {
                let wanted = setting.kind.isList ? "a list of strings" : setting.kind.expectation
                throw .invalidInput("\(file): \"\(key)\" must be \(wanted), got \(table[key].map { "\($0)" } ?? "nothing")")
            }
            values[key] = value
        }
        return values
    }

    /// A TOML value as the environment would spell it; nil for one no setting takes.
    private static func text(of value: any TOMLValueConvertible, list: Bool) -> String? {
        if let text = value.string { return text }
        if let number = value.int { return String(number) }
        if let number = value.double { return String(number) }
        if let flag = value.bool { return String(flag) }
        guard list, let array = value.array else { return nil }
        let items = array.map(\.string)
        return items.contains(nil) ? nil : items.compactMap { $0 }.joined(separator: ",")
    }
}
