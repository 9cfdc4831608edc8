// Pindrop web app: Near me's pins on the map (nearme.js lists and loads the venues). Each venue is its category's icon
// with its name under it and its details when tapped. Where venues crowd, pins gather into clusters, tighter as the
// map zooms in, and every pin stands alone from zoom 17; a few venues are never clustered. Over the clusters, the
// venues people look for first (sights, hotels, restaurants, cafés, bars, shops: not offices, stops or benches) stand
// out with their names (those Wikipedia knows first), as many as fit in the view without one name covering another,
// so the first view names places rather than only counting them. A name that would cover a nearer venue's name waits.
// Names only ever reach the page as text (textContent, DOM nodes), never as HTML.
import { element } from "./dom.js";
import { map } from "./map.js";
import { addressText, categoryLabel, formatDistance } from "./place.js";
import { iconElement, iconGroup } from "./mapicons.js";
import { uncoveredPadding } from "./panel.js";

const FEW_VENUES = 60;              // up to this many, pins are never clustered
const ALONE_ZOOM = 17;              // from this zoom every pin stands alone
const STAND_OUT = 12;               // most venues standing out of the clusters in one view
const STANDING_Z = 500;             // those venues' pins over the cluster bubbles
// The groups whose venues stand out, taking turns in this order; the others (offices, stops, services, health) stay
// in the clusters.
const STAND_OUT_ORDER = ["culture", "food", "cafe", "lodging", "bar", "leisure", "shop", "worship"];
// Small things a city has hundreds of: they stand out only after every other kind.
const MINOR = new Set(["artwork", "memorial", "kiosk", "wayside_shrine"]);

const pins = { markers: [], layer: null, clusters: null, plain: null, standing: null, timer: 0 };

/** The names shown under pins (not those hidden inside clusters or behind a nearer venue's name), for the tests. */
export const venueLabels = () => [...document.querySelectorAll(".venue-label:not(.label-hidden)")].map((e) => e.textContent);

/** Sets up the pins' layers, once; nothing without a map. */
export function initPins() {
  if (!map || pins.plain) return;
  pins.plain = L.featureGroup();
  pins.standing = L.featureGroup();
  pins.clusters = typeof L.markerClusterGroup === "function"
    ? L.markerClusterGroup({ showCoverageOnHover: false, chunkedLoading: true, disableClusteringAtZoom: ALONE_ZOOM,
      maxClusterRadius: (zoom) => (zoom >= 16 ? 24 : zoom >= 14 ? 36 : 48),
      chunkProgress: (done, all) => { if (done === all) schedule(); } })
    : pins.plain;
  pins.clusters.on("animationend", schedule);
  map.on("zoomend moveend", schedule);
}

/** Takes every pin off the map. */
export function clearPins() {
  pins.markers = [];
  for (const layer of [pins.layer, pins.standing]) if (layer) { layer.clearLayers(); layer.remove(); }
  pins.layer = null;
}

/** Pins one more page of venues; `total` is how many the circle holds (null when unknown). */
export function addPins(places, total) {
  if (!map) return;
  const markers = places.map(venueMarker);
  pins.markers = pins.markers.concat(markers);
  // The layer is chosen once the first page says how many venues there are.
  if (!pins.layer) {
    pins.layer = ((total === null ? places.length : total) <= FEW_VENUES ? pins.plain : pins.clusters).addTo(map);
    if (pins.layer === pins.clusters) pins.standing.addTo(map);
  }
  if (typeof pins.layer.addLayers === "function") pins.layer.addLayers(markers);
  else markers.forEach((m) => pins.layer.addLayer(m));
  schedule();
}

/** Shows the `index`th venue's pin (opening its cluster) and its details. */
export function openPin(index) {
  const marker = pins.markers[index];
  if (!marker) return;
  const layer = pins.standing && pins.standing.hasLayer(marker) ? null : pins.layer;
  if (layer && typeof layer.zoomToShowLayer === "function") layer.zoomToShowLayer(marker, () => marker.openPopup());
  else marker.openPopup();
}

function venueMarker(place) {
  const name = place.name || place.displayName;
  const marker = L.marker([place.latitude, place.longitude], {
    icon: L.divIcon({ className: "venue-pin", html: iconElement(place.category, 24), iconSize: [24, 24], iconAnchor: [12, 12], popupAnchor: [0, -8] }),
    title: name, alt: name, riseOnHover: true,
  });
  marker.bindTooltip(element("span", null, name), {
    permanent: true, direction: "bottom", offset: [0, 6], className: "venue-label", interactive: false,
  });
  marker.bindPopup(() => popupContent(place));
  marker.place = place;
  return marker;
}

function popupContent(place) {
  const box = element("div", "venue-popup");
  box.append(element("div", "popup-name", place.name || place.displayName));
  if (place.category) box.append(element("div", "venue-category", categoryLabel(place.category)));
  box.append(element("div", "venue-address", addressText(place) || "No street address known"));
  if (Number.isFinite(place.distanceMeters)) box.append(element("div", "venue-distance", formatDistance(place.distanceMeters) + " away"));
  return box;
}

function schedule() {
  clearTimeout(pins.timer);
  pins.timer = setTimeout(() => { standOut(); declutter(); }, 50);
}

// ---------- the venues standing out of the clusters ----------

/** A venue's turn to stand out, [tier, group]: first the venues Wikipedia or Wikidata knows (the places people know
 *  by name), then the others, the minor kinds after all those; within a tier the groups take turns in
 *  STAND_OUT_ORDER, so a view names a mix of kinds. Null for never. */
function standOutTurn(place) {
  const group = STAND_OUT_ORDER.indexOf(iconGroup(place.category));
  if (group < 0 || !place.name) return null;
  const tags = place.extratags || {};
  return [(MINOR.has(place.category) ? 2 : 0) + (tags.wikidata || tags.wikipedia ? 0 : 1), group];
}

/** Moves the venues that stand out in this view out of the clusters, and those that no longer do back in. Those
 *  standing out already keep their place while they fit, so a small move does not reshuffle the names. */
function standOut() {
  if (!map || pins.layer !== pins.clusters || pins.clusters === pins.plain) return;
  const chosen = map.getZoom() >= ALONE_ZOOM ? new Set() : chooseStanding();
  const leaving = pins.standing.getLayers().filter((m) => !chosen.has(m));
  // A pin the clusters have not taken in yet (they take thousands a few hundred at a time) stands out next time.
  const coming = [...chosen].filter((m) => !pins.standing.hasLayer(m) && pins.clusters.hasLayer(m));
  if (leaving.length) {
    leaving.forEach((m) => { pins.standing.removeLayer(m); m.setZIndexOffset(0); });
    pins.clusters.addLayers(leaving);
  }
  if (coming.length) {
    pins.clusters.removeLayers(coming);
    coming.forEach((m) => { m.setZIndexOffset(STANDING_Z); pins.standing.addLayer(m); });
  }
}

/** Up to STAND_OUT venues in the uncovered part of the view, the kinds taking turns, nearest first within a kind;
 *  none's icon and name over another's (a name's width reckoned from its length: measuring thousands would cost a
 *  layout each). */
function chooseStanding() {
  const view = uncoveredBox();
  const wasStanding = new Set(pins.standing.getLayers());
  const rounds = new Map(), candidates = [];
  pins.markers.forEach((m, order) => {     // nearest first
    const turn = standOutTurn(m.place);
    if (!turn) return;
    const key = turn.join(), round = rounds.get(key) || 0;
    rounds.set(key, round + 1);
    candidates.push({ m, order, key: [wasStanding.has(m) ? 0 : 1, turn[0], round, turn[1], order] });
  });
  candidates.sort((a, b) => { for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i]; return 0; });
  const boxes = [], chosen = new Set();
  for (const { m } of candidates) {
    if (chosen.size >= STAND_OUT) break;
    const p = map.latLngToContainerPoint(m.getLatLng());
    const half = Math.max(14, Math.min(160, 7 * (m.place.name || "").length + 8) / 2 + 2);
    const box = [p.x - half, p.y - 14, p.x + half, p.y + 36];
    if (box[0] < view[0] || box[1] < view[1] || box[2] > view[2] || box[3] > view[3]) continue;
    if (boxes.some((o) => box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3])) continue;
    boxes.push(box);
    chosen.add(m);
  }
  return chosen;
}

/** The part of the map not under the panel or the sheet, [left, top, right, bottom] in map pixels. */
function uncoveredBox() {
  const size = map.getSize(), padding = uncoveredPadding(0, 0);
  return [padding.paddingTopLeft[0], padding.paddingTopLeft[1],
    size.x - padding.paddingBottomRight[0], size.y - padding.paddingBottomRight[1]];
}

// ---------- names ----------

/** Hides the names that would cover a name already shown: those of the venues standing out first, then the others
 *  nearest first; the pin stays, and tapping it shows the name. All the names are measured in one layout pass
 *  (thousands of venues: no layout per name). */
function declutter() {
  if (!map || !pins.layer) return;
  const standing = pins.standing ? pins.standing.getLayers() : [];
  const labels = [];
  for (const marker of standing.concat(pins.markers.filter((m) => !standing.includes(m)))) {
    const tooltip = marker.getTooltip();
    const label = tooltip && tooltip.getElement();
    if (label && map.hasLayer(marker)) labels.push(label);   // not inside a cluster
  }
  labels.forEach((label) => label.classList.remove("label-hidden"));
  const rects = labels.map((label) => label.getBoundingClientRect());
  const placed = [];
  labels.forEach((label, i) => {
    const r = rects[i];
    const covers = placed.some((p) => r.left < p.right && r.right > p.left && r.top < p.bottom && r.bottom > p.top);
    if (covers) label.classList.add("label-hidden"); else placed.push(r);
  });
}
