// Pindrop web app: the panel as a phone's bottom sheet, used with one thumb. It rests at one of three heights: peek
// (the search field and the modes' buttons), half (the list beside the map) and full (the list alone); dragging its
// handle or its top moves it with the thumb and lets go at the nearest height (a flick goes one further), and a tap on
// the handle steps up. Its height is --sheet-height on <html>, which the map's buttons, the credits and fitted pins
// keep clear of. The views opened in it (a place's card, a list of results) are pages of the browser's history, so
// Back closes the current one rather than leaving the app. On a wide screen the panel is a plain side panel: none
// of this applies but the history.
import { $ } from "./dom.js";

const PHONE = window.matchMedia("(max-width: 600px)");
const PEEK = 124;                       // handle, search field and the chips' row
const FLICK = 0.5;                      // pixels per millisecond: a faster release goes one height further
const panel = $("panel");
const state = { height: "peek", views: [], listeners: [], drag: null };

/** Whether the page is laid out for a phone (the panel is a bottom sheet). */
export const isPhone = () => PHONE.matches;

/** The sheet's height now in pixels (0 on a wide screen). */
export function sheetPixels() {
  if (!isPhone()) return 0;
  const full = window.innerHeight - 64;
  return { peek: PEEK, half: Math.round(window.innerHeight * 0.5), full }[state.height];
}

/** The sheet's height name: "peek", "half" or "full". */
export const sheetHeight = () => state.height;

/** Calls `listener(height)` whenever the sheet settles at a height (the map refits what it showed). */
export function onSheetChange(listener) { state.listeners.push(listener); }

/** Moves the sheet to `height` ("peek", "half", "full"). */
export function setSheet(height) {
  state.height = height;
  panel.classList.toggle("collapsed", isPhone() && height === "peek");
  panel.dataset.sheet = height;
  apply();
  state.listeners.forEach((listener) => listener(height));
}

function apply() {
  document.documentElement.style.setProperty("--sheet-height", sheetPixels() + "px");
  $("sheet-handle").setAttribute("aria-label", state.height === "full" ? "Show less of the list" : "Show more of the list");
}

/** Sets up the sheet: the chips, the handle, the drag, the history. */
export function initSheet() {
  const chips = $("sheet-chips");
  const modeButtons = ["center-pin-toggle", "near-me-toggle", "music-toggle", "saved-button"].map($);
  const place = () => {
    // The modes' buttons ride in the sheet on a phone, down the map's edge on a wide screen.
    if (isPhone()) chips.append(...modeButtons); else $("map-controls").append(...modeButtons);
    setSheet(state.height);
  };
  PHONE.addEventListener("change", place);
  window.addEventListener("resize", apply);
  place();
  $("sheet-handle").addEventListener("click", () => {
    if (state.drag && state.drag.moved) return;
    setSheet(state.height === "peek" ? "half" : state.height === "half" ? "full" : "peek");
  });
  for (const grip of [$("sheet-handle"), $("search-form")]) grip.addEventListener("pointerdown", startDrag);
  window.addEventListener("popstate", closeView);
}

// ---------- dragging ----------

function startDrag(event) {
  if (!isPhone() || event.button > 0 || event.target.closest("input, button:not(#sheet-handle), select, a")) return;
  state.drag = { y: event.clientY, start: sheetPixels(), at: performance.now(), moved: false, id: event.pointerId };
  event.currentTarget.setPointerCapture(event.pointerId);
  event.currentTarget.addEventListener("pointermove", moveDrag);
  event.currentTarget.addEventListener("pointerup", endDrag, { once: true });
  event.currentTarget.addEventListener("pointercancel", endDrag, { once: true });
}

function moveDrag(event) {
  const drag = state.drag;
  if (!drag || event.pointerId !== drag.id) return;
  const dy = drag.y - event.clientY;
  if (Math.abs(dy) > 4) drag.moved = true;
  if (!drag.moved) return;
  panel.classList.add("dragging");
  const height = Math.max(PEEK, Math.min(window.innerHeight - 64, drag.start + dy));
  document.documentElement.style.setProperty("--sheet-height", height + "px");
  drag.velocity = dy / Math.max(1, performance.now() - drag.at);
}

function endDrag(event) {
  const drag = state.drag;
  event.currentTarget.removeEventListener("pointermove", moveDrag);
  panel.classList.remove("dragging");
  if (!drag || !drag.moved) { state.drag = null; return; }
  const now = drag.start + (drag.y - event.clientY);
  const heights = ["peek", "half", "full"];
  const pixels = heights.map((h) => ({ peek: PEEK, half: window.innerHeight * 0.5, full: window.innerHeight - 64 }[h]));
  let nearest = pixels.reduce((best, p, i) => (Math.abs(p - now) < Math.abs(pixels[best] - now) ? i : best), 0);
  const flick = (drag.y - event.clientY) / Math.max(1, performance.now() - drag.at);
  if (Math.abs(flick) > FLICK) nearest = Math.max(0, Math.min(2, heights.indexOf(state.height) + Math.sign(flick)));
  setTimeout(() => { state.drag = null; }, 0);   // the click that ends a drag is not a tap
  setSheet(heights[nearest]);
}

// ---------- views and Back ----------

/** Opens a view of the panel as a page of the history: Back calls `close`. `replace`: it takes the place of the view
 *  on top (another place's card over the same list), with `url` as the page's address. */
export function openView(name, close, url, replace = false) {
  const top = state.views[state.views.length - 1];
  if (replace && top && top.name === name) {
    top.close = close;
    history.replaceState({ pindrop: name, depth: state.views.length }, "", url || location.href);
    return;
  }
  state.views.push({ name, close });
  history.pushState({ pindrop: name, depth: state.views.length }, "", url || location.href);
}

/** Closes the view on top by its own button, as Back would: the history goes back a page. */
export function backFrom(name) {
  const top = state.views[state.views.length - 1];
  if (top && top.name === name) history.back(); else dropView(name);
}

/** Takes a view off without going Back (the app closed it: another mode, a new search); its page of the history
 *  stays, and Back from it closes nothing more. */
export function dropView(name) {
  const index = state.views.map((v) => v.name).lastIndexOf(name);
  if (index >= 0) state.views.splice(index, 1);
}

/** Whether a view of this name is open. */
export const viewOpen = (name) => state.views.some((v) => v.name === name);

/** Back: closes the views above the page the history went back to. */
function closeView(event) {
  const depth = event.state && event.state.depth ? event.state.depth : 0;
  while (state.views.length > depth) state.views.pop().close();
}
