// Pindrop web app: the offline street map, drawn by the page itself from the server's data. From zoom 12 in, a tile
// layer asks /v1/streetmap for each 512-pixel tile at the zoom it is drawn at (the server sends only what that zoom
// shows, simplified for it) and paints land use, parks, water, rivers, railways, buildings and roads by class on a
// canvas, over the coastlines (basemap.js) and under online tiles. The names along the streets and the venues' icons
// are streetlabels.js's, from the same tiles. Where the view holds no street data at all, the map says so.
import { element } from "./dom.js";
import { api } from "./api.js";
import { showMessage } from "./panel.js";
import { map, setCredit } from "./map.js";

const FIRST_ZOOM = 12;              // the server's MapDetail.firstZoom: nothing of the street map is drawn below
const TILE = 512;
const CACHE_TILES = 400;            // tiles' data kept for going back (a few views at each of a few zooms)
const FILL = {
  landuse: { residential: "#e6e3df", commercial: "#f2dad9", retail: "#fbd9d4", industrial: "#ebdbe8", farmland: "#eef0d5",
    farmyard: "#f5dcba", cemetery: "#c9dfc3", railway: "#e6dfe4", construction: "#e4e0cf", military: "#f1d9d5",
    education: "#f7efb7", religious: "#e3ddd5" },
  park: { forest: "#b7d9a5", wood: "#b7d9a5", scrub: "#c8dcae", heath: "#d6d99f", pitch: "#aae0cb", playground: "#c6efd9",
    golf_course: "#c4eac4", orchard: "#cfe6b6", vineyard: "#cfe6b6", allotments: "#d6e6c2" },
};
const DEFAULT_FILL = { landuse: "#ebe8e3", park: "#cdebc0", water: "#aad3df", building: "#d9d0c9" };
// Roads by class: [fill, casing, width in pixels at zoom 16]. Drawn low classes first, so the main roads cross over.
const ROADS = [
  [["footway", "path", "cycleway", "bridleway", "steps"], "#fa8072", null, 1.2],
  [["track"], "#c6a45f", null, 1.3],
  [["service", "busway", "raceway"], "#ffffff", "#c9c0b6", 3],
  [["pedestrian"], "#eeecf3", "#c2bcc9", 5],
  [["residential", "unclassified", "living_street", "road"], "#ffffff", "#c4bcb2", 6.5],
  [["motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link"], "#fff3c4", "#c9b37e", 5],
  [["tertiary"], "#ffffff", "#b8ac9d", 8],
  [["secondary"], "#f7fabf", "#b9ba85", 9],
  [["primary"], "#fcd6a4", "#c99c64", 10],
  [["trunk"], "#f9b29c", "#c7826f", 10.5],
  [["motorway"], "#e892a2", "#c0677a", 11],
];
const ROAD_RANK = new Map();
ROADS.forEach(([classes], rank) => classes.forEach((c) => ROAD_RANK.set(c, rank)));
const PATHS = new Set(ROADS[0][0]);

const tiles = new Map();            // "z/x/y" → {features, projected} in insertion order (oldest first)
const state = { layer: null, credit: [], lastError: null, notice: null, requested: 0 };

/** The road class rank (0 paths … 10 motorways), for the labels' order; -1 for anything else. */
export const roadRank = (category) => (ROAD_RANK.has(category) ? ROAD_RANK.get(category) : -1);

/** How many features the view's tiles hold (for the browser tests). */
export const streetFeatureCount = () => (map && map.getZoom() >= FIRST_ZOOM ? viewFeatures().length : 0);

/** For the browser tests: whether every tile of the view is drawn (or the zoom draws none), and how many tiles the
 *  page has asked the server for. */
export const streetMapForTests = {
  ready: () => !map || map.getZoom() < FIRST_ZOOM || (!state.layer.isLoading() && viewTileKeys().every((k) => tiles.has(k))),
  get requested() { return state.requested; },
};

/** Sets up the street tiles; does nothing without a map. */
export function initStreetMap() {
  if (!map) return;
  map.createPane("streets").style.zIndex = 180;   // over the coastlines (150), under online tiles (200)
  const StreetTiles = L.GridLayer.extend({ createTile: createTile });
  state.layer = new StreetTiles({
    pane: "streets", tileSize: TILE, minZoom: FIRST_ZOOM, maxZoom: 19, updateWhenZooming: false, keepBuffer: 1,
  });
  state.layer.on("load", checkCoverage);
  state.layer.addTo(map);
  state.notice = element("div", "map-notice no-streets");
  state.notice.id = "no-streets";
  state.notice.setAttribute("role", "status");
  state.notice.hidden = true;
  document.getElementById("map-notices").append(state.notice);
  // The street data's credit goes with the streets.
  map.on("zoomend", () => {
    const shown = map.getZoom() >= FIRST_ZOOM;
    if (!shown) showNotice(false);
    setCredit("streets", shown && state.credit.length ? state.credit : null);
  });
}

/** The features of every tile of the view at its zoom, each once (a feature crossing tiles is in each). */
export function viewFeatures() {
  if (!map || !state.layer) return [];
  const seen = new Set(), found = [];
  for (const key of viewTileKeys()) {
    const tile = tiles.get(key);
    for (const f of tile ? tile.features : []) {
      const id = f.properties.kind + f.properties.id;
      if (seen.has(id)) continue;
      seen.add(id);
      found.push(f);
    }
  }
  return found;
}

/** The keys of the tiles covering the view at its zoom. */
function viewTileKeys() {
  const z = map.getZoom();
  const bounds = map.getPixelBounds();
  const keys = [];
  // The last pixel is max - 1, as Leaflet counts its tiles: a view ending on a tile's edge does not ask for the next.
  for (let x = Math.floor(bounds.min.x / TILE); x <= Math.floor((bounds.max.x - 1) / TILE); x++) {
    for (let y = Math.floor(bounds.min.y / TILE); y <= Math.floor((bounds.max.y - 1) / TILE); y++) keys.push(z + "/" + x + "/" + y);
  }
  return keys;
}

/** Fires when a tile's data arrives (streetlabels.js redraws). */
function announce() { map.fire("streetdata"); }

function createTile(coords, done) {
  const canvas = document.createElement("canvas");
  const ratio = window.devicePixelRatio || 1;
  canvas.width = canvas.height = TILE * ratio;
  const zoom = coords.z;
  const key = zoom + "/" + coords.x + "/" + coords.y;
  loadTile(coords, zoom, key).then((tile) => {
    drawTile(canvas, tile, coords, zoom, ratio);
    done(null, canvas);
    announce();
  }).catch((error) => {
    const message = "Could not draw the streets here: " + error.message;
    if (message !== state.lastError) showMessage(message);   // once per cause, not on every tile
    state.lastError = message;
    done(error, canvas);
  });
  return canvas;
}

/** The tile's data, from the cache or the server. */
async function loadTile(coords, zoom, key) {
  if (tiles.has(key)) {
    const tile = tiles.get(key);
    tiles.delete(key);          // most recently used last
    tiles.set(key, tile);
    return tile;
  }
  const n = Math.pow(2, zoom) * 256 / TILE;   // tiles across the world at this zoom
  const lon = (x) => (x / n) * 360 - 180;
  const lat = (y) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI;
  const box = [lon(coords.x), lat(coords.y + 1), lon(coords.x + 1), lat(coords.y)]
    .map((v, i) => Math.max(i % 2 ? -90 : -180, Math.min(i % 2 ? 90 : 180, v)).toFixed(6));
  state.requested += 1;
  const body = await askTile("/v1/streetmap?zoom=" + zoom + "&limit=20000&bbox=" + box.join(","));
  if (!body || !Array.isArray(body.features)) throw new Error("The server sent street data the page cannot read.");
  const tile = { features: body.features, empty: body.features.length === 0 };
  tiles.set(key, tile);
  if (tiles.size > CACHE_TILES) tiles.delete(tiles.keys().next().value);
  if (Array.isArray(body.attribution) && body.attribution.length) {
    state.credit = body.attribution.map(String);
    setCredit("streets", state.credit);
  }
  state.lastError = null;
  return tile;
}

/** A tile's answer; a server busy with other maps (503 `overloaded`) is asked again after the wait it names, a few
 *  times, as a tile that stays blank is worse than one that comes a second late. */
async function askTile(path) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api(path);
    } catch (error) {
      if (error.code !== "overloaded" || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * (error.retryAfter || 1)));
    }
  }
}

/** Web Mercator pixels at `zoom` of a [longitude, latitude] position. */
export function project(position, zoom) {
  const scale = 256 * Math.pow(2, zoom);
  const lat = Math.max(-85.05, Math.min(85.05, position[1])) * Math.PI / 180;
  return [((position[0] + 180) / 360) * scale, ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * scale];
}

/** The parts of a feature's geometry as lists of positions: a line's lines, an area's rings, a point. */
export function partsOf(geometry) {
  switch (geometry.type) {
    case "LineString": return [geometry.coordinates];
    case "MultiLineString": case "Polygon": return geometry.coordinates;
    case "MultiPolygon": return geometry.coordinates.flat();
    case "Point": return [[geometry.coordinates]];
    default: return [];
  }
}

/** Traces a feature's parts as one path in the tile's pixels. */
function trace(ctx, feature, origin, zoom, close) {
  for (const part of partsOf(feature.geometry)) {
    part.forEach((position, i) => {
      const [x, y] = project(position, zoom);
      if (i === 0) ctx.moveTo(x - origin[0], y - origin[1]); else ctx.lineTo(x - origin[0], y - origin[1]);
    });
    if (close) ctx.closePath();
  }
}

/** How wide a road of `width` pixels at zoom 16 is drawn at `zoom`. */
const widthAt = (width, zoom) => Math.max(0.6, width * Math.pow(2, (zoom - 16) * 0.75));

function drawTile(canvas, tile, coords, zoom, ratio) {
  const ctx = canvas.getContext("2d");
  ctx.scale(ratio, ratio);
  ctx.lineJoin = ctx.lineCap = "round";
  const origin = [coords.x * TILE, coords.y * TILE];
  const byKind = {};
  for (const f of tile.features) (byKind[f.properties.kind] = byKind[f.properties.kind] || []).push(f);
  for (const kind of ["landuse", "park", "water"]) fillAreas(ctx, byKind[kind] || [], kind, origin, zoom);
  strokeLines(ctx, byKind.waterway || [], origin, zoom, (f) => ["#8fc6da", widthAt(f.properties.category === "river" ? 5 : 2, zoom)]);
  drawRailways(ctx, byKind.railway || [], origin, zoom);
  drawBuildings(ctx, byKind.building || [], origin, zoom);
  drawRoads(ctx, byKind.street || [], origin, zoom);
}

function fillAreas(ctx, features, kind, origin, zoom) {
  for (const f of features) {
    ctx.beginPath();
    trace(ctx, f, origin, zoom, true);
    ctx.fillStyle = (FILL[kind] && FILL[kind][f.properties.category]) || DEFAULT_FILL[kind];
    ctx.fill("evenodd");
  }
}

function strokeLines(ctx, features, origin, zoom, style, dash) {
  for (const f of features) {
    const [color, width] = style(f);
    ctx.beginPath();
    trace(ctx, f, origin, zoom, false);
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.setLineDash(dash ? dash(f) : []);
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

function drawRailways(ctx, features, origin, zoom) {
  const rail = (f) => f.properties.category === "rail";
  strokeLines(ctx, features, origin, zoom, (f) => ["#9a9a9a", rail(f) ? widthAt(3, zoom) : widthAt(1.6, zoom)]);
  strokeLines(ctx, features.filter(rail), origin, zoom, () => ["#ffffff", widthAt(1.6, zoom)], () => [6, 6]);
}

function drawBuildings(ctx, features, origin, zoom) {
  ctx.fillStyle = DEFAULT_FILL.building;
  ctx.strokeStyle = "#c4b5a8";
  ctx.lineWidth = zoom >= 16 ? 0.8 : 0.5;
  for (const f of features) {
    ctx.beginPath();
    trace(ctx, f, origin, zoom, true);
    ctx.fill("evenodd");
    if (zoom >= 15) ctx.stroke();
  }
}

function drawRoads(ctx, features, origin, zoom) {
  const sorted = features.slice().sort((a, b) => roadRank(a.properties.category) - roadRank(b.properties.category));
  const style = (f) => ROADS[Math.max(0, roadRank(f.properties.category))];
  const cased = sorted.filter((f) => style(f)[2]);
  strokeLines(ctx, cased, origin, zoom, (f) => [style(f)[2], widthAt(style(f)[3], zoom) + (zoom >= 15 ? 2 : 1)]);
  strokeLines(ctx, sorted, origin, zoom, (f) => [style(f)[1], widthAt(style(f)[3], zoom)],
    (f) => (PATHS.has(f.properties.category) && zoom >= 16 ? [3, 3] : []));
}

// ---------- where there is no street data ----------

/** Once the view's tiles are in: when none holds anything, say so on the map and offer the way out. */
function checkCoverage() {
  const keys = viewTileKeys();
  const loaded = keys.filter((k) => tiles.has(k));
  showNotice(map.getZoom() >= FIRST_ZOOM + 1 && loaded.length === keys.length && loaded.every((k) => tiles.get(k).empty));
}

function showNotice(show) {
  const notice = state.notice;
  if (!notice || show === !notice.hidden) return;
  notice.hidden = !show;
  if (!show) return;
  const zoomOut = element("button", "link-button", "Zoom out");
  zoomOut.type = "button";
  zoomOut.addEventListener("click", () => map.setZoom(FIRST_ZOOM - 2));
  notice.replaceChildren(element("strong", null, "No street map here."),
    " Streets are drawn where an OpenStreetMap extract was imported (pindrop import osm FILE). ", zoomOut);
}
