// Pindrop web app: the "Near me" mode, "nearme". Takes the browser's location once (or the configured default
// location, and says so), lists and pins every venue within a radius (slider, 1000 m at first; fetched page by page
// following the API's `next`, up to VENUE_CAP; venues only: no towns, districts or street furniture) with the searched
// circle drawn and fitted in view, filters by category, and pins each venue on the map (nearmepins.js).
// Venue names only ever reach the page as text (textContent, DOM nodes), never as HTML.
import { $, element } from "./dom.js";
import { api } from "./api.js";
import { showMessage, setPanelCollapsed, collapseOnSmallScreens, uncoveredPadding } from "./panel.js";
import { map, setCredit } from "./map.js";
import { categoryLabel, formatDistance } from "./place.js";
import { iconElement } from "./mapicons.js";
import { initPins, clearPins, addPins, openPin, venueLabels } from "./nearmepins.js";
import { registerMode, enterMode, leaveMode } from "./modes.js";

const RADIUS = { initial: 1000, min: 100, max: 5000, step: 100 };
const VENUE_PAGE = 1000;            // the API's largest nearby page
const VENUE_CAP = 10000;            // most venues one circle lists and pins (5 km of a city centre is under this)
const OSM_CREDIT = "© OpenStreetMap contributors";
// OSM tag values the engine uses as categories (amenity=cafe → "cafe", shop=bakery → "bakery").
// Each with its label and the noun of one and of many for the count ("1 café", "12 cafés").
const CATEGORIES = [
  ["", "All categories", "venue", "venues"], ["cafe", "Cafés", "café"], ["restaurant", "Restaurants"],
  ["fast_food", "Fast food", "fast food place", "fast food places"], ["pub", "Pubs"], ["bar", "Bars"],
  ["nightclub", "Nightclubs"], ["hotel", "Hotels"], ["hostel", "Hostels"], ["museum", "Museums"],
  ["gallery", "Galleries", "gallery"], ["attraction", "Attractions"], ["theatre", "Theatres"], ["cinema", "Cinemas"],
  ["library", "Libraries", "library"], ["place_of_worship", "Places of worship", "place of worship"],
  ["supermarket", "Supermarkets"], ["convenience", "Convenience shops"], ["bakery", "Bakeries", "bakery"],
  ["clothes", "Clothes shops"], ["books", "Bookshops"], ["pharmacy", "Pharmacies", "pharmacy"], ["bank", "Banks"],
  ["hairdresser", "Hairdressers"], ["artwork", "Public art", "work of public art", "works of public art"],
];

const near = {
  active: false,
  center: null,          // {lat, lon} the venues are searched around
  source: null,          // "you": the browser's location; "default": the configured fallback
  radius: RADIUS.initial,
  category: "",
  seq: 0,                // every venue request gets a number; only the newest may draw
  locateSeq: 0,
  venues: [],            // every venue loaded for the circle, nearest first
  total: null,           // how many the circle holds, as the server counted them (null when it cannot say)
  complete: false,       // every page is loaded (or the load failed)
  answered: null,        // the URL of the last request's first page, once all its pages are in (or failed), for the tests
  circle: null, centerMarker: null,
};
const ui = {};
let config = null;       // the server's settings: defaultCenter

/** For the browser tests (window.pindrop.nearme) and for people debugging in the console. */
export const nearMeForTests = {
  state: near,
  venueLabels,
};

/** "1 café" / "312 cafés" / "No cafés", for the chosen category. */
function countOf(n) {
  const chosen = CATEGORIES.find(([value]) => value === near.category) || CATEGORIES[0];
  const many = chosen[3] || (chosen[0] ? chosen[1].toLowerCase() : "venues");
  const one = chosen[2] || many.replace(/s$/, "");
  return n === 0 ? "No " + many : n.toLocaleString("en-US") + " " + (n === 1 ? one : many);
}

// ---------- the mode's panel ----------

/** Builds the mode's section and wires the "Near me" button; `settings` is the page's config. */
export function initNearMe(settings) {
  config = settings;
  buildPanel();
  registerMode("nearme", { enter, leave });
  ui.toggle = $("near-me-toggle");
  ui.toggle.addEventListener("click", () => (near.active ? leaveMode("nearme") : enterMode("nearme")));
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
  initPins();
  locate();
}

function leave() {
  near.active = false;
  near.seq++;
  near.locateSeq++;
  ui.toggle.setAttribute("aria-pressed", "false");
  ui.section.hidden = true;
  clearPins();
  if (near.circle) { near.circle.remove(); near.circle = null; }
  if (near.centerMarker) { near.centerMarker.remove(); near.centerMarker = null; }
  near.venues = [];
  near.total = null;
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

async function useDefault(reason) {
  const c = config.defaultCenter;
  near.source = "default";
  near.center = { lat: c.latitude, lon: c.longitude };
  const seq = near.locateSeq;
  const where = reason + " Showing venues near " + await defaultPlaceName() + ", the default location, instead.";
  if (seq !== near.locateSeq || !near.active) return;
  ui.where.textContent = where;
  ui.section.classList.add("fallback");
  showMessage(where);
  loadVenues(true);
}

/** The default location by name ("Paris"), as a person knows it: the biggest place within ~5 km, as the offline
 *  map names it (the nearest place would be a district, "Paris 04"); its coordinates would say nothing to most. */
async function defaultPlaceName() {
  if (near.defaultName) return near.defaultName;
  const c = config.defaultCenter, d = 0.05;
  const box = [c.longitude - d, c.latitude - d, c.longitude + d, c.latitude + d]
    .map((v, i) => Math.max(i % 2 ? -90 : -180, Math.min(i % 2 ? 90 : 180, v)).toFixed(4)).join(",");
  try {
    const body = await api("/v1/labels?zoom=9&limit=1&bbox=" + box);
    const place = body && body.labels && body.labels[0];
    if (place && place.name) near.defaultName = place.name;
  } catch (error) { /* said without a name then */ }
  return near.defaultName || "the map's default place";
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

/** Shows the whole circle clear of the search panel. */
function fitView() {
  const bounds = L.latLng(near.center.lat, near.center.lon).toBounds(near.radius * 2);
  map.fitBounds(bounds, Object.assign(uncoveredPadding(20, 20), { maxZoom: 18, animate: false }));
}

/** Loads every venue in the circle, page by page (the API's `next`), listing and pinning each page as it comes. */
async function loadVenues(fit) {
  const seq = ++near.seq;
  drawCenter();
  if (fit && map) fitView();
  ui.section.classList.add("busy");
  ui.count.textContent = "Looking for venues…";
  const first = "/v1/nearby?lat=" + near.center.lat.toFixed(6) + "&lon=" + near.center.lon.toFixed(6)
    + "&radius=" + near.radius + "&kind=venue" + (near.category ? "&category=" + encodeURIComponent(near.category) : "");
  startVenues();
  try {
    let cursor = null;
    do {
      const limit = Math.min(VENUE_PAGE, VENUE_CAP - near.venues.length);
      const body = await api(first + "&limit=" + limit + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
      if (seq !== near.seq || !near.active) return;
      if (!body || !Array.isArray(body.results)) throw new Error("The server sent an answer the page cannot read.");
      if (cursor === null) near.total = Number.isInteger(body.total) ? body.total : null;
      addVenues(body.results.filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude)));
      cursor = typeof body.next === "string" && body.results.length > 0 ? body.next : null;
    } while (cursor !== null && near.venues.length < VENUE_CAP);
    near.complete = true;
    showCount();
  } catch (error) {
    if (seq !== near.seq) return;
    startVenues();
    ui.count.textContent = "Venues could not be loaded.";
    showMessage("Could not load venues near you: " + error.message);
  } finally {
    if (seq === near.seq) {
      ui.section.classList.remove("busy");
      near.answered = first;
    }
  }
}

/** The heading over the list: "312 venues within 1.0 km", and what is still loading or left out. */
function showCount() {
  const within = " within " + formatDistance(near.radius);
  const loaded = near.venues.length;
  const total = near.total === null ? loaded : near.total;
  let text = countOf(total) + within + ".";
  if (!near.complete) text += " Loading " + loaded.toLocaleString("en-US") + "…";
  else if (total > loaded) text += " Showing the nearest " + loaded.toLocaleString("en-US") + ".";
  ui.count.textContent = text;
}

/** Clears the venues of the last circle. */
function startVenues() {
  near.venues = [];
  near.total = null;
  near.complete = false;
  clearPins();
  ui.list.replaceChildren();
  setCredit("venues", null);
}

/** Lists and pins one more page of venues (nearest first, after those already shown). */
function addVenues(places) {
  const offset = near.venues.length;
  near.venues = near.venues.concat(places);
  addPins(places, near.total);
  if (places.some((p) => String(p.id).startsWith("osm:"))) setCredit("venues", [OSM_CREDIT]);
  showCount();

  const rows = document.createDocumentFragment();
  places.forEach((place, i) => {
    const li = element("li");
    const button = element("button", "row venue-row");
    button.type = "button";
    button.append(iconElement(place.category, 26), element("span", "venue-row-name", place.name || place.displayName));
    const details = [categoryLabel(place.category), Number.isFinite(place.distanceMeters) ? formatDistance(place.distanceMeters) : ""]
      .filter(Boolean).join(" · ");
    if (details) button.append(element("span", "venue-row-details", details));
    button.addEventListener("click", () => openVenue(offset + i));
    li.append(button);
    rows.append(li);
  });
  ui.list.append(rows);
}

function openVenue(index) {
  openPin(index);
  collapseOnSmallScreens();
}
