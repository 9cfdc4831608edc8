/// The answers of the fake providers, written from each provider's documented response shape. Every
/// fixture has two results (or one for single-answer endpoints) so tests see order and mapping.
public enum FakeProviderFixtures {
    /// The paths a fake of `kind` answers.
    public static func paths(of kind: FakeProviderKind) -> [String] {
        switch kind {
        case .nominatim: ["/search", "/reverse"]
        case .photon: ["/api", "/reverse"]
        case .google: ["/maps/api/geocode/json", "/maps/api/place/autocomplete/json", "/maps/api/place/details/json"]
        case .mapbox: ["/search/geocode/v6/forward", "/search/geocode/v6/reverse"]
        case .foursquare: ["/places/search", "/v3/places/search"]
        }
    }

    /// The successful answer to `path`.
    public static func success(_ kind: FakeProviderKind, path: String, query: [String: String]) -> String {
        switch (kind, path) {
        case (.nominatim, "/reverse"): nominatimReverse
        case (.nominatim, _): nominatimSearch
        case (.photon, "/reverse"): photonReverse
        case (.photon, _): photonSearch
        case (.google, "/maps/api/place/autocomplete/json"): googleAutocomplete
        case (.google, "/maps/api/place/details/json"): googleDetails(placeID: query["place_id"] ?? "")
        case (.google, _): googleGeocode
        case (.mapbox, "/search/geocode/v6/reverse"): mapboxReverse
        case (.mapbox, _): mapboxForward
        case (.foursquare, "/v3/places/search"): foursquareV3
        case (.foursquare, _): foursquarePlaces
        }
    }

    /// A valid answer with nothing in it.
    public static func empty(_ kind: FakeProviderKind, path: String) -> String {
        switch kind {
        case .nominatim: path == "/reverse" ? #"{"error": "Unable to geocode"}"# : "[]"
        case .photon: #"{"type": "FeatureCollection", "features": []}"#
        case .google:
            path.contains("autocomplete") ? #"{"predictions": [], "status": "ZERO_RESULTS"}"#
                : path.contains("details") ? #"{"status": "NOT_FOUND"}"# : #"{"results": [], "status": "ZERO_RESULTS"}"#
        case .mapbox: #"{"type": "FeatureCollection", "features": [], "attribution": "NOTICE: © 2025 Mapbox and its suppliers. All rights reserved."}"#
        case .foursquare: #"{"results": [], "context": {"geo_bounds": {"circle": {"center": {"latitude": 37.7763, "longitude": -122.4232}, "radius": 1000}}}}"#
        }
    }

    /// The provider's error body for an HTTP error status.
    public static func errorBody(_ kind: FakeProviderKind, status: Int) -> String {
        switch kind {
        case .nominatim: #"{"error": {"code": \#(status), "message": "The fake answered HTTP \#(status)."}}"#
        case .google: #"{"error_message": "The fake answered HTTP \#(status).", "results": [], "status": "UNKNOWN_ERROR"}"#
        case .photon, .mapbox, .foursquare: #"{"message": "The fake answered HTTP \#(status)."}"#
        }
    }

    // MARK: Nominatim (jsonv2, addressdetails=1)

    static let nominatimSearch = #"""
    [
      {"place_id": 128544232, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
       "osm_type": "way", "osm_id": 518071791, "lat": "52.5162699", "lon": "13.3777034",
       "category": "tourism", "type": "attraction", "place_rank": 30, "importance": 0.6213,
       "addresstype": "tourism", "name": "Brandenburger Tor",
       "display_name": "Brandenburger Tor, Pariser Platz, Mitte, Berlin, 10117, Deutschland",
       "address": {"tourism": "Brandenburger Tor", "house_number": "1", "road": "Pariser Platz", "suburb": "Mitte",
                   "city": "Berlin", "ISO3166-2-lvl4": "DE-BE", "postcode": "10117", "country": "Deutschland",
                   "country_code": "de"},
       "boundingbox": ["52.5161167", "52.5164327", "13.3775644", "13.3778424"]},
      {"place_id": 240109189, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
       "osm_type": "relation", "osm_id": 62422, "lat": "52.5170365", "lon": "13.3888599",
       "category": "boundary", "type": "administrative", "place_rank": 8, "importance": 0.8541,
       "addresstype": "city", "name": "Berlin", "display_name": "Berlin, Deutschland",
       "address": {"city": "Berlin", "ISO3166-2-lvl4": "DE-BE", "state": "Berlin", "country": "Deutschland", "country_code": "de"},
       "boundingbox": ["52.3382448", "52.6755087", "13.0883450", "13.7611609"]}
    ]
    """#

    static let nominatimReverse = #"""
    {"place_id": 95382817, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
     "osm_type": "node", "osm_id": 3790600765, "lat": "52.5163042", "lon": "13.3794016",
     "category": "place", "type": "house", "place_rank": 30, "importance": 0.00001, "addresstype": "place", "name": "",
     "display_name": "7, Pariser Platz, Mitte, Berlin, 10117, Deutschland",
     "address": {"house_number": "7", "road": "Pariser Platz", "suburb": "Mitte", "city": "Berlin",
                 "ISO3166-2-lvl4": "DE-BE", "postcode": "10117", "country": "Deutschland", "country_code": "de"},
     "boundingbox": ["52.5162542", "52.5163542", "13.3793516", "13.3794516"]}
    """#

    // MARK: Photon (GeoJSON)

    static let photonSearch = #"""
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.3777034, 52.5162699]},
       "properties": {"osm_type": "W", "osm_id": 518071791, "osm_key": "tourism", "osm_value": "attraction",
                      "type": "house", "name": "Brandenburger Tor", "housenumber": "1", "street": "Pariser Platz",
                      "postcode": "10117", "district": "Mitte", "city": "Berlin", "state": "Berlin",
                      "country": "Deutschland", "countrycode": "DE",
                      "extent": [13.3775644, 52.5164327, 13.3778424, 52.5161167]}},
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.3888599, 52.5170365]},
       "properties": {"osm_type": "R", "osm_id": 62422, "osm_key": "place", "osm_value": "city", "type": "city",
                      "name": "Berlin", "state": "Berlin", "country": "Deutschland", "countrycode": "DE",
                      "extent": [13.088345, 52.6755087, 13.7611609, 52.3382448]}}
    ]}
    """#

    static let photonReverse = #"""
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.3794016, 52.5163042]},
       "properties": {"osm_type": "N", "osm_id": 3790600765, "osm_key": "place", "osm_value": "house", "type": "house",
                      "housenumber": "7", "street": "Pariser Platz", "postcode": "10117", "district": "Mitte",
                      "city": "Berlin", "state": "Berlin", "country": "Deutschland", "countrycode": "DE"}}
    ]}
    """#

    // MARK: Google Geocoding and Places

    static let googleGeocode = #"""
    {"results": [
      {"address_components": [
         {"long_name": "1600", "short_name": "1600", "types": ["street_number"]},
         {"long_name": "Amphitheatre Parkway", "short_name": "Amphitheatre Pkwy", "types": ["route"]},
         {"long_name": "Mountain View", "short_name": "Mountain View", "types": ["locality", "political"]},
         {"long_name": "Santa Clara County", "short_name": "Santa Clara County", "types": ["administrative_area_level_2", "political"]},
         {"long_name": "California", "short_name": "CA", "types": ["administrative_area_level_1", "political"]},
         {"long_name": "United States", "short_name": "US", "types": ["country", "political"]},
         {"long_name": "94043", "short_name": "94043", "types": ["postal_code"]}],
       "formatted_address": "1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA",
       "geometry": {"location": {"lat": 37.4224428, "lng": -122.0842467}, "location_type": "ROOFTOP",
                    "viewport": {"northeast": {"lat": 37.4239627802915, "lng": -122.0829089197085},
                                 "southwest": {"lat": 37.4212648197085, "lng": -122.0856068802915}}},
       "place_id": "ChIJeRpOeF67j4AR9ydy_PIzPuM",
       "plus_code": {"compound_code": "CWC8+X8 Mountain View, CA", "global_code": "849VCWC8+X8"},
       "types": ["street_address"]},
      {"address_components": [
         {"long_name": "Mountain View", "short_name": "Mountain View", "types": ["locality", "political"]},
         {"long_name": "California", "short_name": "CA", "types": ["administrative_area_level_1", "political"]},
         {"long_name": "United States", "short_name": "US", "types": ["country", "political"]}],
       "formatted_address": "Mountain View, CA, USA",
       "geometry": {"location": {"lat": 37.3860517, "lng": -122.0838511}, "location_type": "APPROXIMATE"},
       "place_id": "ChIJiQHsW0m3j4ARm69rRkrUF3w", "types": ["locality", "political"]}
    ], "status": "OK"}
    """#

    static let googleAutocomplete = #"""
    {"predictions": [
      {"description": "Googleplex, Amphitheatre Parkway, Mountain View, CA, USA", "place_id": "ChIJj61dQgK6j4AR4GeTYWZsKWw",
       "reference": "ChIJj61dQgK6j4AR4GeTYWZsKWw",
       "structured_formatting": {"main_text": "Googleplex", "secondary_text": "Amphitheatre Parkway, Mountain View, CA, USA"},
       "terms": [{"offset": 0, "value": "Googleplex"}], "types": ["establishment", "point_of_interest"]},
      {"description": "Mountain View, CA, USA", "place_id": "ChIJiQHsW0m3j4ARm69rRkrUF3w",
       "reference": "ChIJiQHsW0m3j4ARm69rRkrUF3w",
       "structured_formatting": {"main_text": "Mountain View", "secondary_text": "CA, USA"},
       "terms": [{"offset": 0, "value": "Mountain View"}], "types": ["locality", "political", "geocode"]}
    ], "status": "OK"}
    """#

    static func googleDetails(placeID: String) -> String {
        switch placeID {
        case "ChIJj61dQgK6j4AR4GeTYWZsKWw":
            #"""
            {"html_attributions": [], "result": {
              "address_components": [
                {"long_name": "1600", "short_name": "1600", "types": ["street_number"]},
                {"long_name": "Amphitheatre Parkway", "short_name": "Amphitheatre Pkwy", "types": ["route"]},
                {"long_name": "Mountain View", "short_name": "Mountain View", "types": ["locality", "political"]},
                {"long_name": "California", "short_name": "CA", "types": ["administrative_area_level_1", "political"]},
                {"long_name": "United States", "short_name": "US", "types": ["country", "political"]},
                {"long_name": "94043", "short_name": "94043", "types": ["postal_code"]}],
              "formatted_address": "1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA",
              "geometry": {"location": {"lat": 37.4220656, "lng": -122.0840897}},
              "name": "Googleplex", "place_id": "ChIJj61dQgK6j4AR4GeTYWZsKWw",
              "types": ["corporate_office", "point_of_interest", "establishment"]}, "status": "OK"}
            """#
        case "ChIJiQHsW0m3j4ARm69rRkrUF3w":
            #"""
            {"html_attributions": [], "result": {
              "address_components": [
                {"long_name": "Mountain View", "short_name": "Mountain View", "types": ["locality", "political"]},
                {"long_name": "California", "short_name": "CA", "types": ["administrative_area_level_1", "political"]},
                {"long_name": "United States", "short_name": "US", "types": ["country", "political"]}],
              "formatted_address": "Mountain View, CA, USA",
              "geometry": {"location": {"lat": 37.3860517, "lng": -122.0838511}},
              "name": "Mountain View", "place_id": "ChIJiQHsW0m3j4ARm69rRkrUF3w", "types": ["locality", "political"]},
             "status": "OK"}
            """#
        default:
            #"{"html_attributions": [], "status": "NOT_FOUND"}"#
        }
    }

    // MARK: Mapbox Geocoding v6

    /// The address both Mapbox answers give first: one v6 feature with its full context.
    static let mapboxAddressFeature = #"""
    {"type": "Feature", "id": "dXJuOm1ieGFkcjo0ZGE1YmM3Ni1jNDc2LTQ3ZDYtYjY1Ni1lZmE1OGE0NGVkYzQ",
     "geometry": {"type": "Point", "coordinates": [-77.050636, 38.889248]},
     "properties": {"mapbox_id": "dXJuOm1ieGFkcjo0ZGE1YmM3Ni1jNDc2LTQ3ZDYtYjY1Ni1lZmE1OGE0NGVkYzQ",
       "feature_type": "address", "full_address": "2 Lincoln Memorial Circle Northwest, Washington, District of Columbia 20037, United States",
       "name": "2 Lincoln Memorial Circle Northwest", "name_preferred": "2 Lincoln Memorial Circle Northwest",
       "place_formatted": "Washington, District of Columbia 20037, United States",
       "coordinates": {"longitude": -77.050636, "latitude": 38.889248, "accuracy": "rooftop"},
       "context": {
         "address": {"mapbox_id": "dXJuOm1ieGFkcjo0ZGE1", "address_number": "2", "street_name": "Lincoln Memorial Circle Northwest", "name": "2 Lincoln Memorial Circle Northwest"},
         "street": {"mapbox_id": "dXJuOm1ieGFkcjpzdHJlZXQ", "name": "Lincoln Memorial Circle Northwest"},
         "postcode": {"mapbox_id": "dXJuOm1ieHBsYzpBNE1v", "name": "20037"},
         "place": {"mapbox_id": "dXJuOm1ieHBsYzpGSmlvN0E", "name": "Washington", "wikidata_id": "Q61"},
         "region": {"mapbox_id": "dXJuOm1ieHBsYzpCUVRz", "name": "District of Columbia", "wikidata_id": "Q3551781", "region_code": "DC", "region_code_full": "US-DC"},
         "country": {"mapbox_id": "dXJuOm1ieHBsYzpJdXc", "name": "United States", "wikidata_id": "Q30", "country_code": "US", "country_code_alpha_3": "USA"}}}}
    """#

    /// The city the forward answer (search and suggest) gives second.
    static let mapboxPlaceFeature = mapboxFeature(
        id: "dXJuOm1ieHBsYzpGSmlvN0E", type: "place", name: "Washington", at: (-77.036547, 38.895037),
        fullAddress: "Washington, District of Columbia, United States", placeFormatted: "District of Columbia, United States",
        context: #"{"region": {"name": "District of Columbia"}, "country": {"name": "United States", "country_code": "US"}, "place": {"name": "Washington"}}"#)

    /// The postcode the reverse answer gives second.
    static let mapboxPostcodeFeature = mapboxFeature(
        id: "dXJuOm1ieHBsYzpBNE1v", type: "postcode", name: "20037", at: (-77.05, 38.9),
        fullAddress: "20037, Washington, District of Columbia, United States", placeFormatted: "Washington, District of Columbia, United States",
        context: #"{"place": {"name": "Washington"}, "region": {"name": "District of Columbia"}, "country": {"name": "United States", "country_code": "US"}}"#)

    /// A v6 point feature with its names and `context` (a JSON object); `mapbox_id` is the feature's id.
    static func mapboxFeature(id: String, type: String, name: String, at point: (longitude: Double, latitude: Double),
                              fullAddress: String, placeFormatted: String, context: String) -> String {
        #"""
        {"type": "Feature", "id": "\#(id)", "geometry": {"type": "Point", "coordinates": [\#(point.longitude), \#(point.latitude)]},
         "properties": {"mapbox_id": "\#(id)", "feature_type": "\#(type)", "name": "\#(name)", "full_address": "\#(fullAddress)",
           "place_formatted": "\#(placeFormatted)", "context": \#(context)}}
        """#
    }

    static let mapboxForward = mapboxAnswer([mapboxAddressFeature, mapboxPlaceFeature], notice: """
        NOTICE: © 2025 Mapbox and its suppliers. All rights reserved. Use of this data is subject to the Mapbox Terms of Service \
        (https://www.mapbox.com/about/maps/). This response and the information it contains may not be retained.
        """)

    static let mapboxReverse = mapboxAnswer([mapboxAddressFeature, mapboxPostcodeFeature],
                                            notice: "NOTICE: © 2025 Mapbox and its suppliers. All rights reserved.")

    /// A Mapbox answer: a FeatureCollection of `features`, with Mapbox's notice as its `attribution`.
    static func mapboxAnswer(_ features: [String], notice: String) -> String {
        #"{"type": "FeatureCollection", "features": [\#n"# + features.joined(separator: ",\n") + #"\#n], "attribution": "\#(notice)"}"#
    }

    // MARK: Foursquare

    /// The current Places API form: `fsq_place_id`, `latitude`/`longitude`, `fsq_category_id`.
    static let foursquarePlaces = #"""
    {"results": [
      {"fsq_place_id": "4a27e3f2f964a52051931fe3", "name": "Blue Bottle Coffee",
       "latitude": 37.776283, "longitude": -122.423244,
       "categories": [{"fsq_category_id": "4bf58dd8d48988d1e0931735", "name": "Coffee Shop", "short_name": "Coffee Shop",
                       "plural_name": "Coffee Shops", "icon": {"prefix": "https://ss3.4sqi.net/img/categories_v2/food/coffeeshop_", "suffix": ".png"}}],
       "distance": 120,
       "location": {"address": "315 Linden St", "locality": "San Francisco", "region": "CA", "postcode": "94102",
                    "country": "US", "formatted_address": "315 Linden St, San Francisco, CA 94102"},
       "link": "/places/4a27e3f2f964a52051931fe3"},
      {"fsq_place_id": "49d51ce3f964a520675c1fe3", "name": "Hayes Valley Bakeworks",
       "latitude": 37.77659, "longitude": -122.42198,
       "categories": [{"fsq_category_id": "4bf58dd8d48988d16a941735", "name": "Bakery"}],
       "distance": 240,
       "location": {"address": "550 Laguna St", "locality": "San Francisco", "region": "CA", "postcode": "94102",
                    "country": "US", "formatted_address": "550 Laguna St, San Francisco, CA 94102"}}
    ]}
    """#

    /// The v3 form: `fsq_id`, `geocodes.main`, numeric category ids.
    static let foursquareV3 = #"""
    {"results": [
      {"fsq_id": "4a27e3f2f964a52051931fe3", "name": "Blue Bottle Coffee",
       "categories": [{"id": 13035, "name": "Coffee Shop", "icon": {"prefix": "https://ss3.4sqi.net/img/categories_v2/food/coffeeshop_", "suffix": ".png"}}],
       "chains": [], "distance": 120,
       "geocodes": {"main": {"latitude": 37.776283, "longitude": -122.423244}, "roof": {"latitude": 37.776283, "longitude": -122.423244}},
       "location": {"address": "315 Linden St", "country": "US", "cross_street": "Gough St", "locality": "San Francisco",
                    "postcode": "94102", "region": "CA", "formatted_address": "315 Linden St (Gough St), San Francisco, CA 94102"},
       "timezone": "America/Los_Angeles"},
      {"fsq_id": "49d51ce3f964a520675c1fe3", "name": "Hayes Valley Bakeworks",
       "categories": [{"id": 13002, "name": "Bakery"}], "distance": 240,
       "geocodes": {"main": {"latitude": 37.77659, "longitude": -122.42198}},
       "location": {"address": "550 Laguna St", "country": "US", "locality": "San Francisco", "postcode": "94102", "region": "CA",
                    "formatted_address": "550 Laguna St, San Francisco, CA 94102"}}
    ], "context": {"geo_bounds": {"circle": {"center": {"latitude": 37.7763, "longitude": -122.4232}, "radius": 1000}}}}
    """#
}
