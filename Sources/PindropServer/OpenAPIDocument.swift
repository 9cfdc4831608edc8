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
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"}
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
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"}
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
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
          "400": {"$ref": "#/components/responses/BadRequest"}
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
          {"$ref": "#/components/parameters/format"}
        ],
        "responses": {
          "200": {"$ref": "#/components/responses/Results"},
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
          "results": {"type": "array", "items": {"$ref": "#/components/schemas/Result"}}
        }
      },
      "FeatureCollection": {
        "type": "object",
        "required": ["type", "features"],
        "properties": {
          "type": {"const": "FeatureCollection"},
          "query": {"type": "object"},
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
      "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
          "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
              "code": {"type": "string", "enum": ["invalid_input", "not_found", "too_large", "method_not_allowed", "index_unavailable", "unreadable_data", "upstream_failed", "rate_limited", "internal_error"]},
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
