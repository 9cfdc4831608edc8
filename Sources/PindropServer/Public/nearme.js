// Pindrop web app: "Near me" mode (PRODUCT.md §4). Takes the browser's location once (or the configured default
// location, and says so), lists and pins the venues within a radius (slider, 1000 m at first) with the searched
// circle drawn, filters by category, and shows each venue's name under its pin and its address when tapped.
// Venue names only ever reach the page as text (textContent, DOM nodes), never as HTML.
import { $, element } from "./dom.js";
import { api } from "./api.js";
import { showMessage, setPanelCollapsed, collapseOnSmallScreens, uncoveredPadding } from "./panel.js";
import { map, setCredit } from "./map.js";
import { addressLine } from "./place.js";

const RADIUS = { initial: 1000, min: 100, max: 5000, step: 100 };
const VENUE_LIMIT = 100;             // the API's largest page
const OSM_CREDIT = "© OpenStreetMap contributors";
// OSM tag values the engine uses as categories (amenity=cafe → "cafe", shop=bakery → "bakery").
const CATEGORIES = [
  ["", "All categories"], ["cafe", "Cafés"], ["restaurant", "Restaurants"], ["fast_food", "Fast food"], ["pub", "Pubs"],
  ["bar", "Bars"], ["nightclub", "Nightclubs"], ["hotel", "Hotels"], ["hostel", "Hostels"], ["museum", "Museums"],
  ["gallery", "Galleries"], ["attraction", "Attractions"], ["theatre", "Theatres"], ["cinema", "Cinemas"],
  ["library", "Libraries"], ["place_of_worship", "Places of worship"], ["supermarket", "Supermarkets"],
  ["convenience", "Convenience shops"], ["bakery", "Bakeries"], ["clothes", "Clothes shops"], ["books", "Bookshops"],
  ["pharmacy", "Pharmacies"], ["bank", "Banks"], ["hairdresser", "Hairdressers"], ["artwork", "Public art"],
];

const near = {
  active: false,
  center: null,          // {lat, lon} the venues are searched around
  source: null,          // "you": the browser's location; "default": the configured fallback
  radius: RADIUS.initial,
  category: "",
  seq: 0,                // every venue request gets a number; only the newest may draw
  locateSeq: 0,
  venues: [],            // the last answer, nearest first
  answered: null,        // the URL of the last request answered (or failed), for the tests
  markers: [],
  layer: null, circle: null, centerMarker: null,
};
const ui = {};
let config = null;       // the server's settings: defaultCenter

/** For the browser tests (window.pindrop.nearme) and for people debugging in the console. */
export const nearMeForTests = {
  state: near,
  /** The names shown under pins (not those hidden inside clusters or behind a nearer venue's name). */
  venueLabels: () => [...document.querySelectorAll(".venue-label:not(.label-hidden)")].map((e) => e.textContent),
};

function formatDistance(meters) {
  return meters < 1000 ? Math.round(meters) + " m" : (meters / 1000).toFixed(meters < 10000 ? 1 : 0) + " km";
}

function categoryLabel(category) {
  if (!category) return "";
  const words = category.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// ---------- the mode's panel ----------

/** Builds the mode's section and wires the "Near me" button; `settings` is the page's config. */
export function initNearMe(settings) {
  config = settings;
  buildPanel();
  ui.toggle = $("near-me-toggle");
  ui.toggle.addEventListener("click", () => (near.active ? leave() : enter()));
}

/** Leaves the mode if it is on (one mode at a time). */
export function leaveNearMe() {
  if (near.active) leave();
}

function buildPanel() {
  const section = element("section", null);
  section.id = "nearme";
  section.hidden = true;
  section.setAttribute("aria-label", "Near me");
  section.append(element("h2", null, "Near me"));
  ui.where = element("p", "nearme-where");
  ui.where.id = "nearme-where";
  ui.where.setAttribute("role", "status");

  const controls = element("div", "nearme-controls");
  const radiusLabel = element("label", "nearme-radius-label", "Radius ");
  radiusLabel.htmlFor = "nearme-radius";
  ui.radiusValue = element("output", null, formatDistance(near.radius));
  ui.radiusValue.id = "nearme-radius-value";
  radiusLabel.append(ui.radiusValue);
  ui.radius = document.createElement("input");
  Object.assign(ui.radius, { type: "range", id: "nearme-radius", min: RADIUS.min, max: RADIUS.max, step: RADIUS.step, value: near.radius });
  ui.radius.setAttribute("aria-valuetext", formatDistance(near.radius));
  ui.category = document.createElement("select");
  ui.category.id = "nearme-category";
  ui.category.setAttribute("aria-label", "Category");
  CATEGORIES.forEach(([value, label]) => {
    const option = element("option", null, label);
    option.value = value;
    ui.category.append(option);
  });
  controls.append(radiusLabel, ui.radius, ui.category);

  ui.count = element("p", "nearme-count");
  ui.count.id = "nearme-count";
  ui.list = element("ul", "nearme-list");
  ui.list.id = "nearme-list";
  section.append(ui.where, controls, ui.count, ui.list);
  $("panel-body").prepend(section);
  ui.section = section;

  // The label follows the thumb; venues reload when it is let go (or on each arrow-key step).
  ui.radius.addEventListener("input", () => {
    ui.radiusValue.textContent = formatDistance(Number(ui.radius.value));
    ui.radius.setAttribute("aria-valuetext", ui.radiusValue.textContent);
  });
  ui.radius.addEventListener("change", () => {
    near.radius = Number(ui.radius.value);
    if (near.center) loadVenues(true);
  });
  ui.category.addEventListener("change", () => {
    near.category = ui.category.value;
    if (near.center) loadVenues(true);
  });
}

// ---------- entering and leaving ----------

function enter() {
  near.active = true;
  ui.toggle.setAttribute("aria-pressed", "true");
  ui.section.hidden = false;
  setPanelCollapsed(false);
  if (!near.layer && map) {
    near.layer = typeof L.markerClusterGroup === "function"
      ? L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 36, disableClusteringAtZoom: 18 })
      : L.featureGroup();
    near.layer.on("animationend", scheduleDeclutter);
    map.on("zoomend moveend", scheduleDeclutter);
  }
  if (near.layer && map) near.layer.addTo(map);
  locate();
}

function leave() {
  near.active = false;
  near.seq++;
  near.locateSeq++;
  ui.toggle.setAttribute("aria-pressed", "false");
  ui.section.hidden = true;
  if (near.layer) { near.layer.clearLayers(); near.layer.remove(); }
  if (near.circle) { near.circle.remove(); near.circle = null; }
  if (near.centerMarker) { near.centerMarker.remove(); near.centerMarker = null; }
  near.venues = [];
  near.markers = [];
  near.center = null;
  ui.list.replaceChildren();
  ui.count.textContent = "";
  setCredit("venues", null);
}

/** Asks the browser for the position once (no tracking); falls back to the configured default location. */
function locate() {
  const seq = ++near.locateSeq;
  ui.where.textContent = "Finding your location…";
  ui.section.classList.remove("fallback");
  if (!("geolocation" in navigator)) { useDefault("This browser cannot tell your location."); return; }
  navigator.geolocation.getCurrentPosition((position) => {
    if (seq !== near.locateSeq || !near.active) return;
    near.source = "you";
    near.center = { lat: position.coords.latitude, lon: position.coords.longitude };
    ui.where.textContent = "Venues around your location.";
    loadVenues(true);
  }, (error) => {
    if (seq !== near.locateSeq || !near.active) return;
    useDefault(error.code === 1 ? "Location permission was refused."
      : error.code === 3 ? "Your location took too long to find." : "Your location is unavailable.");
  }, { enableHighAccuracy: false, timeout: 15000, maximumAge: 60000 });
}

function useDefault(reason) {
  const c = config.defaultCenter;
  near.source = "default";
  near.center = { lat: c.latitude, lon: c.longitude };
  const where = reason + " Showing venues near the default location (" + c.latitude.toFixed(4) + ", " + c.longitude.toFixed(4) + ") instead.";
  ui.where.textContent = where;
  ui.section.classList.add("fallback");
  showMessage(where);
  loadVenues(true);
}

// ---------- venues ----------

function drawCenter() {
  if (!map) return;
  const latlng = [near.center.lat, near.center.lon];
  if (near.circle) near.circle.remove();
  near.circle = L.circle(latlng, {
    radius: near.radius, color: "#2a6fdb", weight: 2, dashArray: "6 5", fillColor: "#2a6fdb", fillOpacity: 0.06,
    interactive: false, className: "nearme-circle",
  }).addTo(map);
  if (near.centerMarker) near.centerMarker.remove();
  const you = near.source === "you";
  near.centerMarker = L.marker(latlng, {
    icon: L.divIcon({ className: "", html: '<div class="you-are-here' + (you ? "" : " nearme-default") + '"></div>', iconSize: [22, 22] }),
    title: you ? "You are here" : "Default location", keyboard: false, zIndexOffset: 1000,
  }).addTo(map);
}

/** Shows `bounds` (default: the whole circle) clear of the search panel. */
function fitView(bounds) {
  bounds = bounds || L.latLng(near.center.lat, near.center.lon).toBounds(near.radius * 2);
  map.fitBounds(bounds, Object.assign(uncoveredPadding(20, 20), { maxZoom: 17, animate: false }));
}

async function loadVenues(fit) {
  const seq = ++near.seq;
  drawCenter();
  if (fit && map) fitView();
  ui.section.classList.add("busy");
  ui.count.textContent = "Looking for venues…";
  let url = "/v1/nearby?lat=" + near.center.lat.toFixed(6) + "&lon=" + near.center.lon.toFixed(6)
    + "&radius=" + near.radius + "&limit=" + VENUE_LIMIT;
  if (near.category) url += "&category=" + encodeURIComponent(near.category);
  try {
    const body = await api(url);
    if (seq !== near.seq || !near.active) return;
    if (!body || !Array.isArray(body.results)) throw new Error("The server sent an answer the page cannot read.");
    showVenues(body.results.filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude)));
    // Cut at the limit, the venues fill only the middle of the circle: show them rather than the empty rim.
    if (fit && map && near.venues.length >= VENUE_LIMIT) {
      fitView(L.latLngBounds(near.venues.map((p) => [p.latitude, p.longitude]).concat([[near.center.lat, near.center.lon]])));
    }
  } catch (error) {
    if (seq !== near.seq) return;
    showVenues([]);
    ui.count.textContent = "Venues could not be loaded.";
    showMessage("Could not load venues near you: " + error.message);
  } finally {
    if (seq === near.seq) {
      ui.section.classList.remove("busy");
      near.answered = url;
    }
  }
}

function popupContent(place) {
  const box = element("div", "venue-popup");
  box.append(element("div", "popup-name", place.name || place.displayName));
  if (place.category) box.append(element("div", "venue-category", categoryLabel(place.category)));
  box.append(element("div", "venue-address", addressLine(place) || "No street address known"));
  if (Number.isFinite(place.distanceMeters)) box.append(element("div", "venue-distance", formatDistance(place.distanceMeters) + " away"));
  return box;
}

function venueMarker(place) {
  const name = place.name || place.displayName;
  const marker = L.marker([place.latitude, place.longitude], {
    icon: L.divIcon({ className: "venue-pin", html: "<span></span>", iconSize: [24, 24], iconAnchor: [12, 12], popupAnchor: [0, -8] }),
    title: name, alt: name, riseOnHover: true,
  });
  marker.bindTooltip(element("span", null, name), {
    permanent: true, direction: "bottom", offset: [0, 6], className: "venue-label", interactive: false,
  });
  marker.bindPopup(() => popupContent(place));
  marker.place = place;
  return marker;
}

function showVenues(places) {
  near.venues = places;
  if (near.layer) near.layer.clearLayers();
  near.markers = map ? places.map(venueMarker) : [];
  if (near.layer) {
    if (typeof near.layer.addLayers === "function") near.layer.addLayers(near.markers);
    else near.markers.forEach((m) => near.layer.addLayer(m));
  }
  setCredit("venues", places.some((p) => String(p.id).startsWith("osm:")) ? [OSM_CREDIT] : null);
  scheduleDeclutter();

  const within = formatDistance(near.radius);
  const chosen = CATEGORIES.find(([value]) => value === near.category);
  const kind = near.category && chosen ? chosen[1].toLowerCase() : "venues";   // "cafés"
  ui.count.textContent = places.length === 0 ? "No " + kind + " within " + within + "."
    : places.length >= VENUE_LIMIT ? "The nearest " + places.length + " " + kind + " (up to "
      + formatDistance(places[places.length - 1].distanceMeters || 0) + " away) in the " + within + " circle."
      + (near.category ? "" : " Choose a category to see further.")
    : places.length === 1 ? "1 venue within " + within + "."
    : places.length + " " + kind + " within " + within + ".";
  ui.list.replaceChildren();
  places.forEach((place, index) => {
    const li = element("li");
    const button = element("button", "row venue-row");
    button.type = "button";
    button.append(element("span", "venue-row-name", place.name || place.displayName));
    const details = [categoryLabel(place.category), Number.isFinite(place.distanceMeters) ? formatDistance(place.distanceMeters) : ""]
      .filter(Boolean).join(" · ");
    if (details) button.append(element("span", "venue-row-details", details));
    button.addEventListener("click", () => openVenue(index));
    li.append(button);
    ui.list.append(li);
  });
}

/** Hides the names that would cover a nearer venue's name; the pin stays, and tapping it shows the name. */
function declutter() {
  if (!map || !near.active) return;
  const placed = [];
  near.markers.forEach((marker) => {
    const tooltip = marker.getTooltip();
    const label = tooltip && tooltip.getElement();
    if (!label || !map.hasLayer(marker)) return;   // inside a cluster
    label.classList.remove("label-hidden");
    const r = label.getBoundingClientRect();
    const covers = placed.some((p) => r.left < p.right && r.right > p.left && r.top < p.bottom && r.bottom > p.top);
    label.classList.toggle("label-hidden", covers);
    if (!covers) placed.push(r);
  });
}

let declutterTimer = 0;
function scheduleDeclutter() {
  clearTimeout(declutterTimer);
  declutterTimer = setTimeout(declutter, 50);
}

function openVenue(index) {
  const marker = near.markers[index];
  if (!marker) return;
  if (typeof near.layer.zoomToShowLayer === "function") near.layer.zoomToShowLayer(marker, () => marker.openPopup());
  else marker.openPopup();
  collapseOnSmallScreens();
}
