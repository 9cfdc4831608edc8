// Pindrop web app: the centre pin (PRODUCT.md §3). While it is on, a pin stays fixed at the centre of the map; when
// a move ends, the centre is reverse-geocoded, the search field shows the address as people write it, and the
// address is remembered as recent. A move made to show a chosen place keeps that place's name in the field.
import { $ } from "./dom.js";
import { api } from "./api.js";
import { setStatus, showMessage } from "./panel.js";
import { map, clearPlaces } from "./map.js";
import { hideCard } from "./card.js";
import { remember } from "./suggest.js";
import { addressLine, placeName } from "./place.js";

const pin = $("center-pin");
const toggle = $("center-pin-toggle");
const q = $("q");
const state = {
  on: false,
  keepAddress: false,   // the next move was made by choosing an address: keep that address in the field
  seq: 0,               // only the answer for the newest centre may fill the field
  timer: 0,
};

/** Wires the pin button, and the map's moves once the map is set up. */
export function initCenterPin() {
  toggle.addEventListener("click", () => {
    state.on = !state.on;
    toggle.setAttribute("aria-pressed", String(state.on));
    pin.hidden = !state.on;
    if (state.on && map) {
      clearPlaces();
      hideCard();
      state.keepAddress = false;
      reverseCentre();
    } else {
      state.seq++;
    }
  });
  if (!map) return;
  map.on("placeshown", () => { state.keepAddress = state.on; });
  map.on("moveend", () => {
    if (!state.on) return;
    if (state.keepAddress) { state.keepAddress = false; return; }
    clearTimeout(state.timer);
    state.timer = setTimeout(reverseCentre, 250);
  });
}

async function reverseCentre() {
  const seq = ++state.seq;
  const c = map.getCenter().wrap();
  q.placeholder = "Finding the address…";
  try {
    const body = await api("/v1/reverse?lat=" + c.lat.toFixed(6) + "&lon=" + c.lng.toFixed(6));
    if (seq !== state.seq || !state.on) return;
    const place = body.results[0];
    if (!place) { setStatus("No address here."); return; }
    const line = addressLine(place) || placeName(place);
    q.value = line;
    hideCard();
    setStatus("Address under the pin: " + line);
    remember(place, true);
  } catch (error) {
    if (seq === state.seq) showMessage(error.message);
  } finally {
    q.placeholder = "Search places or addresses";
  }
}
