import ArgumentParser
import Foundation
import PindropCore
import PindropProviders
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
            PINDROP_DEFAULT_CENTER ("LAT,LON"), PINDROP_DEFAULT_ZOOM, PINDROP_PUBLIC_DIR, \
            PINDROP_MUSICBRAINZ_URL, PINDROP_MUSICBRAINZ_CONTACT. Flags win over them.
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

    @Option(name: .customLong("musicbrainz-url"),
            help: "MusicBrainz service for the music search (default: $PINDROP_MUSICBRAINZ_URL, else https://musicbrainz.org).")
    var musicBrainzURL: String?

    @Option(name: .customLong("musicbrainz-contact"),
            help: "Your e-mail address or website, sent to MusicBrainz in the User-Agent (default: $PINDROP_MUSICBRAINZ_CONTACT).")
    var musicBrainzContact: String?

    @OptionGroup var store: StoreOptions

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

        let services = try await reportingErrors {
            let location = store.location
            let userData = try location.openUserData()
            // The store as "embedded", plus the remote providers the environment configures.
            let places = try ProviderSetup.service(store: try await location.open())
            return ServerServices(places: places, saved: userData, recent: userData, music: try musicSearch(geocoder: places.store))
        }
        let host = configuration.host
        let app = buildApplication(configuration: configuration, services: services) { port in
            let shownHost = host.contains(":") ? "[\(host)]" : host
            FileHandle.standardOutput.write(Data("Pindrop is serving http://\(shownHost):\(port)/\n".utf8))
        }
        try await app.runService()
    }
}

extension ServeCommand {
    /// MusicBrainz for `/v1/music/places`, places without coordinates geocoded with the index. nil (with a note)
    /// when nothing about MusicBrainz was configured and the public service cannot be used without a contact;
    /// a configured but unusable URL or contact stops the server with one line.
    func musicSearch(geocoder: (any PlaceSearching)?) throws -> (any MusicPlaceSearching)? {
        let environment = ProcessInfo.processInfo.environment
        let configured = musicBrainzURL != nil || musicBrainzContact != nil
            || !(environment[MusicBrainzConfiguration.baseURLVariable] ?? "").isEmpty
            || !(environment[MusicBrainzConfiguration.contactVariable] ?? "").isEmpty
        do {
            let configuration = try MusicBrainzConfiguration.resolve(baseURL: musicBrainzURL, contact: musicBrainzContact,
                                                                     environment: environment)
            return MusicBrainzClient(configuration: configuration, geocoder: geocoder)
        } catch where !configured {
            Terminal.note("music search is off: pass --musicbrainz-contact (or set \(MusicBrainzConfiguration.contactVariable)) "
                          + "to use the public MusicBrainz, or --musicbrainz-url for another server")
            return nil
        } catch {
            throw ValidationError(error.message)
        }
    }
}
