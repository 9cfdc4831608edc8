// Pindrop web app: the offline map's place names. While no online tiles are drawn (none configured, or they cannot
// be reached), the page names what is in view from the index itself: countries (from the Natural Earth layer) on
// the world view, then cities, towns and villages by size as you zoom in. The server picks and de-clutters the
// places (/v1/labels); the page only draws them, as text, never as HTML.
import { element } from "./dom.js";
import { api } from "./api.js";
import { map, setCredit } from "./map.js";

const COUNTRY_MAX_ZOOM = 5;        // countries are named up to this zoom, places from PLACE_MIN_ZOOM
const PLACE_MIN_ZOOM = 3;

const labels = { seq: 0, timer: 0, on: false, places: null, countries: null, countryPoints: [], countriesLoaded: null, shown: 0,
  drawnZoom: null, drawn: [] };

/** How many place and country names are drawn now, and for which zoom (for the browser tests). */
export const labelCount = () => labels.shown;
export const labelsDrawnZoom = () => labels.drawnZoom;

/** Where the place and country names are on the screen now, [left, top, right, bottom] each: the street names and
 *  venues (streetlabels.js) keep clear of them. */
export const labelBoxes = () => (labels.on ? labels.drawn.map((l) => pixelBox(l.lat, l.lon, l.name, l.size)) : []);

/** Follows the map's moves and the tiles' state (map.js fires "tilesstate"); does nothing without a map. */
export function initLabels(config) {
  if (!map) return;
  const pane = map.createPane("labels");
  pane.style.zIndex = 450;                 // over the streets and circles, under the pins (600)
  pane.style.pointerEvents = "none";
  labels.places = L.layerGroup().addTo(map);
  labels.countries = L.layerGroup().addTo(map);
  // The first names wait for the countries, so a view is drawn once, whole.
  labels.countriesLoaded = !config.basemap ? Promise.resolve() : api("/basemap/countries.geojson").then((data) => {
    labels.countryPoints = (data && Array.isArray(data.features) ? data.features : []).map(countryPoint).filter(Boolean)
      .sort((a, b) => b.population - a.population);
  }).catch(() => { /* no country names; the places still show */ });
  map.on("tilesstate", (event) => { labels.on = event.offline; schedule(); });
  map.on("moveend", schedule);
  labels.on = map.tilesOffline === true;
  schedule();
}

function schedule() {
  clearTimeout(labels.timer);
  labels.timer = setTimeout(draw, 120);
}

/** Where a country's name goes: the centroid of its largest ring (by vertex count, a fair proxy at 1:110m). */
function countryPoint(feature) {
  const g = feature.geometry, name = feature.properties && feature.properties.name;
  if (!g || !name) return null;
  const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
  const ring = polygons.map((p) => p[0]).sort((a, b) => b.length - a.length)[0];
  if (!ring) return null;
  let area = 0, x = 0, y = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const f = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
    area += f; x += (ring[j][0] + ring[i][0]) * f; y += (ring[j][1] + ring[i][1]) * f;
  }
  if (area === 0) return null;
  return { name, lon: x / (3 * area), lat: y / (3 * area), population: feature.properties.pop_est || 0 };
}

function labelMarker(lat, lon, text, className) {
  const box = element("div", "map-label " + className, text);
  return L.marker([lat, lon], {
    pane: "labels", interactive: false, keyboard: false,
    icon: L.divIcon({ className: "map-label-anchor", html: box, iconSize: [0, 0] }),
  });
}

/** The view, clamped to the globe (the world view spans more than 360°). */
function viewBox() {
  const b = map.getBounds().pad(0.1);
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  const wide = b.getEast() - b.getWest() >= 360;
  const west = wide ? -180 : L.latLng(0, b.getWest()).wrap().lng, east = wide ? 180 : L.latLng(0, b.getEast()).wrap().lng;
  return [west, clamp(b.getSouth(), -90, 90), east, clamp(b.getNorth(), -90, 90)];
}

async function draw() {
  const seq = ++labels.seq;
  labels.drawnZoom = null;
  await labels.countriesLoaded;
  if (seq !== labels.seq) return;
  const zoom = map.getZoom();
  labels.countries.clearLayers();
  labels.drawn = [];
  if (!labels.on) { labels.places.clearLayers(); labels.shown = 0; setCredit("labels", []); return; }
  // Countries by population, each kept only where it overlaps none kept before (as the server does for places).
  // Boxes in the zoom's world pixels, not the screen's: the map may pan while the places are asked for, and boxes
  // taken before and after a pan would not meet where the names do.
  const placed = [], countries = [];
  for (const c of zoom <= COUNTRY_MAX_ZOOM ? labels.countryPoints : []) {
    const box = worldBox(c.lat, c.lon, c.name, 17, zoom);   // capitals, letter-spaced: wider than 13 px text
    if (placed.some((other) => overlaps(box, other))) continue;
    placed.push(box);
    countries.push(c);
    labels.drawn.push({ lat: c.lat, lon: c.lon, name: c.name, size: 17 });
    labels.countries.addLayer(labelMarker(c.lat, c.lon, c.name, "country"));
  }
  if (zoom < PLACE_MIN_ZOOM) { labels.places.clearLayers(); labels.shown = countries.length; labels.drawnZoom = zoom; return; }
  let [west, south, east, north] = viewBox();
  // A view across the antimeridian is asked for as its larger side (labels on the other are a rare loss).
  if (west > east) { if (180 - west > east + 180) east = 180; else west = -180; }
  try {
    const body = await api("/v1/labels?bbox=" + [west, south, east, north].map((v) => v.toFixed(4)).join(",") + "&zoom=" + zoom);
    if (seq !== labels.seq || !labels.on) return;
    labels.places.clearLayers();
    for (const p of body.labels || []) {
      // The server de-clutters places among themselves; country names win over the places they would cover.
      const box = worldBox(p.latitude, p.longitude, p.name, fontSize(p.population), zoom);
      if (placed.some((other) => overlaps(box, other))) continue;
      placed.push(box);
      labels.places.addLayer(labelMarker(p.latitude, p.longitude, p.name, sizeClass(p.population)));
      labels.drawn.push({ lat: p.latitude, lon: p.longitude, name: p.name, size: fontSize(p.population) });
    }
    labels.shown = countries.length + labels.places.getLayers().length;
    labels.drawnZoom = zoom;
    map.fire("placelabels");
    setCredit("labels", body.attribution || []);
  } catch (error) {
    // Names are a nicety: the map works without them, and the next move asks again.
  }
}

const fontSize = (population) => (population >= 1000000 ? 15 : population >= 100000 ? 13 : 12);
const sizeClass = (population) => (population >= 1000000 ? "city-large" : population >= 100000 ? "city" : "town");

/** A name's box on the screen now. */
function pixelBox(lat, lon, text, size) { return box(map.latLngToContainerPoint([lat, lon]), text, size); }

/** A name's box in the world's pixels at `zoom`: where it stands whatever the view. */
function worldBox(lat, lon, text, size, zoom) { return box(map.project([lat, lon], zoom), text, size); }

function box(p, text, size) {
  const half = (text.length * size * 0.6 + 12) / 2, halfHeight = size * 0.75 + 4;
  return [p.x - half, p.y - halfHeight, p.x + half, p.y + halfHeight];
}

const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
