// Pindrop web app: the offline street basemap. From street zoom in, the page asks /v1/streetmap for the view (padded,
// cut to the server's largest box) and draws streets with their casings and buildings on a canvas, over the Natural
// Earth land and under online tiles. Street names show as text on hover, never as HTML.
import { element } from "./dom.js";
import { api } from "./api.js";
import { showMessage } from "./panel.js";
import { map, setCredit } from "./map.js";

const STREET_ZOOM = 14;              // the street layer is drawn from this zoom in (a 1 km circle fits at 14)
const STREET_MAX_SPAN = 0.1;         // the server's largest box, degrees per side
const STREET_STYLE = {
  motorway: ["#e892a2", 6], trunk: ["#f9b29c", 6], primary: ["#fcd6a4", 5.5], secondary: ["#f7fabf", 5], tertiary: ["#ffffff", 4.5],
  residential: ["#ffffff", 3.5], unclassified: ["#ffffff", 3.5], living_street: ["#ffffff", 3], pedestrian: ["#f1eef6", 3],
  service: ["#ffffff", 2], track: ["#d7c8a8", 1.5], footway: ["#fa8072", 1.2], path: ["#fa8072", 1.2], cycleway: ["#5a7cf0", 1.2],
  steps: ["#fa8072", 1.5], bridleway: ["#6b8e23", 1.2],
};
const THIN = new Set(["footway", "path", "cycleway", "steps", "bridleway", "track"]);

const streets = {
  seq: 0, timer: 0,                 // only the answer for the newest view may draw
  loaded: null, truncated: false,   // the box the drawn data covers, and whether the server cut it short
  count: 0, shown: false, credit: [], lastError: null,
  renderer: null, buildings: null, casings: null, lines: null,
};

/** How many streets and buildings are drawn now (for the browser tests). */
export const streetFeatureCount = () => (streets.shown ? streets.count : 0);

function streetScale() { return Math.pow(2, (map.getZoom() - 16) * 0.7); }

function streetFill(feature) {
  const [color, width] = STREET_STYLE[feature.properties.category] || ["#ffffff", 2.5];
  const thin = THIN.has(feature.properties.category);
  return { color, weight: thin ? width : width * streetScale(), opacity: 1, lineCap: "round", lineJoin: "round",
    dashArray: thin ? "3 3" : null };
}

function streetCasing(feature) {
  const [, width] = STREET_STYLE[feature.properties.category] || ["", 2.5];
  return { color: "#b9aea2", weight: width * streetScale() + 1.6, opacity: 1, lineCap: "round", lineJoin: "round" };
}

/** Follows the map's moves; does nothing without a map. */
export function initStreetMap() {
  if (!map) return;
  map.createPane("streets").style.zIndex = 180;   // over the Natural Earth land (150), under online tiles (200)
  const renderer = streets.renderer = L.canvas({ pane: "streets", padding: 0.5 });
  const isStreet = (f) => f.properties && f.properties.kind === "street";
  const nameTooltip = (feature, layer) => {
    if (feature.properties.name) layer.bindTooltip(() => element("span", null, feature.properties.name), { sticky: true, className: "street-name" });
  };
  streets.buildings = L.geoJSON(null, {
    renderer, pane: "streets", filter: (f) => !isStreet(f), onEachFeature: nameTooltip,
    style: { color: "#c4b5a8", weight: 0.8, fillColor: "#d9d0c9", fillOpacity: 1 },
  });
  streets.casings = L.geoJSON(null, { renderer, pane: "streets", filter: (f) => isStreet(f) && !THIN.has(f.properties.category), style: streetCasing, interactive: false });
  streets.lines = L.geoJSON(null, { renderer, pane: "streets", filter: isStreet, style: streetFill, onEachFeature: nameTooltip });
  map.on("moveend", scheduleStreets);
  map.on("zoomend", () => {
    if (!streets.shown) return;
    streets.casings.setStyle(streetCasing);
    streets.lines.setStyle(streetFill);
  });
  scheduleStreets();
}

function scheduleStreets() {
  clearTimeout(streets.timer);
  streets.timer = setTimeout(updateStreets, 250);
}

function hideStreets() {
  if (!streets.shown) return;
  [streets.buildings, streets.casings, streets.lines].forEach((layer) => layer.remove());
  streets.renderer.remove();          // its canvas too; adding a layer again brings it back
  streets.shown = false;
  setCredit("streets", null);
}

/** The view padded by a quarter on each side, kept within the server's largest box around the view's centre. */
function streetBox() {
  const view = map.getBounds().pad(0.25);
  const c = map.getCenter().wrap();
  const half = STREET_MAX_SPAN / 2 - 1e-6;
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  const west = clamp(view.getWest(), c.lng - half, c.lng), east = clamp(view.getEast(), c.lng, c.lng + half);
  const south = clamp(view.getSouth(), c.lat - half, c.lat), north = clamp(view.getNorth(), c.lat, c.lat + half);
  return [clamp(west, -180, 180), clamp(south, -90, 90), clamp(east, -180, 180), clamp(north, -90, 90)];
}

async function updateStreets() {
  if (map.getZoom() < STREET_ZOOM) { streets.seq++; hideStreets(); return; }
  if (streets.loaded && !streets.truncated && streets.loaded.contains(map.getBounds())) { showStreets(); return; }
  const box = streetBox();
  const seq = ++streets.seq;
  try {
    const body = await api("/v1/streetmap?bbox=" + box.map((v) => v.toFixed(6)).join(","));
    if (seq !== streets.seq) return;
    if (!body || !Array.isArray(body.features)) throw new Error("The server sent street data the page cannot read.");
    [streets.buildings, streets.casings, streets.lines].forEach((layer) => layer.clearLayers());
    streets.buildings.addData(body.features);
    streets.casings.addData(body.features);
    streets.lines.addData(body.features);
    streets.count = body.features.length;
    streets.loaded = L.latLngBounds([box[1], box[0]], [box[3], box[2]]);
    streets.truncated = Boolean(body.truncated);
    streets.credit = Array.isArray(body.attribution) ? body.attribution.map(String) : [];
    if (map.getZoom() >= STREET_ZOOM) showStreets(); else hideStreets();
    streets.lastError = null;
  } catch (error) {
    if (seq !== streets.seq) return;
    const message = "Could not draw the streets here: " + error.message;
    if (message !== streets.lastError) showMessage(message);   // once per cause, not on every move
    streets.lastError = message;
  }
}

function showStreets() {
  if (!streets.shown) {
    [streets.buildings, streets.casings, streets.lines].forEach((layer) => layer.addTo(map));
    streets.shown = true;
  }
  setCredit("streets", streets.count > 0 ? streets.credit : null);
}
