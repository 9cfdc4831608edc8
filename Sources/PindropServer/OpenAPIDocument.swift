/// The OpenAPI 3.1 description of HTTP API v1, served at `/openapi.json`.
/// A test checks that every route the router has appears here and nothing else.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Pindrop HTTP API",
    "version": "1",
    "description": "Place search, suggestions, reverse geocoding, nearby places, saved places and recent addresses. Lists come as {\"query\": {...}, \"results\": [...]}, or as a GeoJSON FeatureCollection with format=geojson. Errors come as {\"error\": {\"code\": ..., \"message\": ...}}. Place ids hold ':' and sometimes '/', so they are percent-encoded in paths (osm%3Anode%2F123); bare slashes are accepted too."
  },
  "paths": {
    "/v1/search": {
      "get": {
        "operationId": "search",
        "summary": "Places matching a text, best first.",
        "parameters": [
          {"$ref": "#/components/parameters/q"},
          {"$ref": "#/components/parameters/lat"},
          {"$ref": "#/components/parameters/lon"},
          {"$ref": "#/components/parameters/country"},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/provider"},
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "502": {"$ref": "#/components/responses/ProviderFailed"},
          "503": {"$ref": "#/components/responses/ProviderFailed"}
        }
      }
    },
    "/v1/suggest": {
      "get": {
        "operationId": "suggest",
        "summary": "Search as you type: the last word is a prefix. Text shorter than minChars gives no results (not an error).",
        "parameters": [
          {"$ref": "#/components/parameters/q"},
          {"name": "minChars", "in": "query", "required": false, "description": "Characters needed before anything is suggested; the server's configured default when absent.", "schema": {"type": "integer", "minimum": 0, "maximum": 256}},
          {"$ref": "#/components/parameters/lat"},
          {"$ref": "#/components/parameters/lon"},
          {"$ref": "#/components/parameters/country"},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/provider"},
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "502": {"$ref": "#/components/responses/ProviderFailed"},
          "503": {"$ref": "#/components/responses/ProviderFailed"}
        }
      }
    },
    "/v1/reverse": {
      "get": {
        "operationId": "reverse",
        "summary": "The nearest place or street address to a point, with its distance.",
        "parameters": [
          {"$ref": "#/components/parameters/latRequired"},
          {"$ref": "#/components/parameters/lonRequired"},
          {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 1}},
          {"$ref": "#/components/parameters/provider"},
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "502": {"$ref": "#/components/responses/ProviderFailed"},
          "503": {"$ref": "#/components/responses/ProviderFailed"}
        }
      }
    },
    "/v1/nearby": {
      "get": {
        "operationId": "nearby",
        "summary": "Places within a radius of a point, nearest first.",
        "parameters": [
          {"$ref": "#/components/parameters/latRequired"},
          {"$ref": "#/components/parameters/lonRequired"},
          {"name": "radius", "in": "query", "required": false, "description": "Metres.", "schema": {"type": "number", "minimum": 1, "maximum": 50000, "default": 1000}},
          {"name": "category", "in": "query", "required": false, "description": "Keep only venues of this category (\"cafe\").", "schema": {"type": "string"}},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/provider"},
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "502": {"$ref": "#/components/responses/ProviderFailed"},
          "503": {"$ref": "#/components/responses/ProviderFailed"}
        }
      }
    },
    "/v1/streetmap": {
      "get": {
        "operationId": "streetMap",
        "summary": "Streets (lines) and buildings (polygons) inside a small box, for drawing an offline street-level map. Empty when the server has no street data.",
        "parameters": [
          {"name": "bbox", "in": "query", "required": true, "description": "west,south,east,north in degrees; at most 0.1° on each side (a larger box is a 400 asking to zoom in).", "schema": {"type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+,-?[0-9.]+,-?[0-9.]+$"}},
          {"name": "limit", "in": "query", "required": false, "description": "Most features sent (streets first).", "schema": {"type": "integer", "minimum": 1, "maximum": 20000, "default": 5000}}
        ],
        "responses": {
          "200": {
            "description": "A GeoJSON FeatureCollection with the data's attribution.",
            "content": {"application/geo+json": {"schema": {"$ref": "#/components/schemas/StreetMap"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"}
        }
      }
    },
    "/v1/places/{id}": {
      "get": {
        "operationId": "place",
        "summary": "One place by its id, as a one-result list.",
        "parameters": [{"$ref": "#/components/parameters/id"}, {"$ref": "#/components/parameters/format"}],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"}
        }
      }
    },
    "/v1/status": {
      "get": {
        "operationId": "status",
        "summary": "Whether the server is up, and what its store holds.",
        "responses": {
          "200": {
            "description": "The store's description.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Status"}}}
          }
        }
      }
    },
    "/v1/music/places": {
      "get": {
        "operationId": "musicPlaces",
        "summary": "Music places (studios, venues, ...) from MusicBrainz, every page fetched under its rate limit, streamed as Server-Sent Events while pages arrive. Events: progress (counters; first at once, then after every page or rate-limited answer), places ({page, offset, places} per page), then exactly one of done, error or cancelled (the summary), and the stream ends. Closing the connection cancels the upstream fetching.",
        "parameters": [
          {"name": "q", "in": "query", "required": true, "description": "The search, in MusicBrainz's Lucene syntax (\"Copenhagen\", \"type:studio AND area:Berlin\"); at most 256 characters.", "schema": {"type": "string", "maxLength": 256}},
          {"name": "mode", "in": "query", "required": false, "description": "How upstream requests are spaced: polite (honours the rate-limit headers, no 503), fixed (1 request/s), adaptive (fast until a 503).", "schema": {"type": "string", "enum": ["polite", "fixed", "adaptive"], "default": "polite"}},
          {"name": "since", "in": "query", "required": false, "description": "Only places opened in or after this year; a pin lives (opening year - since) seconds.", "schema": {"type": "integer", "minimum": 1000, "maximum": 9999, "default": 1990}}
        ],
        "responses": {
          "200": {
            "description": "An event stream; every event's data is one JSON document.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "503": {"description": "Music search is not configured on this server (code not_configured).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        }
      }
    },
    "/v1/providers": {
      "get": {
        "operationId": "providers",
        "summary": "Every place provider (configured or not, and why not), what each answers, the attribution to show with its answers, and the default fallback chain of each capability. No keys: only the names of the variables that hold them.",
        "responses": {
          "200": {
            "description": "The providers and chains.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Providers"}}}
          }
        }
      }
    },
    "/v1/config": {
      "get": {
        "operationId": "config",
        "summary": "Settings the web app reads at start (suggestion minimum, tile URL, default centre).",
        "responses": {
          "200": {
            "description": "The web app's settings.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Config"}}}
          }
        }
      }
    },
    "/v1/saved": {
      "get": {
        "operationId": "listSaved",
        "summary": "Every saved place, newest first.",
        "parameters": [{"$ref": "#/components/parameters/format"}],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"}
        }
      }
    },
    "/v1/saved/{id}": {
      "put": {
        "operationId": "savePlace",
        "summary": "Saves a place; saving twice keeps one. With no body the engine's place of that id is saved; with a place body (its id equal to the path's) that place is saved as sent. On disk when the call returns.",
        "parameters": [{"$ref": "#/components/parameters/id"}],
        "requestBody": {
          "required": false,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PlaceInput"}}}
        },
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "201": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "413": {"$ref": "#/components/responses/TooLarge"}
        }
      },
      "delete": {
        "operationId": "deleteSavedPlace",
        "summary": "Removes a saved place.",
        "parameters": [{"$ref": "#/components/parameters/id"}],
        "responses": {
          "204": {"description": "Removed."},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"}
        }
      }
    },
    "/v1/recent": {
      "get": {
        "operationId": "listRecent",
        "summary": "The most recent addresses, newest first, de-duplicated.",
        "parameters": [
          {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 2}},
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"}
        }
      },
      "post": {
        "operationId": "rememberRecent",
        "summary": "Records an address as the newest: {\"id\": ...} for a place the engine knows, or a whole place (a reverse-geocoded point). Answers with the two newest.",
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PlaceInput"}}}
        },
        "responses": {
          "201": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "413": {"$ref": "#/components/responses/TooLarge"}
        }
      }
    }
  },
  "components": {
    "parameters": {
      "q": {"name": "q", "in": "query", "required": true, "description": "The text; at most 256 characters.", "schema": {"type": "string", "maxLength": 256}},
      "lat": {"name": "lat", "in": "query", "required": false, "description": "Latitude of a location bias; needs lon.", "schema": {"type": "number", "minimum": -90, "maximum": 90}},
      "lon": {"name": "lon", "in": "query", "required": false, "description": "Longitude of a location bias; needs lat.", "schema": {"type": "number", "minimum": -180, "maximum": 180}},
      "latRequired": {"name": "lat", "in": "query", "required": true, "schema": {"type": "number", "minimum": -90, "maximum": 90}},
      "lonRequired": {"name": "lon", "in": "query", "required": true, "schema": {"type": "number", "minimum": -180, "maximum": 180}},
      "country": {"name": "country", "in": "query", "required": false, "description": "ISO 3166-1 alpha-2 code.", "schema": {"type": "string", "pattern": "^[A-Za-z]{2}$"}},
      "limit": {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}},
      "format": {"name": "format", "in": "query", "required": false, "schema": {"type": "string", "enum": ["json", "geojson"], "default": "json"}},
      "provider": {"name": "provider", "in": "query", "required": false, "description": "Ask this provider first (a name from /v1/providers: embedded, nominatim, photon, google, mapbox, foursquare); when it fails the default chain answers and the answer is marked as a fallback. Unknown, unconfigured or unsuitable names are a 400. Absent: the default chain.", "schema": {"type": "string", "maxLength": 64}},
      "id": {"name": "id", "in": "path", "required": true, "description": "A place id such as geonames:2988507, percent-encoded; at most 256 characters.", "schema": {"type": "string", "maxLength": 256}}
    },
    "responses": {
      "Results": {
        "description": "A list of results in the engine's order.",
        "content": {
          "application/json": {"schema": {"$ref": "#/components/schemas/ResultList"}},
          "application/geo+json": {"schema": {"$ref": "#/components/schemas/FeatureCollection"}}
        }
      },
      "BadRequest": {"description": "A parameter or the body is wrong.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "ProviderFailed": {"description": "Every provider asked failed (502 upstream_failed: refused, timed out, 5xx, bad JSON, a refused key; 503 rate_limited). The message names the provider and the reason.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "NotFound": {"description": "No such place or saved place.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "TooLarge": {"description": "The body is larger than the server accepts.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    },
    "schemas": {
      "Address": {
        "type": "object",
        "properties": {
          "houseNumber": {"type": "string"},
          "street": {"type": "string"},
          "postcode": {"type": "string"},
          "town": {"type": "string"}
        }
      },
      "Result": {
        "type": "object",
        "required": ["id", "name", "displayName", "latitude", "longitude", "population"],
        "properties": {
          "id": {"type": "string"},
          "name": {"type": "string"},
          "displayName": {"type": "string"},
          "latitude": {"type": "number"},
          "longitude": {"type": "number"},
          "countryCode": {"type": "string"},
          "admin1": {"type": "string"},
          "population": {"type": "integer"},
          "category": {"type": "string"},
          "address": {"$ref": "#/components/schemas/Address"},
          "distanceMeters": {"type": "number"},
          "source": {"type": "string"}
        }
      },
      "PlaceInput": {
        "type": "object",
        "required": ["id"],
        "description": "Only id for a place the engine knows; or a whole place in the Result shape (name, latitude and longitude required).",
        "properties": {
          "id": {"type": "string", "maxLength": 256},
          "name": {"type": "string", "maxLength": 1000},
          "displayName": {"type": "string", "maxLength": 1000},
          "latitude": {"type": "number", "minimum": -90, "maximum": 90},
          "longitude": {"type": "number", "minimum": -180, "maximum": 180},
          "countryCode": {"type": "string"},
          "admin1": {"type": "string"},
          "population": {"type": "integer"},
          "category": {"type": "string"},
          "address": {"$ref": "#/components/schemas/Address"},
          "source": {"type": "string"}
        }
      },
      "ResultList": {
        "type": "object",
        "required": ["query", "results"],
        "properties": {
          "query": {"type": "object", "description": "The request's parameters, echoed back."},
          "provider": {"type": "string", "description": "The provider that answered (search, suggest, reverse, nearby)."},
          "fallback": {"type": "boolean", "description": "True when an earlier provider failed and a later one of the chain answered."},
          "fromCache": {"type": "boolean", "description": "True when the answer came from the response cache."},
          "failures": {"type": "array", "items": {"$ref": "#/components/schemas/ProviderFailure"}, "description": "The providers that failed before the one that answered."},
          "results": {"type": "array", "items": {"$ref": "#/components/schemas/Result"}}
        }
      },
      "FeatureCollection": {
        "type": "object",
        "required": ["type", "features"],
        "properties": {
          "type": {"const": "FeatureCollection"},
          "query": {"type": "object"},
          "provider": {"type": "string"},
          "fallback": {"type": "boolean"},
          "fromCache": {"type": "boolean"},
          "failures": {"type": "array", "items": {"$ref": "#/components/schemas/ProviderFailure"}},
          "features": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["type", "id", "geometry", "properties"],
              "properties": {
                "type": {"const": "Feature"},
                "id": {"type": "string"},
                "geometry": {
                  "type": "object",
                  "properties": {
                    "type": {"const": "Point"},
                    "coordinates": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2, "description": "[longitude, latitude]"}
                  }
                },
                "properties": {"$ref": "#/components/schemas/Result"}
              }
            }
          }
        }
      },
      "StreetMap": {
        "type": "object",
        "required": ["type", "attribution", "features"],
        "properties": {
          "type": {"const": "FeatureCollection"},
          "query": {"type": "object", "properties": {"bbox": {"type": "array", "items": {"type": "number"}}, "limit": {"type": "integer"}}},
          "attribution": {"type": "array", "items": {"type": "string"}, "description": "Credits to show wherever the data is drawn (\"© OpenStreetMap contributors\")."},
          "truncated": {"type": "boolean", "description": "True when the limit cut the list short."},
          "features": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["type", "id", "geometry", "properties"],
              "properties": {
                "type": {"const": "Feature"},
                "id": {"type": "string"},
                "geometry": {
                  "type": "object",
                  "properties": {
                    "type": {"enum": ["LineString", "MultiLineString", "Polygon", "MultiPolygon"]},
                    "coordinates": {"type": "array", "description": "[longitude, latitude] positions, nested as RFC 7946 says for the type."}
                  }
                },
                "properties": {
                  "type": "object",
                  "required": ["kind", "id"],
                  "properties": {
                    "kind": {"enum": ["street", "building"]},
                    "id": {"type": "string", "description": "\"osm:way/123\""},
                    "name": {"type": "string"},
                    "category": {"type": "string", "description": "The highway value for streets (\"residential\"), the building value for buildings."}
                  }
                }
              }
            }
          }
        }
      },
      "Status": {
        "type": "object",
        "required": ["status", "store"],
        "properties": {
          "status": {"const": "ok"},
          "store": {
            "type": "object",
            "properties": {
              "name": {"type": "string"},
              "placeCount": {"type": "integer"},
              "location": {"type": "string"},
              "attribution": {"type": "array", "items": {"type": "string"}}
            }
          }
        }
      },
      "Config": {
        "type": "object",
        "properties": {
          "suggestMinChars": {"type": "integer"},
          "recentShown": {"type": "integer"},
          "tileURL": {"type": "string", "description": "Online tile template; empty for none."},
          "tileAttribution": {"type": "string"},
          "defaultCenter": {"type": "object", "properties": {"latitude": {"type": "number"}, "longitude": {"type": "number"}}},
          "defaultZoom": {"type": "integer"},
          "basemap": {"type": "boolean", "description": "Whether /basemap/countries.geojson is available."}
        }
      },
      "ProviderFailure": {
        "type": "object",
        "required": ["provider", "code", "message"],
        "properties": {
          "provider": {"type": "string"},
          "code": {"type": "string", "enum": ["upstream_failed", "rate_limited", "unreadable_data"]},
          "message": {"type": "string", "description": "What went wrong, for a person (\"Photon: did not answer within 5 s\")."}
        }
      },
      "Providers": {
        "type": "object",
        "required": ["providers", "chains"],
        "properties": {
          "providers": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["name", "displayName", "configured", "capabilities", "attribution"],
              "properties": {
                "name": {"type": "string", "description": "The value of the provider parameter."},
                "displayName": {"type": "string"},
                "configured": {"type": "boolean"},
                "capabilities": {"type": "array", "items": {"type": "string", "enum": ["search", "suggest", "reverse", "nearby"]}},
                "attribution": {"type": "string", "description": "The credit to show wherever its answers are shown."},
                "unavailableReason": {"type": "string", "description": "Why it cannot be used (\"set PINDROP_GOOGLE_API_KEY\"); only when not configured."}
              }
            }
          },
          "chains": {
            "type": "object",
            "description": "Who answers each capability by default, in fallback order.",
            "properties": {
              "search": {"type": "array", "items": {"type": "string"}},
              "suggest": {"type": "array", "items": {"type": "string"}},
              "reverse": {"type": "array", "items": {"type": "string"}},
              "nearby": {"type": "array", "items": {"type": "string"}}
            }
          }
        }
      },
      "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
          "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
              "code": {"type": "string", "enum": ["invalid_input", "not_found", "too_large", "method_not_allowed", "index_unavailable", "unreadable_data", "upstream_failed", "rate_limited", "not_configured", "internal_error"]},
              "message": {"type": "string"}
            }
          }
        }
      }
    }
  }
}
"""#
}
