// Pindrop web app: search and its results, the "search" mode. The search form with its busy state, the result rows in
// the engine's order ("No Results" for none, "Display All on Map" for several, "Did you mean Helsinki?" on top when
// the server offers a correction), and the map of all results with the selected one centred and its card shown in
// place of the list (Back, or the card's own button, brings the list back). A pin chooses its result as its row does.
import { $, element, section, rowButton } from "./dom.js";
import { api } from "./api.js";
import { setStatus, showMessage, setList, setBusy, setPanelCollapsed, collapseOnSmallScreens } from "./panel.js";
import { showResults, clearPlaces, nearViewQuery, onPinChosen } from "./map.js";
import { registerMode, enterMode } from "./modes.js";
import { showCard, hideCard, onCardClose } from "./card.js";
import { closeSuggestions, remember } from "./suggest.js";
import { placeName, distinctPlaces } from "./place.js";

const SEARCH_LIMIT = 20;
const q = $("q");
const button = $("search-button");
let results = [];          // the last search's results, in the engine's order
let didYouMean = null;     // the text the server thinks was meant, when it offers one
let rows = [];             // their buttons in the list
let searchSeq = 0;         // only the newest search may show its answer

/** Wires the search form; searching (or choosing a suggestion) is the "search" mode. */
export function initSearch() {
  registerMode("search", { leave: leaveSearch });
  onPinChosen((index) => { if (results[index]) selectResult(index); });
  onCardClose(() => markSelectedRow(-1));
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runSearch(q.value);
  });
}

async function runSearch(text) {
  text = text.trim();
  closeSuggestions();
  if (!text) { setStatus("Type a place or an address to search."); return; }
  enterMode("search");
  const seq = ++searchSeq;
  setBusy(true);
  button.disabled = true;
  button.textContent = "Searching…";
  setPanelCollapsed(false);
  setStatus("");
  try {
    const body = await api("/v1/search?q=" + encodeURIComponent(text) + "&limit=" + SEARCH_LIMIT + nearViewQuery());
    if (seq !== searchSeq) return;
    results = distinctPlaces(body.results);   // in the engine's order, a row that reads as one before it left out
    didYouMean = body.didYouMean || null;
    hideCard();
    renderResults();
    setStatus(results.length ? results.length + (results.length === 1 ? " result" : " results") + " for “" + text + "”" : "");
    showResults(results, null);
  } catch (error) {
    if (seq === searchSeq) showMessage(error.message);
  } finally {
    if (seq === searchSeq) {
      setBusy(false);
      button.disabled = false;
      button.textContent = "Search";
    }
  }
}

/** Takes away the results, their pins and the chosen place's card; an answer still on its way is dropped. */
function leaveSearch() {
  searchSeq++;
  results = [];
  rows = [];
  didYouMean = null;
  setBusy(false);
  button.disabled = false;
  button.textContent = "Search";
  setList();
  setStatus("");
  clearPlaces();
  hideCard();
}

function renderResults() {
  rows = [];
  if (results.length === 0) {
    setList(element("p", "no-results", "No Results"));
    return;
  }
  const parts = [];
  // A correction first: a link that searches for it.
  if (didYouMean) {
    const correction = didYouMean;
    const p = element("p", "did-you-mean");
    p.append(didYouMeanLink(correction, () => { q.value = correction; runSearch(correction); }));
    parts.push(p);
  }
  // Several results: "Display All on Map" in its own section, on top so a long list does not hide it.
  if (results.length > 1) {
    const all = section(null, "display-all-section");
    const b = rowButton("Display All on Map", displayAll);
    b.id = "display-all";
    all.append(b);
    parts.push(all);
  }
  const list = section(null, "result-list");
  const ul = element("ul");
  results.forEach((place, index) => {
    const row = rowButton(placeName(place), () => selectResult(index));
    rows.push(row);
    const li = element("li");
    li.append(row);
    ul.append(li);
  });
  list.append(ul);
  parts.push(list);
  setList(...parts);
}

/** "Did you mean Helsinki?" as a link (`#did-you-mean`) that calls `run`. */
function didYouMeanLink(text, run) {
  const a = element("a", null, "Did you mean ");
  a.id = "did-you-mean";
  a.href = "#";
  a.append(element("strong", null, text), "?");
  a.addEventListener("click", (event) => { event.preventDefault(); run(); });
  return a;
}

function markSelectedRow(index) {
  rows.forEach((b, i) => b.classList.toggle("selected", i === index));
}

function selectResult(index) {
  const place = results[index];
  markSelectedRow(index);
  collapseOnSmallScreens("half");
  showResults(results, index);
  showCard(place, results.length > 1 ? "Back to the list" : "Close");
  remember(place);
}

function displayAll() {
  markSelectedRow(-1);
  hideCard();
  collapseOnSmallScreens();
  showResults(results, null);
}
