// Pindrop web app: the saved places list (the star button), the "saved" mode: every saved place as a
// row that opens it on the map with its card, and, when a token is kept (account.js), the way to forget it.
import { $, element, section, rowButton } from "./dom.js";
import { setStatus, showMessage, setList, setPanelCollapsed, collapseOnSmallScreens } from "./panel.js";
import { loadSaved, openSingle, forgetSaved, hideCard } from "./card.js";
import { clearPlaces } from "./map.js";
import { registerMode, enterMode, leaveMode } from "./modes.js";
import { keptToken, forgetToken } from "./account.js";
import { closeSuggestions } from "./suggest.js";
import { placeName } from "./place.js";

export function initSaved() {
  registerMode("saved", { leave: leaveSaved });
  $("saved-button").addEventListener("click", showSaved);
}

/** Takes away the list, and the pin and card of a saved place opened from it. */
function leaveSaved() {
  setList();
  clearPlaces();
  hideCard();
}

async function showSaved() {
  try {
    const places = await loadSaved(true);
    closeSuggestions();
    enterMode("saved");
    setPanelCollapsed(false);
    const s = section("Saved places", "saved-list");
    if (places.length === 0) {
      s.append(element("p", "no-results", "No saved places yet"));
    } else {
      const ul = element("ul");
      places.forEach((place) => {
        const li = element("li");
        li.append(rowButton(placeName(place), () => { openSingle(place); collapseOnSmallScreens(); }));
        ul.append(li);
      });
      s.append(ul);
    }
    if (keptToken()) {
      const forget = element("button", "forget-token", "Forget my token on this browser");
      forget.type = "button";
      forget.addEventListener("click", () => {
        forgetToken();
        forgetSaved();
        leaveMode("saved");
        setStatus("Your token is forgotten on this browser.");
      });
      s.append(forget);
    }
    setList(s);
    setStatus("");
  } catch (error) {
    showMessage(error.message);
  }
}
