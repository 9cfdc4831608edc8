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
  // Online tiles when reachable; a failed tile stays invisible and never breaks the page.
  if (config.tileURL) {
    L.tileLayer(config.tileURL, { maxZoom: 19, attribution: config.tileAttribution, crossOrigin: true }).addTo(map);
  }
  resultLayer = typeof L.markerClusterGroup === "function"
    ? L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 40 }) : L.featureGroup();
  resultLayer.addTo(map);
  singleLayer = L.featureGroup().addTo(map);
  watchBottomStack();
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
      map.setView(markers[0].getLatLng(), zoomFor(markers[0].place), { animate: false });
    } else if (markers.length > 1) {
      map.fitBounds(L.latLngBounds(markers.map((m) => m.getLatLng())), Object.assign(uncoveredPadding(), { maxZoom: 12, animate: false }));
    }
    return;
  }
  const marker = markers[selectedIndex];
  map.setView(marker.getLatLng(), Math.max(zoomFor(marker.place), 5), { animate: false });
  marker.openPopup();
}

/** Drops one pin on a chosen address or saved place and centres it. Before the map moves it fires "placeshown",
 *  so the centre pin keeps the chosen name in the field instead of looking up the new centre. */
export function showPlace(place) {
  if (!map) return;
  clearPlaces();
  const marker = markerFor(place).addTo(singleLayer);
  map.fire("placeshown", { place });
  map.setView(marker.getLatLng(), zoomFor(place), { animate: false });
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

function locationFailed(reason) {
  stopFollowing();
  const c = config.defaultCenter;
  showMessage(reason + " Showing the default location instead; search works as usual.");
  if (map) map.setView([c.latitude, c.longitude], Math.max(map.getZoom(), 10));
}

/** Follows the user's position until pressed again. */
function toggleFollow() {
  if (follow.watchID !== null) { stopFollowing(); return; }
  if (!("geolocation" in navigator)) { locationFailed("This browser cannot tell your location."); return; }
  $("my-location").setAttribute("aria-pressed", "true");
  let first = true;
  follow.watchID = navigator.geolocation.watchPosition((position) => {
    const { latitude, longitude } = position.coords;
    showYou(latitude, longitude);
    if (map) {
      if (first) map.setView([latitude, longitude], Math.max(map.getZoom(), 15)); else map.panTo([latitude, longitude]);
    }
    first = false;
  }, (error) => {
    if (error.code === 1) locationFailed("Location permission was refused.");
    else if (error.code === 3) locationFailed("Your location took too long to find.");
    else locationFailed("Your location is unavailable.");
  }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 10000 });
}
