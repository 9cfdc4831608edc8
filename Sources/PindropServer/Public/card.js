// Pindrop web app: the chosen place: its pin and its card with name, coordinates and Save /
// Delete (Delete asks first), which places are saved, and the #place= link that reopens the place after a reload.
import { $ } from "./dom.js";
import { api } from "./api.js";
import { userApi } from "./account.js";
import { setStatus, showMessage } from "./panel.js";
import { showPlace } from "./map.js";
import { placeName, placeBody, formatCoordinates, addressText } from "./place.js";
import { enterMode } from "./modes.js";

const card = $("place-card");
const saveButton = $("save-button");
const dialog = $("confirm-delete");
const idPath = (id) => encodeURIComponent(id);
let single = null;            // the place whose card is shown
let savedIDs = new Set();

export function initCard() {
  saveButton.addEventListener("click", save);
  $("confirm-cancel").addEventListener("click", () => dialog.close());
  $("confirm-ok").addEventListener("click", remove);
}

/** Shows a chosen place (an address, a saved place): its pin, centred, and its card. */
export function openSingle(place) {
  showPlace(place);
  showCard(place);
}

export function showCard(place) {
  single = place;
  const address = shownAddress(place);
  // With its address under it, a venue is named by its own name; else by its list line.
  $("place-name").textContent = address && place.name ? place.name : placeName(place);
  $("place-address").textContent = address || "";
  $("place-address").hidden = !address;
  $("place-coords").textContent = formatCoordinates(place);
  card.hidden = false;
  updateSaveButton();
  history.replaceState(null, "", "#place=" + encodeURIComponent(place.id));
}

/** The address the card shows under the name, line under line as its country writes it; null when the place has
 * none or its list line starts with it (an address's own line: "Simonkatu 7, 00100 Helsinki"). */
function shownAddress(place) {
  const text = addressText(place);
  return text && !placeName(place).startsWith(text.split("\n")[0]) ? text : null;
}

export function hideCard() {
  single = null;
  card.hidden = true;
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
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
