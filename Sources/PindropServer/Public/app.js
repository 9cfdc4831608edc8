// Pindrop web map app: the entry module. It wires the page's parts, loads the server's settings, sets up the map
// and the modes that need it, and then marks the page ready (body[data-ready], which the browser tests wait for).
//
// Modules, from the bottom up: dom.js (DOM helpers), place.js (how a place reads), mapicons.js (a category's icon),
// sheet.js (the panel as a phone's bottom sheet, and Back), panel.js (panel, status, messages), providers.js
// (provider picker and credits), api.js (every server call), basemap.js (the offline coastlines, lakes, rivers and
// borders), locate.js (where you are), map.js (the Leaflet map, its credits and pins), card.js (the chosen place:
// details, Save / Delete, Share, directions), account.js (the user's token: sent with saved/recent calls, asked for on
// a 401), suggest.js (suggestions and recent addresses), search.js (search and results), saved.js (saved places
// list), centerpin.js (address under the pin), streetmap.js (the offline street map's tiles), labels.js (offline place
// names), streetlabels.js (street names and venues' icons), nearme.js ("Near me") and music.js ("Music"). modes.js owns which mode is on (search, the centre pin, Near me, Music, the saved places): entering one
// leaves the one before.
import { api } from "./api.js";
import { initProviders, showProviders } from "./providers.js";
import { initPanel, showMessage } from "./panel.js";
import { initSheet } from "./sheet.js";
import { locateForTests } from "./locate.js";
import { map, initMap, placeMarkerCount } from "./map.js";
import { basemapForTests } from "./basemap.js";
import { initCard, loadSaved, reopenLinkedPlace } from "./card.js";
import { initAccount } from "./account.js";
import { initSuggest, loadRecent } from "./suggest.js";
import { initSearch } from "./search.js";
import { initSaved } from "./saved.js";
import { initCenterPin } from "./centerpin.js";
import { initStreetMap, streetFeatureCount, streetMapForTests } from "./streetmap.js";
import { initLabels, labelCount, labelsDrawnZoom } from "./labels.js";
import { initStreetLabels, streetLabelsForTests } from "./streetlabels.js";
import { initNearMe, nearMeForTests } from "./nearme.js";
import { initMusic, musicForTests } from "./music.js";
import { currentMode } from "./modes.js";

// The server's settings (/v1/config) fill this in; the modules keep a reference to this one object.
const config = {
  suggestMinChars: 3, recentShown: 2, tileURL: "", tileAttribution: "",
  defaultCenter: { latitude: 48.8566, longitude: 2.3522 }, defaultZoom: 3, music: true,
};

// The picker goes on top of the list first, so the modes' sections (added later) come above it.
initProviders();
initSheet();
initPanel();
initSearch();
initSuggest(config);
initCard();
initSaved();
initAccount();

async function start() {
  api("/v1/providers").then((body) => { if (body) showProviders(body); })
    .catch(() => { /* an older server: no picker, the default providers answer */ });
  try {
    Object.assign(config, await api("/v1/config"));
  } catch (error) {
    showMessage(error.message);
  }
  initMap(config);
  initCenterPin();
  await Promise.all([loadRecent(), loadSaved().catch((error) => showMessage(error.message))]);
  await reopenLinkedPlace();
  initMusic(config);
  initNearMe(config);
  initStreetMap();
  initLabels(config);
  initStreetLabels();
  document.body.dataset.ready = "true";
}

// The browser tests' hook (and handy in the console). Nothing in the app reads it.
window.pindrop = {
  get map() { return map; },
  get mode() { return currentMode(); },
  api,
  resultMarkerCount: placeMarkerCount,
  basemap: basemapForTests,
  labelCount,
  labelsDrawnZoom,
  streetLabels: streetLabelsForTests,
  streetMap: streetMapForTests,
  locate: locateForTests,
  streetFeatureCount,
  music: musicForTests,
  nearme: { ...nearMeForTests, streetFeatureCount },
};

start();
