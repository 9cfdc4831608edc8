import Foundation
@testable import PindropCLI
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// Each setting of `pindrop serve` is declared once (`ServeSetting.all`), and works the same way as a flag, an
/// environment variable and a key of the configuration file: the same values accepted, the same refused with the
/// same reason. The cases are made from the declarations, so a new setting is tested as soon as it is declared.
// Serialized: a setting's cases write its configuration file under one name, read back by the check.
@Suite("pindrop serve settings: one declaration, three ways to give each", .serialized)
struct ServeSettingTests {
    static let folder = TestScratch.root + "/settings"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Values a setting of `kind` takes and values it refuses, spelled as the environment spells them.
    static func samples(_ kind: ServeSetting.Kind) -> (accepted: [String], refused: [String]) {
        switch kind {
        case .integer(let range):
            ([String(range.lowerBound), String(range.upperBound)], [String(range.lowerBound - 1), String(range.upperBound + 1), "ten"])
        case .optionalInteger(let range): (["", String(range.upperBound)], [String(range.upperBound + 1), "ten"])
        case .boolean: (["true", "false"], ["maybe"])
        case .choice(let names): (names, ["loud"])
        case .coordinate: (["60.17,24.94", "-33.87,151.21"], ["100,0", "north"])
        case .optionalURL: (["https://example.org/leaflet", ""], ["leaflet"])
        case .origins: (["https://a.example,https://b.example:8443", "*"], ["a.example", "https://a.example/path"])
        case .list: (["a.example,b.example"], [])
        case .nonEmptyText: (["somewhere.example"], [" "])
        case .text, .optionalText: (["some text", ""], [])
        }
    }

    /// The three ways to give `text` to `setting`; nil where there is no way (no flag, or a refused value of a
    /// yes-or-no flag, which cannot be typed).
    static func ways(_ setting: ServeSetting, _ text: String) throws -> [(way: String, run: () throws(PindropError) -> String)] {
        var ways: [(String, () throws(PindropError) -> String)] = []
        if let arguments = flagArguments(setting, text) {
            ways.append(("flag", { () throws(PindropError) in try printed(setting, text, arguments: arguments, environment: [:]) }))
        }
        ways.append(("environment", { () throws(PindropError) in try printed(setting, text, arguments: [], environment: [setting.variable: text]) }))
        let file = try Self.file("\(setting.key).toml", "\(setting.key) = \(tomlValue(text, kind: setting.kind))\n")
        ways.append(("file", { () throws(PindropError) in try printed(setting, text, arguments: ["--config", file], environment: [:]) }))
        return ways
    }

    /// The command line giving `text` to `setting`'s flag.
    static func flagArguments(_ setting: ServeSetting, _ text: String) -> [String]? {
        switch setting.flag {
        case .option(let name): ["--" + name, text]
        case .repeated(let name): Reading<[String]>.items(text).flatMap { ["--" + name, $0] }
        case .toggle(let name): text == "true" ? ["--" + name] : text == "false" ? ["--no-" + name] : nil
        case .none: nil
        }
    }

    /// `text` as a person writes it in the file: a number or a yes-or-no bare, a list as an array, else a string.
    static func tomlValue(_ text: String, kind: ServeSetting.Kind) -> String {
        func quoted(_ item: String) -> String { "\"" + item.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        if kind.isList { return "[" + Reading<[String]>.items(text).map(quoted).joined(separator: ", ") + "]" }
        if Int(text) != nil || (kind == .boolean && (text == "true" || text == "false")) { return text }
        return quoted(text)
    }

    /// The settings of `serve` with `arguments` (flags, or `--config FILE`; an empty file unless one is named) and
    /// `environment`: the `--print-config` line of `setting`, checked to come from where it was given and to hold the
    /// value `given`.
    static func printed(_ setting: ServeSetting, _ given: String, arguments: [String], environment: [String: String]) throws(PindropError)
        -> String {
        let empty = (try? Self.file("empty.toml", "")) ?? ""
        let settings: ServeSettings, configuration: ServerConfiguration
        if arguments.first == "--config" || arguments.isEmpty {
            // Parsing the command line is the slow part: the file and the variable go to the settings directly.
            settings = try ServeSettings(flags: [:], configFlag: arguments.last ?? empty, environment: environment)
            configuration = try settings.serverConfiguration()
        } else {
            let command: ServeCommand
            do { command = try ServeCommand.parse(arguments + ["--config", empty]) } catch {
                throw .invalidInput("the arguments \(arguments) do not parse: \(error)")
            }
            (settings, configuration) = try command.resolveSettings(environment: environment)
        }
        let source = settings.source(of: setting)
        let expected = arguments.isEmpty ? "environment" : arguments.first == "--config" ? "file" : "flag"
        guard source.hasPrefix(expected) else { throw .internalFailure("\(setting.key) came from \(source), not the \(expected)") }
        // The value in force is the one given (the samples are spelled as the value in force is).
        let inForce = setting.current?(configuration) ?? settings.texts(of: setting).last?.text
        guard inForce == given else { throw .internalFailure("\(setting.key) is \(inForce ?? "unset"), not \(given)") }
        let line = settings.printout(configuration).split(separator: "\n").first { $0.hasPrefix(setting.key + " = ") } ?? ""
        return String(line.split(separator: "#").first ?? "").trimmingCharacters(in: .whitespaces)
    }

    static func file(_ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("every setting takes the same values as a flag, a variable and a key of the file", arguments: ServeSetting.all.map(\.key))
    func sameValuesAccepted(key: String) throws {
        let setting = try #require(ServeSetting.all.first { $0.key == key })
        for text in Self.samples(setting.kind).accepted {
            var shown: [String: String] = [:]
            for (way, run) in try Self.ways(setting, text) {
                do { shown[way] = try run() } catch { Issue.record("\(key) = \"\(text)\" as the \(way): \(error.message)") }
            }
            #expect(Set(shown.values).count == 1, "\(key) = \"\(text)\" reads differently: \(shown)")
            #expect(shown["environment"]?.hasPrefix(key + " = ") == true, "\(shown)")
        }
    }

    @Test("every setting refuses the same values as a flag, a variable and a key of the file, for the same reason",
          arguments: ServeSetting.all.map(\.key))
    func sameValuesRefused(key: String) throws {
        let setting = try #require(ServeSetting.all.first { $0.key == key })
        for text in Self.samples(setting.kind).refused {
            var reasons: [String: String] = [:]
            for (way, run) in try Self.ways(setting, text) {
                let origin = way == "flag" ? setting.flagName! : way == "environment" ? setting.variable : "\(Self.folder)/\(key).toml: \"\(key)\""
                do {
                    let shown = try run()
                    Issue.record("\(key) = \"\(text)\" as the \(way) was accepted: \(shown)")
                } catch {
                    #expect(error.message.hasPrefix(origin + " must be "), "\(error.message)")
                    reasons[way] = String(error.message.dropFirst(origin.count))
                }
            }
            #expect(Set(reasons.values).count == 1, "\(key) = \"\(text)\" is refused differently: \(reasons)")
        }
    }

    @Test("the server's settings all have a flag, shown by --help; the others are read by the store and the providers")
    func flags() {
        let help = ServeCommand.helpMessage(columns: 200)
        for setting in ServeSetting.all {
            #expect(setting.variable == "PINDROP_" + setting.key.uppercased())
            if let flag = setting.flagName {
                #expect(help.contains(flag), "--help does not show \(flag)")
            }
            #expect(setting.apply == nil || setting.flag != .none, "\(setting.key) is a server setting without a flag")
        }
        #expect(Set(ServeSetting.all.map(\.key)).count == ServeSetting.all.count, "a key is declared twice")
    }

    @Test("docs/configuration.md holds the settings tables made from the declarations")
    func documentation() throws {
        let docs = try String(contentsOf: Self.repository.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let start = "<!-- settings: generated by `pindrop serve --print-settings-table` -->\n", end = "<!-- end of settings -->"
        let from = try #require(docs.range(of: start)), to = try #require(docs.range(of: end))
        #expect(String(docs[from.upperBound..<to.lowerBound]) == ServeSetting.markdownTable,
                "docs/configuration.md's tables differ from the declarations: run `pindrop serve --print-settings-table` and paste its output")
    }

    @Test("deploy/pindrop.toml is a configuration the server starts with")
    func deployExample() throws {
        let file = Self.repository.appendingPathComponent("deploy/pindrop.toml").path
        let (settings, configuration) = try ServeCommand.parse(["--config", file]).resolveSettings(environment: [:])
        #expect(settings.source(of: ServeSetting.port) == "file \(file)")
        #expect(configuration.allowedHosts == ["maps.example.org"] && configuration.logFormat == .json)
    }
}
