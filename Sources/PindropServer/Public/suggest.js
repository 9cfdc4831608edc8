// Pindrop web app: search as you type, with recent addresses on top. Suggestions come once the
// text is long enough (the server's suggestMinChars) and only the newest request's answer may fill the list. Every
// picked or pinned address is remembered by the server; the last few (recentShown) are the whole list while the field
// is empty, and lead it, newest first, while the text typed matches them. Rows that would read the same (one name and
// address twice: a hotel and its parking entrance, a town entered twice) are shown once. When the server offers a
// correction, "Did you mean Helsinki?" heads the suggestions and asks again with it.
import { $, element } from "./dom.js";
import { api } from "./api.js";
import { userApi } from "./account.js";
import { setStatus, showMessage, setList } from "./panel.js";
import { openSingle } from "./card.js";
import { placeName, placeBody, distinctPlaces } from "./place.js";
import { nearViewQuery } from "./map.js";
import { enterMode } from "./modes.js";
import { isPhone, setSheet } from "./sheet.js";

const SHOWN = 8;              // suggestions listed at most
const ASKED = 12;             // asked for, so that rows dropped as the same as another still leave SHOWN

const q = $("q");
const list = $("suggestions");
let config = null;            // the server's settings: suggestMinChars, recentShown
const state = {
  recent: [],                 // the newest recent addresses, newest first
  shown: [],                  // what the open list shows: {place, recent} or {correction}
  active: -1,                 // highlighted suggestion
  seq: 0,                     // every suggestion request gets a number; only the newest may fill the list
  timer: 0,
};

/** Wires the search field; `settings` is the page's config object, filled in once /v1/config answers. */
export function initSuggest(settings) {
  config = settings;
  q.addEventListener("input", () => {
    clearTimeout(state.timer);
    const text = q.value;
    if (text.trim().length < config.suggestMinChars) {
      state.seq++;
      if (state.recent.length) render([], "", null, text); else closeSuggestions();
      return;
    }
    state.timer = setTimeout(() => fetchSuggestions(text), 150);
  });
  q.addEventListener("focus", () => {
    if (isPhone()) setSheet("full");            // room for the list under the field
    if (q.value.trim().length < config.suggestMinChars && state.recent.length) render([]);
  });
  q.addEventListener("blur", () => closeSuggestions());
  q.addEventListener("keydown", (event) => {
    const open = !list.hidden;
    if (event.key === "ArrowDown") {
      if (open) { event.preventDefault(); highlight(state.active + 1); }
    } else if (event.key === "ArrowUp") {
      if (open) { event.preventDefault(); highlight(state.active - 1); }
    } else if (event.key === "Enter") {
      if (open && state.active >= 0) { event.preventDefault(); choose(state.active); }
      // otherwise the form submits: a search
    } else if (event.key === "Escape") {
      if (open) { event.preventDefault(); closeSuggestions(); }
    }
  });
}

// ---------- recent addresses ----------

export async function loadRecent() {
  try {
    const body = await userApi("/v1/recent?limit=" + config.recentShown);
    state.recent = body.results;
  } catch (error) { state.recent = []; }
}

/** Remembers a picked or pinned address (by id when the engine knows it, else the whole place). */
export async function remember(place, whole) {
  try {
    const body = await userApi("/v1/recent", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: whole ? placeBody(place) : JSON.stringify({ id: place.id }),
    });
    state.recent = body.results.slice(0, config.recentShown);
  } catch (error) {
    if (!whole && error.status === 404) return remember(place, true);
    if (error.status === 401) return;   // no token given: nothing to remember it for
    showMessage("Could not remember the address: " + error.message);
  }
}

// ---------- the list ----------

/** Text folded for matching: lower case, without accents. */
const fold = (text) => String(text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** Whether a recent address matches the text typed: every word typed starts a word of its name. */
function matches(place, text) {
  const words = fold(placeName(place) + " " + (place.name || "")).split(/[^\p{L}\p{N}]+/u);
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean).every((typed) => words.some((w) => w.startsWith(typed)));
}

/** Shows `places` (the answer to `query`) under the recent addresses that match the text `typed` (all of them for
 *  none), and the server's `correction` before the places. */
function render(places, query, correction, typed = query) {
  list.dataset.query = query || "";
  const recent = typed && typed.trim() ? state.recent.filter((p) => matches(p, typed)) : state.recent;
  const recentIDs = new Set(recent.map((p) => p.id));
  const rest = distinctPlaces(recent.concat(places)).filter((p) => !recentIDs.has(p.id)).slice(0, SHOWN);
  state.shown = recent.map((place) => ({ place, recent: true }))
    .concat(correction ? [{ correction }] : [])
    .concat(rest.map((place) => ({ place, recent: false })));
  state.active = -1;
  list.replaceChildren();
  state.shown.forEach((item, index) => {
    const li = element("li", item.recent ? "recent" : null);
    li.id = "suggestion-" + index;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    li.addEventListener("mousedown", (event) => event.preventDefault());   // keep the field focused
    li.addEventListener("click", () => choose(index));
    list.append(li);
    if (item.correction) {
      li.className = "did-you-mean";
      li.append("Did you mean ", element("strong", null, item.correction), "?");
      return;
    }
    if (item.recent) li.append(element("span", "tag", "Recent"));
    // Found through another of its names: say which ("Helsingfors → Helsinki, Uusimaa, Finland").
    if (item.place.matchedName) li.append(element("span", "matched", item.place.matchedName + " →"));
    li.append(element("span", "text", placeName(item.place)));
  });
  const open = state.shown.length > 0;
  list.hidden = !open;
  q.setAttribute("aria-expanded", String(open));
  q.removeAttribute("aria-activedescendant");
}

export function closeSuggestions() {
  state.seq++;                      // any answer still on its way is now stale
  clearTimeout(state.timer);
  state.shown = [];
  state.active = -1;
  list.hidden = true;
  list.replaceChildren();
  q.setAttribute("aria-expanded", "false");
  q.removeAttribute("aria-activedescendant");
}

function highlight(index) {
  const items = list.children;
  if (items.length === 0) return;
  state.active = (index + items.length) % items.length;
  Array.from(items).forEach((li, i) => {
    li.classList.toggle("active", i === state.active);
    li.setAttribute("aria-selected", String(i === state.active));
  });
  items[state.active].scrollIntoView({ block: "nearest" });
  q.setAttribute("aria-activedescendant", items[state.active].id);
}

/** Closes the list and shows the chosen place on the map, and remembers it. */
function choose(index) {
  const item = state.shown[index];
  if (!item) return;
  if (item.correction) {
    q.value = item.correction;
    fetchSuggestions(item.correction);
    return;
  }
  const place = item.place;
  closeSuggestions();
  if (isPhone()) setSheet("half");
  enterMode("search");
  q.value = placeName(place);
  setList();
  setStatus("");
  openSingle(place);
  remember(place);
}

/** Asks for suggestions; only the answer to the newest request may fill the list. */
async function fetchSuggestions(text) {
  const seq = ++state.seq;
  try {
    const body = await api("/v1/suggest?q=" + encodeURIComponent(text) + "&limit=" + ASKED + "&minChars=" + config.suggestMinChars + nearViewQuery());
    if (seq !== state.seq || document.activeElement !== q) return;
    render(body.results, text, body.didYouMean);
  } catch (error) {
    if (seq === state.seq) showMessage(error.message);
  }
}
