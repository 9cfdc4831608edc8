// Pindrop web app: the offline street map, drawn by the page itself from the server's data. From zoom 12 in, a tile
// layer asks /v1/streetmap for each 512-pixel tile at the zoom it is drawn at (the server sends only what that zoom
// shows, simplified for it) and paints it on a canvas (streetpaint.js), over the coastlines (basemap.js) and under
// online tiles. The names along the streets and the venues' icons are streetlabels.js's, from the same tiles. Where
// the view holds no street data at all, the map says so.
import { element } from "./dom.js";
import { api } from "./api.js";
import { showMessage } from "./panel.js";
import { map, setCredit } from "./map.js";
import { paintTile } from "./streetpaint.js";

const FIRST_ZOOM = 12;              // the server's MapDetail.firstZoom: nothing of the street map is drawn below
const TILE = 512;
const CACHE_TILES = 400;            // tiles' data kept for going back (a few views at each of a few zooms)
const PAINTED_PIXELS = 36 * TILE * TILE;   // painted tiles kept for going back: 36 MB of canvas whatever the screen
const tiles = new Map();            // "z/x/y" → {features, empty, passes} in insertion order (oldest first)
const painted = new Map();          // "z/x/y" → its canvas, painted, in the same order
const loading = new Map();          // "z/x/y" → the answer on its way
const state = { layer: null, credit: [], lastError: null, notice: null, requested: 0 };

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

/** Fires when a tile is drawn (streetlabels.js redraws), saying whether every tile of the view is in now. */
function announce() { map.fire("streetdata", { complete: viewTileKeys().every((k) => tiles.has(k)) }); }

function createTile(coords, done) {
  const ratio = window.devicePixelRatio || 1;
  const zoom = coords.z;
  const key = zoom + "/" + coords.x + "/" + coords.y;
  const kept = keptCanvas(key, ratio);
  if (kept) {
    // Leaflet takes the tile once this returns: ready on the next turn, with no painting at all.
    Promise.resolve().then(() => { done(null, kept); announce(); });
    return kept;
  }
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = TILE * ratio;
  loadTile(coords, zoom, key).then((tile) => {
    const ctx = canvas.getContext("2d");
    ctx.scale(ratio, ratio);
    paintTile(ctx, tile, [coords.x * TILE, coords.y * TILE], zoom);
    keepCanvas(key, canvas);
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

/** The canvas a tile was painted on before, when it is off the map now and its data still kept. */
function keptCanvas(key, ratio) {
  const canvas = painted.get(key);
  if (!canvas || canvas.isConnected || canvas.width !== TILE * ratio || !tiles.has(key)) return null;
  touch(painted, key);
  touch(tiles, key);
  return canvas;
}

function keepCanvas(key, canvas) {
  painted.set(key, canvas);
  const most = Math.max(4, Math.floor(PAINTED_PIXELS / (canvas.width * canvas.height)));
  while (painted.size > most) painted.delete(painted.keys().next().value);
}

/** Puts `key` last in `cache` (most recently used). */
function touch(cache, key) {
  const value = cache.get(key);
  cache.delete(key);
  cache.set(key, value);
  return value;
}

/** The tile's data, from the cache, the request on its way, or the server. */
function loadTile(coords, zoom, key) {
  if (tiles.has(key)) return Promise.resolve(touch(tiles, key));
  if (!loading.has(key)) loading.set(key, askServer(coords, zoom, key).finally(() => loading.delete(key)));
  return loading.get(key);
}

async function askServer(coords, zoom, key) {
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
