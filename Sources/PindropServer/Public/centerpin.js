// Pindrop web app: the centre pin, the "centerpin" mode. While it is on, a pin stays fixed at the
// centre of the map; when a move ends, the centre is reverse-geocoded, the search field shows the address line the
// server made ("Simonkatu 7, 00100 Helsinki", "near Kamppi, Helsinki"), and an answer with a street is remembered as
// recent. Turning the pin on only shows the address.
import { $ } from "./dom.js";
import { api } from "./api.js";
import { setStatus, showMessage } from "./panel.js";
import { map } from "./map.js";
import { remember } from "./suggest.js";
import { addressLine, placeName } from "./place.js";
import { registerMode, enterMode, leaveMode } from "./modes.js";

const pin = $("center-pin");
const toggle = $("center-pin-toggle");
const q = $("q");
const state = {
  on: false,
  seq: 0,               // only the answer for the newest centre may fill the field
  timer: 0,
};

/** Wires the pin button, and the map's moves once the map is set up. */
export function initCenterPin() {
  registerMode("centerpin", { enter, leave });
  toggle.addEventListener("click", () => (state.on ? leaveMode("centerpin") : enterMode("centerpin")));
  if (!map) return;
  map.on("moveend", () => {
    if (!state.on) return;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => reverseCentre(true), 250);
  });
}

function enter() {
  state.on = true;
  toggle.setAttribute("aria-pressed", "true");
  pin.hidden = false;
  if (map) reverseCentre(false);
}

/** Hides the pin; an address still on its way is dropped. */
function leave() {
  state.on = false;
  state.seq++;
  clearTimeout(state.timer);
  toggle.setAttribute("aria-pressed", "false");
  pin.hidden = true;
  setStatus("");
}

/** Shows the address under the pin; `keep`: remember it as recent when it has a street (not a place only). */
async function reverseCentre(keep) {
  const seq = ++state.seq;
  const c = map.getCenter().wrap();
  q.placeholder = "Finding the address…";
  try {
    const body = await api("/v1/reverse?lat=" + c.lat.toFixed(6) + "&lon=" + c.lng.toFixed(6));
    if (seq !== state.seq || !state.on) return;
    const place = body.results[0];
    if (!place) { setStatus("No address here."); return; }
    // A house-numbered address in the one format (a provider's own name may differ); else the server's line.
    const line = place.address && place.address.houseNumber ? addressLine(place) : placeName(place);
    q.value = line;
    setStatus("Address under the pin: " + line);
    if (keep && place.address && place.address.street) remember(Object.assign({}, place, { displayName: line }), true);
  } catch (error) {
    if (seq === state.seq) showMessage(error.message);
  } finally {
    q.placeholder = "Search places or addresses";
  }
}
