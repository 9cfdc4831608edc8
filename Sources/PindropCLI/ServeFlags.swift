import ArgumentParser
import PindropServer

/// The flags of `pindrop serve`'s settings, each named and explained by its declaration (`ServeSetting`). Values are
/// taken as text and read by the setting, as its variable and its key in the file are: a bad value gets the same
/// refusal whichever way it came. `given` says which setting each flag sets (a test proves each declared flag
/// reaches its setting). A value may begin with a dash (`--default-center -33.87,151.21`).
struct ServeFlags: ParsableArguments {
    @Option(name: .setting(.host), parsing: .unconditional, help: .setting(.host)) var host: String?
    @Option(name: .setting(.port), parsing: .unconditional, help: .setting(.port)) var port: String?
    @Option(name: .setting(.suggestMinChars), parsing: .unconditional, help: .setting(.suggestMinChars)) var suggestMinChars: String?
    @Option(name: .setting(.leafletDir), parsing: .unconditional, help: .setting(.leafletDir)) var leafletDir: String?
    @Option(name: .setting(.leafletURL), parsing: .unconditional, help: .setting(.leafletURL)) var leafletURL: String?
    @Option(name: .setting(.basemap), parsing: .unconditional, help: .setting(.basemap)) var basemap: String?
    @Option(name: .setting(.coastline), parsing: .unconditional, help: .setting(.coastline)) var coastline: String?
    @Option(name: .setting(.tileURL), parsing: .unconditional, help: .setting(.tileURL)) var tileURL: String?
    @Option(name: .setting(.tileAttribution), parsing: .unconditional, help: .setting(.tileAttribution)) var tileAttribution: String?
    @Option(name: .setting(.defaultCenter), parsing: .unconditional, help: .setting(.defaultCenter)) var defaultCenter: String?
    @Option(name: .setting(.defaultZoom), parsing: .unconditional, help: .setting(.defaultZoom)) var defaultZoom: String?
    @Option(name: .setting(.publicDir), parsing: .unconditional, help: .setting(.publicDir)) var publicDir: String?
    @Option(name: .setting(.allowedHosts), parsing: .unconditionalSingleValue, help: .setting(.allowedHosts)) var allowedHosts: [String] = []
    @Option(name: .setting(.corsOrigins), parsing: .unconditionalSingleValue, help: .setting(.corsOrigins)) var corsOrigins: [String] = []
    @Option(name: .setting(.maxConnections), parsing: .unconditional, help: .setting(.maxConnections)) var maxConnections: String?
    @Option(name: .setting(.idleTimeout), parsing: .unconditional, help: .setting(.idleTimeout)) var idleTimeout: String?
    @Option(name: .setting(.writesPerMinute), parsing: .unconditional, help: .setting(.writesPerMinute)) var writesPerMinute: String?
    @Option(name: .setting(.maxSaved), parsing: .unconditional, help: .setting(.maxSaved)) var maxSaved: String?
    @Flag(name: .setting(.requireToken), inversion: .prefixedNo, help: .setting(.requireToken)) var requireToken: Bool?
    @Flag(name: .setting(.metrics), inversion: .prefixedNo, help: .setting(.metrics)) var metrics: Bool?
    @Option(name: .setting(.metricsPort), parsing: .unconditional, help: .setting(.metricsPort)) var metricsPort: String?
    @Flag(name: .setting(.accessLog), inversion: .prefixedNo, help: .setting(.accessLog)) var accessLog: Bool?
    @Option(name: .setting(.logFormat), parsing: .unconditional, help: .setting(.logFormat)) var logFormat: String?
    @Option(name: .setting(.logLevel), parsing: .unconditional, help: .setting(.logLevel)) var logLevel: String?
    @Option(name: .setting(.shutdownTimeout), parsing: .unconditional, help: .setting(.shutdownTimeout)) var shutdownTimeout: String?
    @Option(name: .setting(.replicationURL), parsing: .unconditional, help: .setting(.replicationURL)) var replicationURL: String?
    @Option(name: .setting(.replicationInterval), parsing: .unconditional, help: .setting(.replicationInterval)) var replicationInterval: String?
    @Option(name: .setting(.musicBrainzURL), parsing: .unconditional, help: .setting(.musicBrainzURL)) var musicBrainzURL: String?
    @Option(name: .setting(.musicBrainzContact), parsing: .unconditional, help: .setting(.musicBrainzContact)) var musicBrainzContact: String?

    /// The settings given as flags, by key, spelled as the environment would ("a,b" for a repeated flag).
    var given: [String: String] {
        let pairs: [(ServeSetting, String?)] = [
            (.host, host), (.port, port), (.suggestMinChars, suggestMinChars), (.leafletDir, leafletDir), (.leafletURL, leafletURL),
            (.basemap, basemap), (.coastline, coastline), (.tileURL, tileURL), (.tileAttribution, tileAttribution),
            (.defaultCenter, defaultCenter), (.defaultZoom, defaultZoom), (.publicDir, publicDir),
            (.allowedHosts, allowedHosts.isEmpty ? nil : allowedHosts.joined(separator: ",")),
            (.corsOrigins, corsOrigins.isEmpty ? nil : corsOrigins.joined(separator: ",")),
            (.maxConnections, maxConnections), (.idleTimeout, idleTimeout), (.writesPerMinute, writesPerMinute), (.maxSaved, maxSaved),
            (.requireToken, requireToken.map { String($0) }), (.metrics, metrics.map { String($0) }), (.metricsPort, metricsPort),
            (.accessLog, accessLog.map { String($0) }), (.logFormat, logFormat), (.logLevel, logLevel),
            (.shutdownTimeout, shutdownTimeout), (.replicationURL, replicationURL), (.replicationInterval, replicationInterval),
            (.musicBrainzURL, musicBrainzURL), (.musicBrainzContact, musicBrainzContact),
        ]
        return pairs.reduce(into: [:]) { given, pair in given[pair.0.key] = pair.1 }
    }
}

extension NameSpecification {
    /// A setting's flag (the `--no-` of a toggle comes from the `@Flag`'s inversion).
    static func setting(_ setting: ServeSetting) -> NameSpecification {
        .customLong(String((setting.flagName ?? setting.key).drop { $0 == "-" }))
    }
}

extension ArgumentHelp {
    /// A setting's help, its default and where else it can be set.
    static func setting(_ setting: ServeSetting) -> ArgumentHelp {
        ArgumentHelp("\(setting.help) Default: \(setting.shownDefault). Also \(setting.variable), key \(setting.key).",
                     valueName: setting.kind.valueName)
    }
}

extension ServeSetting.Kind {
    /// The value's name in `--help`.
    var valueName: String? {
        switch self {
        case .integer, .optionalInteger: "n"
        case .coordinate: "lat,lon"
        case .optionalURL: "url"
        case .choice(let names): names.joined(separator: "|")
        case .text, .nonEmptyText, .optionalText, .boolean, .list, .origins: nil
        }
    }
}
