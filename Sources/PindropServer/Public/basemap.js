// Pindrop web app: the offline basemap, under everything else in the pane "basemap". With coastline data on the
// server (config.coastline) it asks /v1/basemap for the view after every move (debounced; only the newest answer
// draws) and paints GSHHG land, lakes and country borders on a canvas over the map's sea-blue background; the
// server picks the detail by zoom. Without it, the Natural Earth countries (/basemap/countries.geojson) once. A
// failed answer leaves the map as it was.
import { api } from "./api.js";

const LAND = { stroke: false, fillColor: "#f2efe9", fillOpacity: 1 };
const WATER = { stroke: false, fillColor: "#aad3df", fillOpacity: 1 };     // the same blue as the map's background
const BORDER = { color: "#a08ca8", weight: 1, opacity: 0.8, dashArray: "5 3", fill: false };
const RIVER = { color: "#8fc6da", weight: 1.4, opacity: 1, fill: false };
// From this zoom the server answers with the same shapes at every zoom (the full resolution, whose points lie tens of
// metres apart, far more than the half pixel it drops below), so one street zoom's answer serves the next.
const SAME_FROM_ZOOM = 16;

const basemap = {
  map: null, renderer: null, layer: null, timer: 0, seq: 0,
  drawn: null,                        // { zoom, bounds } the drawn answer covers
  count: 0, resolution: null, credited: false,
};

/** What is drawn now (for the browser tests): features, the server's resolution letter, and whether the drawn
 *  answer covers the current view at its zoom. */
export const basemapForTests = {
  get featureCount() { return basemap.count; },
  get resolution() { return basemap.resolution; },
  get current() { return isCurrent(); },
};

/** Draws the offline basemap for `map` with the server's settings (`coastline`, `basemap`). */
export function initBasemap(map, config) {
  basemap.map = map;
  map.createPane("basemap").style.zIndex = 150;   // under the streets (180) and the online tiles (200)
  basemap.renderer = L.canvas({ pane: "basemap", padding: 0.5 });
  if (config.coastline) {
    map.on("moveend", schedule);
    schedule();
  } else if (config.basemap) {
    api("/basemap/countries.geojson").then((data) => {
      if (!data) return;
      L.geoJSON(data, {
        pane: "basemap", interactive: false,
        style: { color: "#b7ab95", weight: 0.8, fillColor: "#f2efe9", fillOpacity: 1 },
        attribution: "Made with Natural Earth",
      }).addTo(map);
    }).catch(() => { /* the page works without the basemap too */ });
  }
}

function schedule() {
  clearTimeout(basemap.timer);
  basemap.timer = setTimeout(update, 150);
}

/** Whether the drawn answer serves the view: it covers it, at its zoom or, at street zooms, at any of them. */
function isCurrent() {
  const d = basemap.drawn, zoom = Math.round(basemap.map.getZoom());
  const sameShapes = d && d.zoom >= SAME_FROM_ZOOM && zoom >= SAME_FROM_ZOOM;
  return Boolean(d && (d.zoom === zoom || sameShapes) && d.bounds.contains(basemap.map.getBounds()));
}

/** The view padded by half on each side, cut into boxes within -180...180 (one per copy of the world it shows),
 *  each with the longitude shifts that place it: { "w,s,e,n": [shift, ...] }. */
function boxes(bounds) {
  const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  const south = clamp(bounds.getSouth(), -90, 90).toFixed(4), north = clamp(bounds.getNorth(), -90, 90).toFixed(4);
  const west = bounds.getWest(), east = bounds.getEast();
  const result = {};
  for (let k = Math.floor((west + 180) / 360); k * 360 - 180 < east; k++) {
    const shift = k * 360;
    const lo = clamp(Math.max(west, shift - 180) - shift, -180, 180), hi = clamp(Math.min(east, shift + 180) - shift, -180, 180);
    if (hi <= lo) continue;
    const key = [lo.toFixed(4), south, hi.toFixed(4), north].join(",");
    (result[key] = result[key] || []).push(shift);
  }
  return result;
}

async function update() {
  const map = basemap.map;
  if (isCurrent()) return;
  const zoom = Math.round(map.getZoom()), bounds = map.getBounds().pad(0.5);
  const seq = ++basemap.seq;
  const wanted = boxes(bounds);
  try {
    const answers = await Promise.all(Object.keys(wanted).map((box) => api("/v1/basemap?bbox=" + box + "&zoom=" + zoom)));
    if (seq !== basemap.seq) return;   // the map moved on while these were coming
    const group = L.layerGroup();
    let count = 0;
    Object.values(wanted).forEach((shifts, i) => {
      const body = answers[i];
      if (!body || !Array.isArray(body.features)) throw new Error("The server sent a basemap the page cannot read.");
      basemap.resolution = body.resolution;
      credit(body.attribution);
      for (const shift of shifts) {
        count += body.features.length;
        group.addLayer(L.geoJSON(body.features, {
          renderer: basemap.renderer, pane: "basemap", interactive: false,
          coordsToLatLng: (c) => L.latLng(c[1], c[0] + shift),
          style: (f) => ({ border: BORDER, water: WATER, river: RIVER }[f.properties.kind] || LAND),
        }));
      }
    });
    if (basemap.layer) basemap.layer.remove();
    basemap.layer = group.addTo(map);
    basemap.count = count;
    basemap.drawn = { zoom, bounds };
  } catch (error) {
    // Keep what is drawn; the next move asks again. The page never stops working for the basemap.
    if (seq === basemap.seq) console.warn("basemap:", error.message);
  }
}

/** The data's credit, once (plain text: the attribution control takes HTML). */
function credit(texts) {
  if (basemap.credited || !Array.isArray(texts) || !basemap.map.attributionControl) return;
  const d = document.createElement("div");
  d.textContent = texts.map(String).join(", ");
  if (d.textContent) basemap.map.attributionControl.addAttribution(d.innerHTML);
  basemap.credited = true;
}
