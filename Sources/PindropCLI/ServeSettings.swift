import Foundation
import PindropCore
import PindropPostgres
import PindropServer
import TOMLKit

/// The settings of `pindrop serve` from all their places, with one precedence: a flag, else the environment
/// (`PINDROP_*`), else the configuration file (`pindrop.toml`), else the default.
///
/// Every key of the file is its environment variable without `PINDROP_`, in lower case (`port` is `PINDROP_PORT`,
/// `google_api_key` is `PINDROP_GOOGLE_API_KEY`), so there is one list of names to learn. An unknown key, a value of
/// the wrong type or one out of range stops the start with a line naming the file and the key.
struct ServeSettings {
    /// What a key holds, as the file must spell it.
    enum Kind {
        case text, integer, boolean, list
    }

    /// One setting.
    struct Key {
        /// Its name in the file.
        let name: String
        let kind: Kind
        /// Shown masked (`***`): database passwords, provider keys.
        let secret: Bool

        /// Its environment variable.
        var variable: String { "PINDROP_" + name.uppercased() }
    }

    /// Every key, in the order `--print-config` shows them.
    static let keys: [Key] = {
        func keys(_ kind: Kind, _ names: String..., secret: Bool = false) -> [Key] {
            names.map { Key(name: $0, kind: kind, secret: secret) }
        }
        return keys(.text, "host") + keys(.integer, "port", "suggest_min_chars")
            + keys(.text, "leaflet_dir", "leaflet_url", "basemap", "coastline", "tile_url", "tile_attribution", "default_center")
            + keys(.integer, "default_zoom") + keys(.text, "public_dir") + keys(.list, "allowed_hosts", "cors_origins")
            + keys(.integer, "max_connections", "idle_timeout", "writes_per_minute", "max_saved") + keys(.boolean, "require_token")
            + keys(.boolean, "metrics") + keys(.integer, "metrics_port") + keys(.boolean, "access_log")
            + keys(.text, "log_format", "log_level") + keys(.integer, "shutdown_timeout")
            + keys(.text, "database_url", secret: true) + keys(.text, "home", "data")
            + keys(.text, "musicbrainz_url", "musicbrainz_contact")
            + keys(.text, "nominatim_url", "photon_url", "google_url", "mapbox_url", "foursquare_url")
            + keys(.text, "google_api_key", "mapbox_api_key", "foursquare_api_key", secret: true)
            + keys(.list, "search_providers", "suggest_providers", "reverse_providers", "nearby_providers")
            + keys(.text, "provider_timeout", "user_agent")
    }()

    /// The file read, nil for none.
    let file: String?
    /// The file's values by environment variable, as the environment would spell them ("8080", "true", "a,b").
    let fileValues: [String: String]
    /// The process's own environment.
    let environment: [String: String]

    /// The file named by `--config`, else `$PINDROP_CONFIG`, else `pindrop.toml` in the working folder when there is
    /// one; read and checked.
    init(configFlag: String?, environment: [String: String]) throws(PindropError) {
        self.environment = environment
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

    /// The file's keys as environment values, each checked against its kind.
    static func values(ofTOML text: String, file: String) throws(PindropError) -> [String: String] {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw .invalidInput("\(file), line \(error.source.begin.line): \(error.description)")
        } catch {
            throw .invalidInput("\(file) is not a TOML document")
        }
        var values: [String: String] = [:]
        for name in table.keys.sorted() {
            guard let key = keys.first(where: { $0.name == name }) else {
                throw .invalidInput("\(file): unknown key \"\(name.prefix(60))\"; the keys are the PINDROP_ variables' names in lower case "
                                    + "without PINDROP_ (see docs/deployment.md)")
            }
            let value = table[name]!
            let text: String?
            switch key.kind {
            case .text: text = value.string
            case .integer: text = value.int.map { String($0) }
            case .boolean: text = value.bool.map { $0 ? "true" : "false" }
            case .list:
                if let array = value.array {
                    let items = array.map { $0.string }
                    text = items.contains(nil) ? nil : items.compactMap { $0 }.joined(separator: ",")
                } else {
                    text = value.string
                }
            }
            guard let text else {
                let wanted = switch key.kind {
                case .text: "a string"
                case .integer: "a whole number"
                case .boolean: "true or false"
                case .list: "a list of strings"
                }
                throw .invalidInput("\(file): \"\(name)\" must be \(wanted)")
            }
            values[key.variable] = text
        }
        return values
    }

    /// The server's configuration: the file's values over the defaults, then the environment's over them (flags
    /// come after, in the command). A bad value is named by where it came from: the file's key or the variable.
    func serverConfiguration() throws(PindropError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        do {
            try configuration.apply(environment: fileValues)
        } catch {
            var message = error.message
            for key in Self.keys where message.contains(key.variable) {
                message = message.replacingOccurrences(of: key.variable, with: "\(file ?? "the file"): \"\(key.name)\"")
            }
            throw .invalidInput(message)
        }
        try configuration.apply(environment: environment)
        return configuration
    }

    /// Makes the file's values the environment's defaults, for the parts that read `PINDROP_*` themselves (the store,
    /// the providers, MusicBrainz): a variable already set keeps its value. Called once at start, before any of them.
    func exportFileValues() {
        for (variable, value) in fileValues where environment[variable] == nil { setenv(variable, value, 0) }
    }

    /// Where a key's value comes from, for `--print-config`.
    func source(of key: Key, flagged: Set<String>) -> String {
        if flagged.contains(key.name) { return "flag" }
        if environment[key.variable] != nil { return "environment \(key.variable)" }
        if fileValues[key.variable] != nil { return "file \(file ?? "")" }
        return "default"
    }

    /// `--print-config`: every key with the value in force and where it comes from, as a TOML document that could be
    /// the file itself; secrets masked.
    func printout(_ configuration: ServerConfiguration, flagged: Set<String>, flagValues: [String: String]) -> String {
        var lines = ["# pindrop serve: the configuration in force (precedence: flag > environment > file > default)",
                     "# file: \(file ?? "none (--config FILE, $PINDROP_CONFIG or ./pindrop.toml)")"]
        for key in Self.keys {
            let value = flagValues[key.name] ?? Self.value(of: key, in: configuration) ?? environment[key.variable] ?? fileValues[key.variable]
            let shown: String
            if let value, !value.isEmpty {
                shown = Self.toml(key.secret ? Self.masked(value, key: key) : value, kind: key.kind)
            } else {
                shown = key.kind == .list ? "[]" : "\"\""
            }
            let line = "\(key.name) = \(shown)"
            lines.append(line.padding(toLength: max(line.count, 48), withPad: " ", startingAt: 0) + "  # " + source(of: key, flagged: flagged))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A secret as it may be shown: a database URL without its password, a key as its length alone.
    static func masked(_ value: String, key: Key) -> String {
        key.name == "database_url" ? PostgresPool.redact(value) : "*** (\(value.count) characters)"
    }

    /// The value in force of a key the server's configuration holds, as the environment spells it; nil for the others.
    static func value(of key: Key, in c: ServerConfiguration) -> String? {
        switch key.name {
        case "host": c.host
        case "port": String(c.port)
        case "suggest_min_chars": String(c.suggestMinChars)
        case "leaflet_dir": c.leafletDirectory
        case "leaflet_url": c.leafletURL ?? ""
        case "basemap": c.basemapFile ?? ""
        case "coastline": c.coastlineDirectory
        case "tile_url": c.tileURL
        case "tile_attribution": c.tileAttribution
        case "default_center": "\(c.defaultCenter.latitude),\(c.defaultCenter.longitude)"
        case "default_zoom": String(c.defaultZoom)
        case "public_dir": c.publicDirectory ?? ""
        case "allowed_hosts": c.allowedHosts.joined(separator: ",")
        case "cors_origins": c.corsOrigins.joined(separator: ",")
        case "max_connections": String(c.maxConnections)
        case "idle_timeout": String(c.idleTimeoutSeconds)
        case "writes_per_minute": String(c.writesPerMinute)
        case "max_saved": String(c.maxSavedPlaces)
        case "require_token": String(c.requireToken)
        case "metrics": String(c.metrics)
        case "metrics_port": c.metricsPort.map { String($0) } ?? ""
        case "access_log": String(c.accessLog)
        case "log_format": c.logFormat.rawValue
        case "log_level": c.logLevel.rawValue
        case "shutdown_timeout": String(c.shutdownTimeoutSeconds)
        default: nil
        }
    }

    /// A value written as TOML of its kind.
    static func toml(_ value: String, kind: Kind) -> String {
        func quoted(_ text: String) -> String {
            var writer = JSONWriter(capacity: text.utf8.count + 2)
            writer.string(text)
            return writer.string
        }
        switch kind {
        case .integer where Int(value) != nil, .boolean where value == "true" || value == "false": return value
        case .list: return "[" + value.split(separator: ",").map { quoted(String($0)) }.joined(separator: ", ") + "]"
        default: return quoted(value)
        }
    }
}
