// Pindrop web app: the "Music" mode, "music". Searches MusicBrainz places through the server's event stream
// (/v1/music/places; the browser never talks to MusicBrainz), shows a progress bar, drops pins as pages arrive,
// and lets each pin live (opening year − 1990) seconds, blinking and fading red → pink → light pink → white in
// its last 3 seconds. Closing the EventSource (Cancel, a new query, leaving the mode) makes the server stop
// fetching. Place names only ever reach the page as text (textContent, DOM nodes), never as HTML.
import { $, element } from "./dom.js";
import { request } from "./api.js";
import { userMessage } from "./messages.js";
import { setPanelCollapsed, uncoveredPadding } from "./panel.js";
import { map } from "./map.js";
import { directionLinks } from "./place.js";
import { registerMode, enterMode, leaveMode } from "./modes.js";

const SINCE_YEAR = 1990;
const FADE_SECONDS = 3;            // the last seconds of a pin's life: it blinks and fades to white
const INTRO = "Studios, venues and other music places opened since " + SINCE_YEAR
  + ". Each pin stays one second per year after " + SINCE_YEAR + ".";

const music = {
  active: false,
  seq: 0,                  // every search gets a number; events of older searches are ignored
  source: null,            // the running search's EventSource
  search: null,            // the running or last search: {seq, query, status, pages, pagesTotal, kept, skipped, startedAt, firstPinMs}
  history: [],             // every search of this page, for the browser tests
  pins: new Set(),         // live pins: {marker, place, timers}
  layer: null,
  fitted: false,           // the map was fitted to the running search's first pins
};
const ui = {};

/** For the browser tests (window.pindrop.music) and for people debugging in the console. */
export const musicForTests = {
  state: music,
  pinCount: () => music.pins.size,
  /** The live pins' places, with the element's phase ("fading" in the last seconds). */
  pins: () => Array.from(music.pins).map((pin) => {
    const e = pin.marker.getElement();
    return { id: pin.place.id, name: pin.place.name, lifespan: pin.place.lifespanSeconds, fading: Boolean(e && e.classList.contains("fading")) };
  }),
  addPins: (places) => addPins(places, music.search || { firstPinMs: 0 }),
};

/** Builds the mode's section and wires the music button; on a server without a music service (`config.music`
 *  false) there is no Music mode and no button for it. */
export function initMusic(config) {
  ui.toggle = $("music-toggle");
  if (config && config.music === false) { ui.toggle.hidden = true; return; }
  buildPanel();
  registerMode("music", { enter, leave });
  ui.toggle.addEventListener("click", () => (music.active ? leaveMode("music") : enterMode("music")));
  window.addEventListener("pagehide", () => { if (music.source) music.source.close(); });
}

// ---------- the mode's panel ----------

function buildPanel() {
  const section = element("section", "music");
  section.id = "music";
  section.hidden = true;
  section.setAttribute("aria-label", "Music places");
  section.append(element("h2", null, "Music places"));

  ui.form = element("form", "music-form");
  ui.form.setAttribute("role", "search");
  ui.form.autocomplete = "off";
  ui.q = document.createElement("input");
  Object.assign(ui.q, { type: "search", id: "music-q", placeholder: "City, studio, venue… (MusicBrainz)", spellcheck: false });
  ui.q.setAttribute("aria-label", "Search music places");
  ui.searchButton = element("button", "music-search", "Search");
  ui.searchButton.type = "submit";
  ui.searchButton.id = "music-search";
  ui.cancelButton = element("button", "music-cancel", "Cancel");
  ui.cancelButton.type = "button";
  ui.cancelButton.id = "music-cancel";
  ui.cancelButton.disabled = true;
  ui.form.append(ui.q, ui.searchButton, ui.cancelButton);

  ui.progress = element("div", "music-progress");
  ui.progress.id = "music-progress";
  ui.progress.setAttribute("role", "progressbar");
  ui.progress.setAttribute("aria-label", "Pages fetched");
  ui.progress.setAttribute("aria-valuemin", "0");
  ui.progress.setAttribute("aria-valuemax", "100");
  ui.progress.setAttribute("aria-valuenow", "0");
  ui.bar = element("div", "music-progress-bar");
  ui.progress.append(ui.bar);
  ui.progress.hidden = true;

  ui.status = element("p", "music-status");
  ui.status.id = "music-status";
  ui.status.setAttribute("role", "status");
  ui.status.textContent = INTRO;
  ui.error = element("p", "music-error");
  ui.error.id = "music-error";
  ui.error.setAttribute("role", "alert");
  ui.error.hidden = true;

  section.append(ui.form, ui.progress, ui.status, ui.error);
  $("panel-body").prepend(section);
  ui.section = section;

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    startSearch(ui.q.value);
  });
  ui.cancelButton.addEventListener("click", () => stopSearch("cancelled"));
}

// ---------- entering and leaving ----------

function enter() {
  music.active = true;
  ui.toggle.setAttribute("aria-pressed", "true");
  ui.section.hidden = false;
  setPanelCollapsed(false);
  if (!music.layer && map) music.layer = L.layerGroup();
  if (music.layer) music.layer.addTo(map);
  ui.q.focus();
}

/** Stops the search, takes the pins away and puts the panel back as it opens. */
function leave() {
  stopSearch("left");
  music.active = false;
  ui.toggle.setAttribute("aria-pressed", "false");
  ui.section.hidden = true;
  clearPins();
  if (music.layer) music.layer.remove();
  ui.progress.hidden = true;
  ui.status.textContent = INTRO;
  hideError();
}

// ---------- the search ----------

function startSearch(text) {
  text = text.trim();
  if (!text) { showError("Type a city, a studio or a venue to search MusicBrainz."); return; }
  if (music.source) stopSearch("replaced");
  clearPins();
  const seq = ++music.seq;
  const search = { seq, query: text, status: "running", pages: 0, pagesTotal: 0, kept: 0, skipped: 0,
    startedAt: performance.now(), firstPinMs: null, events: 0 };
  music.search = search;
  music.history.push(search);
  music.fitted = false;
  hideError();
  setProgress(0, 0);
  ui.progress.hidden = false;
  ui.cancelButton.disabled = false;
  ui.status.textContent = "Searching MusicBrainz for “" + text + "”…";

  const url = "/v1/music/places?q=" + encodeURIComponent(text) + "&since=" + SINCE_YEAR;
  const source = new EventSource(url);
  music.source = source;
  follow(source, search, url);
}

/** Shows what the stream of `search` (opened on `url`) sends: progress, places, the end or why it stopped. */
function follow(source, search, url) {
  const current = () => search.seq === music.seq && music.source === source;
  source.addEventListener("progress", (event) => {
    if (!current()) return;
    search.events++;
    const p = JSON.parse(event.data);
    search.pages = p.pagesDone;
    search.pagesTotal = p.pagesTotal;
    search.kept = p.placesShown;
    search.skipped = p.placesSkipped;
    setProgress(p.pagesDone, p.pagesTotal);
    if (p.pagesTotal > 0) {
      ui.status.textContent = "Page " + p.pagesDone + " of " + p.pagesTotal + " · " + p.placesShown + " places"
        + (p.placesSkipped ? " · " + p.placesSkipped + " without a location" : "")
        + (p.rateLimited ? " · " + p.rateLimited + " rate-limited" : "");
    }
  });
  source.addEventListener("places", (event) => {
    if (!current()) return;
    search.events++;
    const page = JSON.parse(event.data);
    addPins(page.places, search);
  });
  source.addEventListener("done", (event) => {
    if (!current()) return;
    const summary = JSON.parse(event.data);
    finish(search, "finished");
    setProgress(summary.pages, summary.pages);
    ui.status.textContent = summary.kept
      ? "Done: " + summary.kept + (summary.kept === 1 ? " place" : " places") + " opened since " + SINCE_YEAR + " from "
        + summary.pages + (summary.pages === 1 ? " page" : " pages")
        + (summary.skipped ? "; " + summary.skipped + " without a location were skipped" : "") + "."
      : "No music places opened since " + SINCE_YEAR + " match “" + search.query + "”.";
  });
  source.addEventListener("cancelled", () => {
    if (!current()) return;
    finish(search, "cancelled");
    ui.status.textContent = "The server stopped the search after " + search.pages + " pages.";
  });
  // Both the server's "error" event (with data) and the browser's own connection errors (without) land here.
  source.addEventListener("error", (event) => {
    if (!current()) return;
    finish(search, "failed");
    if (event.data) {
      const body = JSON.parse(event.data);
      const e = body.error || {};
      showError("The search stopped: " + userMessage(e.code, e.message)
        + (search.kept ? " The " + search.kept + " places found so far stay on the map." : ""));
    } else if (search.events === 0) {
      explainRefusal(url);
    } else {
      showError("The connection to the Pindrop server was lost after " + search.pages + " pages.");
    }
  });
}

/** Marks `search` over and closes its stream (the server then stops asking MusicBrainz). */
function finish(search, status) {
  search.status = status;
  if (music.source && search.seq === music.seq) {
    music.source.close();
    music.source = null;
  }
  ui.cancelButton.disabled = true;
}

/** Stops the running search: "cancelled" (the button), "replaced" (a new query) or "left" (the mode closed). */
function stopSearch(reason) {
  const search = music.search;
  if (!music.source || !search) return;
  finish(search, reason);
  music.seq++;
  if (reason === "cancelled") {
    ui.status.textContent = "Cancelled after " + search.pages + (search.pagesTotal ? " of " + search.pagesTotal : "")
      + " pages; " + search.kept + " places found.";
  }
}

/** An EventSource hides why it could not open; ask again to show the server's own message. */
async function explainRefusal(url) {
  const abort = new AbortController();
  try {
    await request(url, { signal: abort.signal });
    abort.abort();   // the stream opened this time: do not read it
    showError("The music search could not start. Try again.");
  } catch (error) {
    showError(error.code === "not_configured" ? "Music search is not set up on this server. Ask whoever runs it to turn it on." : error.message);
  }
}

// ---------- progress and messages ----------

function setProgress(done, total) {
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  ui.bar.style.width = percent + "%";
  ui.progress.setAttribute("aria-valuenow", String(percent));
  ui.progress.setAttribute("aria-valuetext", total > 0 ? done + " of " + total + " pages" : "starting");
}

function showError(text) {
  ui.error.textContent = text;
  ui.error.hidden = false;
  ui.status.textContent = "";
}

function hideError() {
  ui.error.hidden = true;
  ui.error.textContent = "";
}

// ---------- pins that live and fade ----------

function addPins(places, search) {
  if (!map || !music.layer) return;
  const added = [];
  places.forEach((place) => {
    const lifespan = place.lifespanSeconds;
    if (!(lifespan > 0)) return;       // opened in 1990: a lifespan of 0 seconds
    const marker = L.marker([place.latitude, place.longitude], {
      icon: L.divIcon({ className: "music-pin", iconSize: [16, 16], iconAnchor: [8, 8], popupAnchor: [0, -8] }),
      title: place.name, alt: place.name, riseOnHover: true,
    });
    marker.bindPopup(() => popupContent(place), { maxWidth: 260 });
    marker.addTo(music.layer);
    const pin = { marker, place, timers: [] };
    const pinElement = marker.getElement();
    if (pinElement) {
      pinElement.dataset.id = place.id;
      pinElement.dataset.lifespan = String(lifespan);
      pinElement.style.setProperty("--fade-seconds", Math.min(FADE_SECONDS, lifespan) + "s");
    }
    const fadeAfter = Math.max(0, lifespan - FADE_SECONDS) * 1000;
    pin.timers.push(setTimeout(() => { if (pinElement) pinElement.classList.add("fading"); }, fadeAfter));
    pin.timers.push(setTimeout(() => removePin(pin), lifespan * 1000));
    music.pins.add(pin);
    added.push(marker);
  });
  if (added.length && search.firstPinMs === null) search.firstPinMs = Math.round(performance.now() - search.startedAt);
  if (added.length && !music.fitted) {
    music.fitted = true;
    const bounds = L.latLngBounds(added.map((m) => m.getLatLng()));
    map.fitBounds(bounds, Object.assign(uncoveredPadding(), { maxZoom: 13, animate: false }));
  }
}

function removePin(pin) {
  pin.timers.forEach(clearTimeout);
  pin.marker.remove();
  music.pins.delete(pin);
}

function clearPins() {
  Array.from(music.pins).forEach(removePin);
}

/** Name, type, address, opening year and directions, built from text nodes. */
function popupContent(place) {
  const box = element("div", "music-popup");
  box.append(element("div", "music-popup-name", place.name));
  const details = [place.type, place.openYear ? "opened " + place.openYear : null].filter(Boolean).join(" · ");
  if (details) box.append(element("div", "music-popup-type", details));
  const where = place.address || place.area;
  if (where) box.append(element("div", "music-popup-address", where + (place.geocoded ? " (located from the address)" : "")));
  const links = element("div", "music-directions");
  links.append(element("span", "music-directions-label", "Directions: "));
  directionLinks(place.latitude, place.longitude).forEach(([label, href], index) => {
    if (index > 0) links.append(document.createTextNode(" · "));
    const a = element("a", null, label);
    a.href = href;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    links.append(a);
  });
  box.append(links);
  return box;
}
