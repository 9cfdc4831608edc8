// Pindrop web app: the chosen place's card, at the top of the panel in place of the list it came from: its name, what
// it is, its address on a line of its own, how far it is from you, its opening hours, phone and website when
// OpenStreetMap has them, Save / Delete (Delete asks first), Share (the #place= link that reopens it), directions in
// the usual map apps, and its coordinates. Opening it moves the focus to it, so it is read out; Back (the browser's or
// the card's own) closes it. Which places are saved is known here too.
import { $, element } from "./dom.js";
import { api } from "./api.js";
import { userApi } from "./account.js";
import { setStatus, showMessage, setPanelCollapsed } from "./panel.js";
import { showPlace, userPosition } from "./map.js";
import { placeName, placeBody, formatCoordinates, placeKindLabel, formatDistance, metersBetween, directionLinks, placeDetails } from "./place.js";
import { enterMode } from "./modes.js";
import { openView, backFrom, dropView, viewOpen } from "./sheet.js";

const card = $("place-card");
const panel = $("panel");
const saveButton = $("save-button");
const dialog = $("confirm-delete");
const idPath = (id) => encodeURIComponent(id);
const closeListeners = [];
let single = null;            // the place whose card is shown
let savedIDs = new Set();

export function initCard() {
  saveButton.addEventListener("click", save);
  $("share-button").addEventListener("click", share);
  $("card-back").addEventListener("click", () => backFrom("card"));
  $("confirm-cancel").addEventListener("click", () => dialog.close());
  $("confirm-ok").addEventListener("click", remove);
}

/** Calls `listener` when the card closes (search.js shows its list again). */
export function onCardClose(listener) { closeListeners.push(listener); }

/** Shows a chosen place (an address, a saved place): its pin, centred, and its card. */
export function openSingle(place) {
  showPlace(place);
  showCard(place, "Close");
}

/** Shows the card of `place`; `back` is what its back button says ("Back to the list", "Close"). */
export function showCard(place, back = "Back to the list") {
  single = place;
  const address = cardAddress(place);
  // With its address under it, a venue is named by its own name; else by its list line.
  $("place-name").textContent = address && place.name ? place.name : placeName(place);
  $("place-category").textContent = placeKindLabel(place);
  const you = userPosition();
  $("place-distance").textContent = you ? formatDistance(metersBetween(you, place)) + " from you" : "";
  $("place-address").textContent = address;
  fillDetails(placeDetails(place));
  fillDirections(place);
  $("place-coords").textContent = formatCoordinates(place);
  $("share-note").textContent = "";
  $("card-back-text").textContent = back;
  card.hidden = false;
  panel.classList.add("card-open");
  setPanelCollapsed(false);
  updateSaveButton();
  openView("card", closeCard, location.pathname + location.search + "#place=" + encodeURIComponent(place.id), viewOpen("card"));
  // The card heads the panel's body; scrolling the body (not scrollIntoView, which scrolls the page too on a phone
  // and lifts the sheet) shows it.
  $("panel-body").scrollTop = 0;
  card.focus({ preventScroll: true });
}

/** Closes the card because the app moved on (a new search, another mode). */
export function hideCard() {
  if (card.hidden) return;
  dropView("card");
  closeCard();
}

function closeCard() {
  single = null;
  card.hidden = true;
  panel.classList.remove("card-open");
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  closeListeners.forEach((listener) => listener());
}

/** The address under the name, line under line as its country writes it (the server's formatted address), else the
 *  place's full name when it says more; empty when the name already starts with it (an address's own line). */
function cardAddress(place) {
  const formatted = place.address && place.address.formatted;
  if (formatted) return placeName(place).startsWith(formatted.split("\n")[0]) ? "" : formatted;
  return place.displayName && place.displayName !== place.name ? place.displayName : "";
}

function fillDetails(details) {
  const list = $("place-details");
  list.replaceChildren();
  const add = (term, value) => { list.append(element("dt", null, term)); const dd = element("dd"); dd.append(value); list.append(dd); };
  if (details.hours) add("Hours", details.hours);
  if (details.phone) {
    const a = element("a", null, details.phone);
    a.href = "tel:" + details.phone.replace(/[^\d+]/g, "");
    add("Phone", a);
  }
  if (details.website) {
    const a = element("a", null, details.website.replace(/^https?:\/\//i, "").replace(/\/$/, ""));
    Object.assign(a, { href: details.website, target: "_blank", rel: "noopener noreferrer" });
    add("Website", a);
  }
}

function fillDirections(place) {
  const line = $("place-directions");
  line.replaceChildren(element("span", "label", "Directions:"));
  for (const [label, href] of directionLinks(place.latitude, place.longitude)) {
    const a = element("a", null, label);
    Object.assign(a, { href, target: "_blank", rel: "noopener noreferrer" });
    line.append(a);
  }
}

/** Shares the place's link (#place=ID, which reopens this card): the phone's share sheet, else the clipboard; the
 *  card says which, and shows the link. */
async function share() {
  const place = single;
  if (!place) return;
  const url = location.origin + location.pathname + "#place=" + encodeURIComponent(place.id);
  const note = $("share-note");
  try {
    if (navigator.share) {
      await navigator.share({ title: placeName(place), url });
      note.textContent = "Shared the link to this place: " + url;
      return;
    }
    await navigator.clipboard.writeText(url);
    note.textContent = "Link copied. It opens this place on this map: " + url;
  } catch (error) {
    if (error && error.name === "AbortError") return;
    note.textContent = "Copy this link to share the place (it opens it on this map): " + url;
  }
}

function updateSaveButton() {
  const saved = single && savedIDs.has(single.id);
  saveButton.textContent = saved ? "Delete" : "Save";
  saveButton.classList.toggle("saved", Boolean(saved));
}

/** Save, or for a saved place the "Delete?" confirmation. */
async function save() {
  const place = single;
  if (!place) return;
  if (savedIDs.has(place.id)) {
    $("confirm-name").textContent = placeName(place);
    dialog.showModal();
    return;
  }
  saveButton.disabled = true;
  try {
    await userApi("/v1/saved/" + idPath(place.id), { method: "PUT", headers: { "Content-Type": "application/json" }, body: placeBody(place) }, true);
    savedIDs.add(place.id);
    setStatus("Saved “" + placeName(place) + "”.");
  } catch (error) {
    showMessage("Could not save: " + error.message);
  } finally {
    saveButton.disabled = false;
    updateSaveButton();
  }
}

async function remove() {
  dialog.close();
  const place = single;
  if (!place) return;
  try {
    await userApi("/v1/saved/" + idPath(place.id), { method: "DELETE" }, true);
    savedIDs.delete(place.id);
    setStatus("Deleted “" + placeName(place) + "” from saved places.");
  } catch (error) {
    if (error.status === 404) savedIDs.delete(place.id); else showMessage("Could not delete: " + error.message);
  }
  updateSaveButton();
}

/** Every saved place, in the server's order (page after page); also tells the card which places are saved.
 *  `asked`: the person asked for the list (so the token dialog may open again after a cancel). */
export async function loadSaved(asked = false) {
  const places = [];
  let body = await userApi("/v1/saved?limit=500", {}, asked);
  places.push(...body.results);
  while (body.next) {
    body = await userApi("/v1/saved?limit=500&cursor=" + encodeURIComponent(body.next));
    places.push(...body.results);
  }
  savedIDs = new Set(places.map((p) => p.id));
  return places;
}

/** Forgets which places are saved (another person's token, or none, now answers). */
export function forgetSaved() {
  savedIDs = new Set();
  updateSaveButton();
}

/** Reopens the place a reload left on screen (#place=ID), with its saved state. */
export async function reopenLinkedPlace() {
  const match = /^#place=(.+)$/.exec(location.hash);
  if (!match) return;
  const id = decodeURIComponent(match[1]);
  try {
    const saved = (await loadSaved()).find((p) => p.id === id);
    const place = saved || (await api("/v1/places/" + idPath(id))).results[0];
    if (!place) return;
    enterMode("search");
    openSingle(place);
  } catch (error) {
    hideCard();
  }
}
