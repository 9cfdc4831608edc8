import ArgumentParser
import Foundation
import PindropCore
import PindropIndex
import PindropServer

/// `pindrop serve`: the HTTP API v1 and the web map app over the embedded index, with the user's saved places
/// and recent addresses in `$PINDROP_HOME/userdata.sqlite`.
/// Settings come from flags, then `PINDROP_*` environment variables, then defaults.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API and web map app.",
        discussion: """
            Environment: PINDROP_HOST, PINDROP_PORT, PINDROP_SUGGEST_MIN_CHARS, PINDROP_LEAFLET_DIR, PINDROP_LEAFLET_URL, \
            PINDROP_BASEMAP, PINDROP_TILE_URL (empty: no online tiles), PINDROP_TILE_ATTRIBUTION, \
            PINDROP_DEFAULT_CENTER ("LAT,LON"), PINDROP_DEFAULT_ZOOM, PINDROP_PUBLIC_DIR. Flags win over them.
            """)

    @Option(help: "Interface to listen on (default 127.0.0.1).")
    var host: String?

    @Option(help: "TCP port (default 8080; 0 picks a free one).")
    var port: Int?

    @Option(help: "Characters typed before the web app suggests places (default 3).")
    var suggestMinChars: Int?

    @Option(help: "Folder with Leaflet and Leaflet.markercluster (default /usr/share/javascript/leaflet, from Debian's libjs-leaflet).")
    var leafletDir: String?

    @Option(help: "Load Leaflet from this URL instead of the local folder (it must hold leaflet.js and leaflet.markercluster.js).")
    var leafletURL: String?

    @Option(help: "Online tile URL template drawn over the offline basemap; \"\" for none (default OpenStreetMap).")
    var tileURL: String?

    @Option(help: "Countries GeoJSON drawn as the offline basemap (default data/naturalearth/countries-110m.geojson).")
    var basemap: String?

    @OptionGroup var indexOptions: IndexOptions

    func run() async throws {
        var configuration = ServerConfiguration()
        do {
            try configuration.apply(environment: ProcessInfo.processInfo.environment)
            if let host { configuration.host = host }
            if let port { configuration.port = port }
            if let suggestMinChars { configuration.suggestMinChars = suggestMinChars }
            if let leafletDir { configuration.leafletDirectory = leafletDir }
            if let leafletURL { configuration.leafletURL = leafletURL.isEmpty ? nil : leafletURL }
            if let tileURL { configuration.tileURL = tileURL }
            if let basemap { configuration.basemapFile = basemap }
            try configuration.validate()
        } catch {
            throw ValidationError(error.message)
        }
        if configuration.leafletURL == nil,
           !FileManager.default.fileExists(atPath: (configuration.leafletDirectory as NSString).appendingPathComponent("leaflet.js")) {
            Terminal.note("warning: no leaflet.js in \(configuration.leafletDirectory); install libjs-leaflet libjs-leaflet.markercluster or pass --leaflet-url")
        }
        if let file = configuration.basemapFile, !FileManager.default.isReadableFile(atPath: file) {
            Terminal.note("warning: the basemap \(file) cannot be read; the map shows no countries offline")
        }

        let services = try reportingErrors {
            let userData = try UserDataStore.open(inFolder: PindropHome.path)
            return ServerServices(geocoder: try indexOptions.openIndex(), saved: userData, recent: userData)
        }
        let host = configuration.host
        let app = buildApplication(configuration: configuration, services: services) { port in
            let shownHost = host.contains(":") ? "[\(host)]" : host
            FileHandle.standardOutput.write(Data("Pindrop is serving http://\(shownHost):\(port)/\n".utf8))
        }
        try await app.runService()
    }
}
