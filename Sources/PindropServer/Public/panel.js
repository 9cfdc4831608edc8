// Pindrop web app: the search panel's frame (folding it away, its busy state, its status line and the list area
// under it), the message banner over the map, and the padding that keeps fitted pins out from under the panel.
import { $ } from "./dom.js";

const panel = $("panel");
const toggle = $("panel-toggle");
const status = $("status");
const list = $("results");
const message = $("message");
const messageText = $("message-text");
let messageTimer = 0;

/** Wires the fold button and the banner's close button. */
export function initPanel() {
  toggle.addEventListener("click", () => setPanelCollapsed(!panel.classList.contains("collapsed")));
  $("message-close").addEventListener("click", () => { message.hidden = true; });
}

export function setStatus(text) { status.textContent = text; }

/** Shows `text` in the banner over the map until closed, or for 12 seconds. */
export function showMessage(text) {
  messageText.textContent = text;
  message.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { message.hidden = true; }, 12000);
}

/** Replaces what the list area shows (search results, saved places). */
export function setList(...nodes) { list.replaceChildren(...nodes); }

export function setBusy(busy) {
  panel.classList.toggle("busy", busy);
  if (busy) panel.setAttribute("aria-busy", "true"); else panel.removeAttribute("aria-busy");
}

export function setPanelCollapsed(collapsed) {
  panel.classList.toggle("collapsed", collapsed);
  toggle.setAttribute("aria-expanded", String(!collapsed));
  toggle.title = collapsed ? "Show the list" : "Hide the list";
}

/** On a phone the list covers the map, so it folds away once a place is picked. */
export function collapseOnSmallScreens() {
  if (window.matchMedia("(max-width: 600px)").matches) setPanelCollapsed(true);
}

/** Padding for fitting pins clear of the panel: beside it on a desktop, below it on a phone. `gap` keeps the pins
 *  away from the panel, `edge` from the map's other edges. */
export function uncoveredPadding(gap = 30, edge = 40) {
  const mapBox = $("map").getBoundingClientRect();
  const box = panel.getBoundingClientRect();
  return box.right + 30 < mapBox.width * 0.6
    ? { paddingTopLeft: [box.right + gap, edge], paddingBottomRight: [70, edge] }
    : { paddingTopLeft: [gap, box.bottom + gap], paddingBottomRight: [60, edge] };
}
