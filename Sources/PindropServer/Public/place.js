// Pindrop web app: how a place reads on the page (its name, its street address, its coordinates) and how it is
// sent back to the API.

/** The name a place is listed under. */
export const placeName = (place) => place.displayName || place.name;

/**
 * The street address as its country writes it, formatted once by the server (`address.formatted`): its lines
 * separated by "\n" ("Mannerheimintie 5\n00100 Helsinki", "350 5th Avenue\nNew York, NY 10118\nUnited States of
 * America"); null when the place has no street, house number or postcode.
 */
export function addressText(place) {
  const a = place.address;
  return a && (a.street || a.houseNumber || a.postcode) && a.formatted ? a.formatted : null;
}

/** The same address on one line, its lines joined by ", ": "Mannerheimintie 5, 00100 Helsinki". */
export function addressLine(place) {
  const text = addressText(place);
  return text && text.split("\n").join(", ");
}

export function formatCoordinates(place) {
  return place.latitude.toFixed(5) + ", " + place.longitude.toFixed(5);
}

/** The place as the API takes it (saved places, recent addresses): the wire fields minus the distance and the name
 * a query matched. */
export function placeBody(place) {
  const copy = Object.assign({}, place);
  delete copy.distanceMeters;
  delete copy.matchedName;
  return JSON.stringify(copy);
}

/** A category as words: "fast_food" → "Fast food". */
export function categoryLabel(category) {
  if (!category) return "";
  const words = String(category).replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a place is, in words: its category, or for a town by its size ("City · 656,229 people"). */
export function placeKindLabel(place) {
  if (place.category) return categoryLabel(place.category);
  const people = place.population || 0;
  if (!people) return "";
  const kind = people >= 100000 ? "City" : people >= 10000 ? "Town" : "Village";
  return kind + " · " + people.toLocaleString("en-US") + " people";
}

/** "350 m", "1.2 km", "35 km". */
export function formatDistance(meters) {
  return meters < 1000 ? Math.round(meters) + " m" : (meters / 1000).toFixed(meters < 10000 ? 1 : 0) + " km";
}

/** Great-circle metres between two points. */
export function metersBetween(a, b) {
  const rad = Math.PI / 180, dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Directions to a point in the maps people use: [label, URL] for OpenStreetMap, Google Maps and Apple Maps. */
export function directionLinks(lat, lon) {
  const point = lat.toFixed(6) + "," + lon.toFixed(6);
  return [
    ["OpenStreetMap", "https://www.openstreetmap.org/directions?route=%3B" + encodeURIComponent(point)
      + "#map=16/" + lat.toFixed(5) + "/" + lon.toFixed(5)],
    ["Google Maps", "https://www.google.com/maps/dir/?api=1&destination=" + encodeURIComponent(point)],
    ["Apple Maps", "https://maps.apple.com/?daddr=" + encodeURIComponent(point)],
  ];
}

/** What OpenStreetMap says of a place beyond its address, from the result's `extratags` when it has them: opening
 *  hours, phone and website (or their `contact:` forms). Absent ones are left out. */
export function placeDetails(place) {
  const tags = place.extratags && typeof place.extratags === "object" ? place.extratags : {};
  const text = (...keys) => keys.map((k) => tags[k]).find((v) => typeof v === "string" && v.trim()) || null;
  const hours = text("opening_hours");
  const phone = text("phone", "contact:phone");
  const website = text("website", "contact:website", "url");
  return {
    hours: hours && hours.split(/\s*;\s*/).join("\n"),
    phone: phone && phone.split(/\s*;\s*/)[0],
    website: website && /^(https?:\/\/)?[^\s<>"]+\.[^\s<>"]+$/i.test(website) ? (/^https?:\/\//i.test(website) ? website : "https://" + website) : null,
  };
}

/** The places without those that read the same as one before them: the same name and address (a hotel and its
 *  parking entrance, a castle mapped as a building and as a point), in the order given. */
export function distinctPlaces(places) {
  const fold = (text) => String(text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const seen = new Set();
  return places.filter((p) => {
    const key = fold(placeName(p)) + "|" + fold(p.address && p.address.formatted);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
