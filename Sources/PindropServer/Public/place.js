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
