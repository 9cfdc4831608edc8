// Pindrop web app: the Leaflet map. Leaflet (the global `L`) comes from Debian's libjs-leaflet as classic scripts
// loaded before the modules. This module owns the map and its base layers (the offline basemap, online tiles when
// configured and reachable), the credits folded into one line at the bottom, the zoom buttons, and the pins of search
// results and of one chosen place. Where you are is locate.js's.
import { $, element } from "./dom.js";
import { credit as providerCredit } from "./providers.js";
import { showMessage, uncoveredPadding } from "./panel.js";
import { placeName } from "./place.js";
import { initBasemap } from "./basemap.js";
import { isPhone, sheetPixels, onSheetChange } from "./sheet.js";
import { initLocate } from "./locate.js";

export { userPosition } from "./locate.js";

/** The Leaflet map: null until set up, and for good when Leaflet is missing (search works without it). */
export let map = null;
let config = null;          // the server's settings (/v1/config)
let resultLayer = null;     // the last search's results, clustered
let singleLayer = null;     // the selected result or the chosen place, kept out of the clusters
let pinChosen = null;       // what a click on a result's pin does (search.js): choose that result
const credits = new Map();  // who needs a credit → its texts; the union is shown on the map
const TILE_FAILURES_TO_GIVE_UP = 4;   // the first view asks for ~12 tiles; four failures and no success is no network

/** The view's centre as a location bias ("&lat=…&lon=…"), sent with every search and suggestion whatever the zoom:
 *  "Kah" means the café down the street, "hotel" a hotel where the map is. "" without the map. */
export function nearViewQuery() {
  if (!map) return "";
  const c = map.getCenter().wrap();
  return "&lat=" + c.lat.toFixed(5) + "&lon=" + c.lng.toFixed(5);
}

/** Sets up the map and its buttons with the server's settings. */
export function initMap(settings) {
  config = settings;
  $("zoom-in").addEventListener("click", () => map && map.zoomIn());
  $("zoom-out").addEventListener("click", () => map && map.zoomOut());
  if (typeof window.L === "undefined") {
    showMessage("The map library is not installed on the server (Debian package libjs-leaflet). Search still works.");
    return;
  }
  map = L.map("map", { zoomControl: false, worldCopyJump: true, minZoom: 2, maxZoom: 19 })
    .setView([config.defaultCenter.latitude, config.defaultCenter.longitude], config.defaultZoom);
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  foldCredits();
  // Offline basemap (basemap.js): GSHHG coastlines and borders, or the Natural Earth countries, under the tiles.
  initBasemap(map, config);
  watchTiles();
  resultLayer = typeof L.markerClusterGroup === "function"
    ? L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 40 }) : L.featureGroup();
  resultLayer.addTo(map);
  singleLayer = L.featureGroup().addTo(map);
  initLocate(map, config);
  // The sheet rising over the chosen pin: keep it in view above the sheet.
  onSheetChange(() => { if (singleLayer.getLayers().length === 1) keepInView(singleLayer.getLayers()[0].getLatLng()); });
}

/** Sets what a click on a result's pin does. */
export function onPinChosen(handler) { pinChosen = handler; }

/**
 * Online tiles when configured and reachable. When the first tiles all fail (no network, a blocked server), the
 * layer is removed so the page stops asking, and the credits line says "Offline map"; the offline layers (land,
 * streets, names) are the map then. The browser's "online" event tries the tiles again. map.tilesOffline and the
 * "tilesstate" event tell the other layers which case holds.
 */
function watchTiles() {
  const badge = element("span", "offline-badge", "Offline map");
  const setOffline = (offline) => {
    if (map.tilesOffline === offline) return;
    map.tilesOffline = offline;
    if (offline) $("credits").prepend(badge); else badge.remove();
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
 * The credits in one line at the bottom of the map: "Offline map" when the tiles are given up, who answered the
 * last question (providers.js) and the data's credits (the attribution control, moved in). The line ends in "…" when
 * it is longer than the screen; a tap opens it whole, another folds it. Its height is --credits-height on <html>.
 */
function foldCredits() {
  const line = element("div");
  line.id = "credits";
  line.setAttribute("role", "contentinfo");
  line.setAttribute("aria-label", "Credits");
  line.title = "Credits: tap to read them whole";
  line.append(providerCredit, map.attributionControl.getContainer());
  map.getContainer().parentElement.append(line);
  const measure = () => document.documentElement.style.setProperty("--credits-height", Math.ceil(line.getBoundingClientRect().height) + "px");
  line.addEventListener("click", (event) => {
    if (event.target.closest("a")) return;
    line.classList.toggle("open");
    measure();
  });
  measure();
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(line);
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

function markerFor(place, index) {
  const marker = L.marker([place.latitude, place.longitude], { title: placeName(place), alt: place.name });
  marker.place = place;
  // A pin opens its place's card (which says what a popup would): the chosen result when it is one.
  marker.on("click", () => { if (pinChosen && index != null) pinChosen(index); });
  return marker;
}

function zoomFor(place) {
  if (place.address && (place.address.street || place.address.houseNumber)) return 17;
  if (place.category) return 17;
  if (place.population > 1000000) return 10;
  return 12;
}

/** Pins every place; centres the selected one (kept out of the clusters), or fits them all. Views jump without
 *  animation: a click during a running zoom animation would otherwise be undone by it. */
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
  frame(markers[selectedIndex], 5);
}

/** Shows a place: the whole of its boundary when it is an area (a town, a district: its boundingBox), else its
 *  point at the zoom its kind wants (at least `minZoom`), clear of the panel. */
function frame(marker, minZoom = 0) {
  const box = marker.place.boundingBox;
  if (box) {
    map.fitBounds([[box.south, box.west], [box.north, box.east]], Object.assign(uncoveredPadding(), { animate: false }));
  } else {
    map.setView(marker.getLatLng(), Math.max(zoomFor(marker.place), minZoom), { animate: false });
    keepInView(marker.getLatLng());
  }
}

/** On a phone, moves the map so that `latlng` sits in the middle of what the sheet leaves of it. */
function keepInView(latlng) {
  if (!isPhone()) return;
  const zoom = map.getZoom();
  const centre = map.unproject(map.project(latlng, zoom).add([0, sheetPixels() / 2]), zoom);
  map.setView(centre, zoom, { animate: false });
}

/** Drops one pin on a chosen address or saved place and centres it. */
export function showPlace(place) {
  if (!map) return;
  clearPlaces();
  frame(markerFor(place).addTo(singleLayer));
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
