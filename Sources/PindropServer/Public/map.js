// Pindrop web app: the Leaflet map. Leaflet (the global `L`) comes from Debian's libjs-leaflet as classic scripts
// loaded before the modules. This module owns the map and its base layers (offline Natural Earth countries, online
// tiles when configured), the credits at the bottom, the zoom and "my location" buttons, and the pins of search
// results and of one chosen place.
import { $, element } from "./dom.js";
import { api } from "./api.js";
import { credit as providerCredit } from "./providers.js";
import { showMessage, uncoveredPadding } from "./panel.js";
import { placeName, formatCoordinates } from "./place.js";
import { initBasemap } from "./basemap.js";

/** The Leaflet map: null until set up, and for good when Leaflet is missing (search works without it). */
export let map = null;
let config = null;          // the server's settings (/v1/config)
let resultLayer = null;     // the last search's results, clustered
let singleLayer = null;     // the selected result or the chosen place, kept out of the clusters
const credits = new Map();  // who needs a credit → its texts; the union is shown on the map
const follow = { watchID: null, marker: null };   // "my location"
const OPEN_ZOOM = 15;
const TILE_FAILURES_TO_GIVE_UP = 4;   // the first view asks for ~12 tiles; four failures and no success is no network       // the zoom the map opens on the user and first follows at: streets are readable there

/** From this zoom (a town or closer) searches and suggestions are biased to the view's centre. */
const NEAR_BIAS_ZOOM = 10;

/** The view's centre as a location bias ("&lat=…&lon=…") once the map shows a town or closer: "Kah" then means the
 *  café down the street, as on any map. "" for a wider view or without the map. */
export function nearViewQuery() {
  if (!map || map.getZoom() < NEAR_BIAS_ZOOM) return "";
  const c = map.getCenter().wrap();
  return "&lat=" + c.lat.toFixed(5) + "&lon=" + c.lng.toFixed(5);
}

/** Sets up the map and its buttons with the server's settings. */
export function initMap(settings) {
  config = settings;
  $("zoom-in").addEventListener("click", () => map && map.zoomIn());
  $("zoom-out").addEventListener("click", () => map && map.zoomOut());
  $("my-location").addEventListener("click", toggleFollow);
  if (typeof window.L === "undefined") {
    showMessage("The map library is not installed on the server (Debian package libjs-leaflet). Search still works.");
    return;
  }
  map = L.map("map", { zoomControl: false, worldCopyJump: true, minZoom: 2, maxZoom: 19 })
    .setView([config.defaultCenter.latitude, config.defaultCenter.longitude], config.defaultZoom);
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  // Offline basemap (basemap.js): GSHHG coastlines and borders, or the Natural Earth countries, under the tiles.
  initBasemap(map, config);
  watchTiles();
  resultLayer = typeof L.markerClusterGroup === "function"
    ? L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 40 }) : L.featureGroup();
  resultLayer.addTo(map);
  singleLayer = L.featureGroup().addTo(map);
  watchBottomStack();
  openOnUser();
}

/**
 * Online tiles when configured and reachable. When the first tiles all fail (no network, a blocked server), the
 * layer is removed so the page stops asking, and the map says "Offline map" once, in its corner; the offline
 * layers (land, streets, place names) are the map then. The browser's "online" event tries the tiles again.
 * map.tilesOffline and the "tilesstate" event tell the other layers which case holds.
 */
function watchTiles() {
  const badge = L.control({ position: "bottomright" });
  badge.onAdd = () => element("div", "offline-badge", "Offline map");
  const setOffline = (offline) => {
    if (map.tilesOffline === offline) return;
    map.tilesOffline = offline;
    if (offline) badge.addTo(map); else badge.remove();
    map.fire("tilesstate", { offline });
  };
  if (!config.tileURL) { setOffline(true); return; }
  let tiles = null;
  const start = () => {
    let loaded = 0, failed = 0;
    tiles = L.tileLayer(config.tileURL, { maxZoom: 19, attribution: config.tileAttribution, crossOrigin: true });
    tiles.on("tileload", () => { loaded += 1; setOffline(false); });
    tiles.on("tileerror", () => {
      failed += 1;
      if (loaded === 0 && failed >= TILE_FAILURES_TO_GIVE_UP && tiles) { map.removeLayer(tiles); tiles = null; setOffline(true); }
    });
    tiles.addTo(map);
  };
  start();
  window.addEventListener("online", () => { if (!tiles) start(); });
}

/**
 * The bottom of the screen stacks up: the map's attribution (bottom right), the providers' credit (bottom left, or
 * on its own line just above the attribution when the two would collide, as on a phone), and on a phone the place
 * card and the map buttons above them (app.css). The credits wrap, so their heights are measured here and handed
 * to the CSS as custom properties on <html>.
 */
function watchBottomStack() {
  const attribution = map.attributionControl ? map.attributionControl.getContainer() : null;
  const card = $("place-card");
  const root = document.documentElement;
  const shown = (e) => Boolean(e && e.offsetParent !== null);
  const update = () => {
    const a = shown(attribution) ? attribution.getBoundingClientRect() : null;
    const c = shown(providerCredit) ? providerCredit.getBoundingClientRect() : null;
    // Lifting the credit changes neither width, so this cannot flip back and forth.
    const stacked = Boolean(a && c && c.right > a.left);
    root.classList.toggle("credits-stacked", stacked);
    const ah = a ? Math.ceil(a.height) : 0, ch = c ? Math.ceil(c.height) : 0;
    root.style.setProperty("--map-attribution-height", ah + "px");
    root.style.setProperty("--map-credits-height", (stacked ? ah + ch : Math.max(ah, ch)) + "px");
    root.style.setProperty("--place-card-height", (shown(card) ? Math.ceil(card.getBoundingClientRect().height) : 0) + "px");
  };
  update();
  if (typeof ResizeObserver !== "function") return;
  const observer = new ResizeObserver(update);
  [attribution, providerCredit, card].forEach((e) => { if (e) observer.observe(e); });
}

/** Map credits as plain text (the attribution control takes HTML, so the text is escaped first). */
export function setCredit(owner, texts) {
  if (!map || !map.attributionControl) return;
  const escape = (s) => { const d = document.createElement("div"); d.textContent = s; return d.innerHTML; };
  const before = new Set([...credits.values()].flat());
  if (texts && texts.length) credits.set(owner, texts); else credits.delete(owner);
  const after = new Set([...credits.values()].flat());
  before.forEach((t) => { if (!after.has(t)) map.attributionControl.removeAttribution(escape(t)); });
  after.forEach((t) => {
    if (before.has(t)) return;
    // The online tiles' credit may already say the same thing; do not show it twice.
    const shown = map.attributionControl.getContainer().textContent.replace(/\s+/g, " ");
    if (!shown.includes(t)) map.attributionControl.addAttribution(escape(t));
  });
}

// ---------- pins of results and of the chosen place ----------

/** The popup content, built from text nodes so names stay text. */
function popupContent(place) {
  const box = element("div");
  box.append(element("div", "popup-name", placeName(place)), element("div", "popup-coords", formatCoordinates(place)));
  return box;
}

function markerFor(place) {
  const marker = L.marker([place.latitude, place.longitude], { title: placeName(place), alt: place.name });
  marker.bindPopup(popupContent(place));
  marker.place = place;
  return marker;
}

function zoomFor(place) {
  if (place.address && (place.address.street || place.address.houseNumber)) return 17;
  if (place.category) return 16;
  if (place.population > 1000000) return 10;
  return 12;
}

/** Pins every place; centres the selected one (kept out of the clusters) and opens its popup, or fits them all.
 *  Views jump without animation: a click during a running zoom animation would otherwise be undone by it. */
export function showResults(places, selectedIndex) {
  if (!map) return;
  clearPlaces();
  const markers = places.map(markerFor);
  markers.forEach((m, i) => (i === selectedIndex ? singleLayer : resultLayer).addLayer(m));
  if (selectedIndex == null) {
    if (markers.length === 1) {
      frame(markers[0]);
    } else if (markers.length > 1) {
      map.fitBounds(L.latLngBounds(markers.map((m) => m.getLatLng())), Object.assign(uncoveredPadding(), { maxZoom: 12, animate: false }));
    }
    return;
  }
  const marker = markers[selectedIndex];
  frame(marker, 5);
  marker.openPopup();
}

/** Shows a place: the whole of its boundary when it is an area (a town, a district: its boundingBox), else its
 *  point at the zoom its kind wants (at least `minZoom`). */
function frame(marker, minZoom = 0) {
  const box = marker.place.boundingBox;
  if (box) {
    map.fitBounds([[box.south, box.west], [box.north, box.east]], Object.assign(uncoveredPadding(), { animate: false }));
  } else {
    map.setView(marker.getLatLng(), Math.max(zoomFor(marker.place), minZoom), { animate: false });
  }
}

/** Drops one pin on a chosen address or saved place and centres it. */
export function showPlace(place) {
  if (!map) return;
  clearPlaces();
  const marker = markerFor(place).addTo(singleLayer);
  frame(marker);
  marker.openPopup();
}

export function clearPlaces() {
  if (!map) return;
  resultLayer.clearLayers();
  singleLayer.clearLayers();
}

/** How many result and chosen-place pins the map holds (for the browser tests). */
export function placeMarkerCount() {
  return resultLayer ? resultLayer.getLayers().length + singleLayer.getLayers().length : 0;
}

// ---------- my location ----------

/**
 * The map opens on the user: the position is asked for once on load (the browser asks for
 * permission then) and shown with the "You are here" pin. It recentres the map only while nobody has moved it
 * yet, so a late answer never undoes a search, a chosen place or a drag. Without permission, or without a fix,
 * the map stays on the configured default view and nothing else changes.
 */
function openOnUser() {
  if (!("geolocation" in navigator)) return;
  let untouched = true;
  map.once("movestart", () => { untouched = false; });
  navigator.geolocation.getCurrentPosition((position) => {
    const { latitude, longitude } = position.coords;
    showYou(latitude, longitude);
    if (untouched) map.setView([latitude, longitude], OPEN_ZOOM, { animate: false });
  }, () => { /* refused or unavailable: the default view stays, as with any map that cannot locate you */ },
  { enableHighAccuracy: false, timeout: 15000, maximumAge: 60000 });
}

function showYou(lat, lon) {
  if (!map) return;
  if (!follow.marker) {
    follow.marker = L.marker([lat, lon], {
      icon: L.divIcon({ className: "", html: '<div class="you-are-here"></div>', iconSize: [22, 22] }),
      title: "You are here", keyboard: false, zIndexOffset: 1000,
    }).addTo(map);
  } else {
    follow.marker.setLatLng([lat, lon]);
  }
}

function stopFollowing() {
  if (follow.watchID !== null) navigator.geolocation.clearWatch(follow.watchID);
  follow.watchID = null;
  $("my-location").setAttribute("aria-pressed", "false");
}

/**
 * Follows the user's position until pressed again. Only a refusal stops it: "unavailable" and "took too long"
 * are passing states (indoors, a tunnel), so it says so once and keeps waiting for the next fix. The map never
 * jumps elsewhere on an error; it stays where the user was looking.
 */
function toggleFollow() {
  if (follow.watchID !== null) { stopFollowing(); return; }
  if (!("geolocation" in navigator)) { showMessage("This browser cannot tell your location. Search works as usual."); return; }
  $("my-location").setAttribute("aria-pressed", "true");
  let first = true, saidWaiting = false;
  follow.watchID = navigator.geolocation.watchPosition((position) => {
    const { latitude, longitude } = position.coords;
    showYou(latitude, longitude);
    if (map) {
      if (first) map.setView([latitude, longitude], Math.max(map.getZoom(), OPEN_ZOOM)); else map.panTo([latitude, longitude]);
    }
    first = false;
    saidWaiting = false;
  }, (error) => {
    if (error.code === 1) {
      stopFollowing();
      showMessage("Location permission was refused, so the map cannot show where you are. "
        + "Allow location for this site in the browser to use My location; search works as usual.");
    } else if (!saidWaiting) {
      saidWaiting = true;
      showMessage(error.code === 3 ? "Finding your location is taking a while; still trying."
        : "Your location is not available right now; still trying.");
    }
  }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 10000 });
}
