// Pindrop web app: the search panel's frame (folding it away, its busy state, its status line and the list area
// under it), the message banner over the map, and the padding that keeps fitted pins out from under the panel. On a
// phone the panel is a bottom sheet (sheet.js): folded is its peek height, open its half.
import { $ } from "./dom.js";
import { isPhone, setSheet, sheetHeight, sheetPixels } from "./sheet.js";

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

/** Folds the list away, or opens it; on a phone, the sheet at its peek or (from the peek) at half height. */
export function setPanelCollapsed(collapsed) {
  if (isPhone()) {
    if (collapsed) setSheet("peek"); else if (sheetHeight() === "peek") setSheet("half");
  } else {
    panel.classList.toggle("collapsed", collapsed);
  }
  toggle.setAttribute("aria-expanded", String(!collapsed));
  toggle.title = collapsed ? "Show the list" : "Hide the list";
}

/** A place was picked from the list: on a phone the sheet makes room for the map (its card stays at half height). */
export function collapseOnSmallScreens(height = "peek") {
  if (isPhone()) setSheet(height);
}

/** Padding for fitting pins clear of the panel: beside it on a desktop, above the sheet on a phone. `gap` keeps the
 *  pins away from the panel, `edge` from the map's other edges. */
export function uncoveredPadding(gap = 30, edge = 40) {
  if (isPhone()) return { paddingTopLeft: [gap, edge], paddingBottomRight: [gap, sheetPixels() + 20 + gap] };
  const mapBox = $("map").getBoundingClientRect();
  const box = panel.getBoundingClientRect();
  return box.right + 30 < mapBox.width * 0.6
    ? { paddingTopLeft: [box.right + gap, edge], paddingBottomRight: [70, edge] }
    : { paddingTopLeft: [gap, box.bottom + gap], paddingBottomRight: [60, edge] };
}
