import Foundation
import PindropCore

/// One MusicBrainz place search as a `PagedCollection`: pages come from `MusicBrainzClient.fetchPlaces`;
/// preparing a page keeps places opened in or after `sinceYear`, uses their coordinates or geocodes their
/// address, and counts as skipped those with neither.
public struct MusicBrainzPlaceSearch: PagedCollection {
    public typealias Record = MusicBrainzPlace?
    public typealias Item = MusicPlace

    /// The client that sends the requests (and holds the geocoder).
    public let client: MusicBrainzClient
    /// The Lucene query text.
    public let text: String
    /// Places opened before this year are left out.
    public let sinceYear: Int
    /// Whether its requests take their turns in the service's pace (`MusicBrainzClient.pace`): every search but an
    /// adaptive one, which goes as fast as the service takes (its point) and which only a server not on the public
    /// service allows (`MusicBrainzConfiguration.mostEagerMode`).
    public let isPaced: Bool

    /// Makes a search.
    public init(client: MusicBrainzClient, text: String, sinceYear: Int, isPaced: Bool = true) {
        self.client = client; self.text = text; self.sinceYear = sinceYear; self.isPaced = isPaced
    }

    public var providerName: String { MusicBrainzClient.providerName }

    /// One page, when the service's pace gives this search its turn. The service's word holds back every search of
    /// it, whatever their modes: a refusal's `Retry-After`, or no request left until `X-RateLimit-Reset` (which a
    /// pace measured here alone would miss by the network's jitter).
    public func fetchPage(_ request: PageRequest) async throws -> PageFetchResult<MusicBrainzPlace?> {
        guard isPaced else { return try await client.fetchPlaces(query: text, page: request) }
        return try await client.pace.run({ try await client.fetchPlaces(query: text, page: request) }) { result in
            let advice: RateLimitAdvice = switch result {
            case .rateLimited(let refusal): refusal
            case .page(let page): page.advice
            }
            return advice.retryAfter ?? (advice.remaining.map { $0 <= 0 } == true ? advice.resetAfter : nil)
        }
    }

    /// Filters by opening year, places each kept record, counts the unplaceable (and unreadable) as skipped.
    public func prepare(_ records: [MusicBrainzPlace?]) async throws -> PreparedPage<MusicPlace> {
        var items: [MusicPlace] = []
        var skipped = 0
        for record in records {
            guard let record else { skipped += 1; continue }
            guard let year = record.openYear, year >= sinceYear else { continue }
            if let coordinate = record.coordinates {
                items.append(musicPlace(record, year: year, coordinate: coordinate, geocoded: false))
            } else if let coordinate = try await geocode(record) {
                items.append(musicPlace(record, year: year, coordinate: coordinate, geocoded: true))
            } else {
                skipped += 1
            }
        }
        return PreparedPage(items: items, skipped: skipped)
    }

    private func musicPlace(_ record: MusicBrainzPlace, year: Int, coordinate: Coordinate, geocoded: Bool) -> MusicPlace {
        MusicPlace(id: PlaceID.provider(name: "musicbrainz", id: record.id).description, name: record.name, type: record.type, coordinate: coordinate,
                   address: record.address, area: record.area?.name, openYear: year,
                   lifespanSeconds: year - sinceYear, isGeocoded: geocoded)
    }

    /// The first match, from the most to the least precise query (see `geocodingQueries`); nil without an
    /// address or a match. A query the geocoder rejects as invalid counts as no match; other geocoder
    /// failures end the search.
    private func geocode(_ record: MusicBrainzPlace) async throws -> Coordinate? {
        guard let geocoder = client.geocoder, let address = record.address else { return nil }
        for text in Self.geocodingQueries(address: address, area: record.area?.name) {
            guard let request = try? SearchRequest(text: String(text.prefix(RequestLimits.maxTextLength)), limit: 1) else { continue }
            do {
                if let best = try await geocoder.search(request).first { return best.place.coordinate }
            } catch let error as PindropError where error.code == "invalid_input" {
                continue
            }
        }
        return nil
    }

    /// What to ask the geocoder for a place with an address, most precise first: the address with its area,
    /// the address alone, then its town (each part after the street, without postcodes: "København K" from
    /// "Istedgade 174, 1123 København K"), then the area. The embedded GeoNames index knows towns, not
    /// streets, so most places land on their town unless street data was imported. No address, no queries.
    static func geocodingQueries(address: String, area: String?) -> [String] {
        let address = address.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { return [] }
        let area = area?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        var queries: [String] = []
        func add(_ query: String) {
            if !query.isEmpty, !queries.contains(query) { queries.append(query) }
        }
        if let area, !address.localizedCaseInsensitiveContains(area) { add("\(address), \(area)") }
        add(address)
        for part in address.split(separator: ",").dropFirst() {
            let town = part.split(separator: " ").filter { word in !word.contains(where: \.isNumber) }.joined(separator: " ")
            if town.count >= 3 { add(town) }
        }
        if let area { add(area) }
        return queries
    }
}

extension String {
    /// nil for an empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
