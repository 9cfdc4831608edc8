// Pindrop web app: which provider answers search, suggestions, the address under the pin and venues near you.
// A picker per question (only configured providers selectable), the answering provider's credit under the map, and a
// notice when a fallback answered because the chosen provider failed. Keys never reach the page: the server calls
// the providers, and /v1/providers only names the variables that hold them.
//
// api.js hands every call through here: `withProvider(path)` adds the chosen `provider=` to /v1/search,
// /v1/suggest, /v1/reverse and /v1/nearby, and `answered(path, body)` reads who answered.
import { $, element } from "./dom.js";
import { providerTrouble } from "./messages.js";

// Each question in a person's words, and how the summary names it ("Photon for search").
const QUESTIONS = [
  { capability: "search", label: "Search results from", short: "search" },
  { capability: "suggest", label: "Suggestions from", short: "suggestions" },
  { capability: "reverse", label: "Address under the pin from", short: "the pin's address" },
  { capability: "nearby", label: "Places near you from", short: "places near you" },
];
// The embedded index by what it is to a person: the map data this server holds.
const OWN_DATA = "Pindrop's own map data (offline)";
const STORAGE_KEY = "pindrop.providers";

const state = {
  providers: [],      // from /v1/providers, in its order
  chains: {},         // capability -> default provider names
  chosen: loadChoice(),   // capability -> provider name; absent: the server's default chain
};

function loadChoice() {
  try { return JSON.parse(localStorage.getItem(STORAGE_KEY)) || {}; } catch (error) { return {}; }
}

function saveChoice() {
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(state.chosen)); } catch (error) { /* private mode */ }
}

const byName = (name) => state.providers.find((p) => p.name === name);
const displayName = (name) => (name === "embedded" ? OWN_DATA : byName(name) ? byName(name).displayName : name);

// ---------- the page's parts ----------

const picker = element("details", "providers-picker");
picker.id = "providers";
const summary = element("summary", null, "Where answers come from");
const grid = element("div", "providers-grid");
picker.append(summary, grid);
picker.hidden = true;

const notice = element("div", "provider-notice");
notice.id = "provider-notice";
notice.setAttribute("role", "status");
notice.hidden = true;

/** The line under the map that credits whoever answered. */
export const credit = element("div", "provider-attribution");
credit.id = "provider-attribution";
credit.hidden = true;

/** Puts the (still hidden) picker and notice on top of the list and the credit under the map. */
export function initProviders() {
  $("panel-body").prepend(picker, notice);
  document.body.append(credit);
  // A search folds the picker away so the results have the room.
  $("search-form").addEventListener("submit", () => { picker.open = false; });
}

/** Shows the picker for /v1/providers' answer. */
export function showProviders(body) {
  state.providers = body.providers || [];
  state.chains = body.chains || {};
  render();
}

// ---------- the picker ----------

function render() {
  grid.replaceChildren();
  QUESTIONS.forEach(({ capability, label }) => {
    const id = "provider-" + capability;
    const row = element("label", "provider-row");
    row.htmlFor = id;
    row.append(element("span", "provider-question", label));
    const select = element("select");
    select.id = id;
    select.dataset.capability = capability;
    const chain = state.chains[capability] || [];
    select.append(new Option("Automatic" + (chain.length ? ": " + chain.map(displayName).join(", then ") : ""), ""));
    state.providers.filter((p) => p.capabilities.includes(capability)).forEach((p) => {
      // Not set up: said plainly; the setting that would turn it on is for whoever runs the server (the tooltip).
      const option = new Option(displayName(p.name) + (p.configured ? "" : " (not set up on this server)"), p.name);
      option.disabled = !p.configured;
      if (!p.configured && p.unavailableReason) option.title = "To turn it on: " + p.unavailableReason;
      select.append(option);
    });
    const chosen = byName(state.chosen[capability]);
    if (!chosen || !chosen.configured || !chosen.capabilities.includes(capability)) delete state.chosen[capability];
    select.value = state.chosen[capability] || "";
    select.addEventListener("change", () => {
      if (select.value) state.chosen[capability] = select.value; else delete state.chosen[capability];
      saveChoice();
      updateSummary();
    });
    row.append(select);
    grid.append(row);
  });
  updateSummary();
  picker.hidden = false;
}

function updateSummary() {
  const picked = QUESTIONS.filter((q) => state.chosen[q.capability])
    .map((q) => displayName(state.chosen[q.capability]) + " for " + q.short);
  summary.textContent = "Where answers come from: " + (picked.length ? picked.join(", ") : "automatic");
}

// ---------- requests and answers ----------

/** The capability a request path asks, or null for other endpoints. */
function capabilityOf(path) {
  const match = /^\/v1\/(search|suggest|reverse|nearby)\?/.exec(path);
  return match ? match[1] : null;
}

/** The path with the chosen provider for its question (unchanged when the default chain should answer). */
export function withProvider(path) {
  const capability = capabilityOf(path);
  if (!capability || !state.chosen[capability] || /[?&]provider=/.test(path)) return path;
  return path + "&provider=" + encodeURIComponent(state.chosen[capability]);
}

/** Shows who answered: their credit under the map, and a notice when a fallback answered. */
export function answered(path, body) {
  const capability = capabilityOf(path);
  if (!capability || !body || typeof body.provider !== "string") return;
  const provider = byName(body.provider);
  const name = displayName(body.provider);
  const attribution = provider && provider.attribution ? " · " + provider.attribution : "";
  credit.textContent = "Results: " + name + (body.fallback ? " (fallback)" : "") + attribution;
  credit.dataset.provider = body.provider;
  credit.classList.toggle("fallback", Boolean(body.fallback));
  credit.hidden = false;
  if (body.fallback && Array.isArray(body.failures) && body.failures.length) {
    const failed = body.failures.map((f) => providerTrouble(displayName(f.provider), f.code)).join("; ");
    notice.textContent = failed + ". Showing results from " + name + " instead.";
    notice.dataset.capability = capability;
    notice.hidden = false;
  } else if (notice.dataset.capability === capability) {
    notice.hidden = true;
  }
}
