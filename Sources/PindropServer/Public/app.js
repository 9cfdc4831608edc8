// Pindrop web map app: search, results, map, saved places, suggestions with recent addresses, centre pin.
// Place names only ever reach the page through textContent, never as HTML.
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const ui = {
    panel: $("panel"), panelToggle: $("panel-toggle"), form: $("search-form"), q: $("q"), searchButton: $("search-button"),
    suggestions: $("suggestions"), status: $("status"), results: $("results"),
    zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), myLocation: $("my-location"), centerPinToggle: $("center-pin-toggle"),
    savedButton: $("saved-button"), centerPin: $("center-pin"),
    card: $("place-card"), cardName: $("place-name"), cardCoords: $("place-coords"), saveButton: $("save-button"),
    message: $("message"), messageText: $("message-text"), messageClose: $("message-close"),
    dialog: $("confirm-delete"), dialogName: $("confirm-name"), dialogCancel: $("confirm-cancel"), dialogOk: $("confirm-ok"),
  };

  const state = {
    config: { suggestMinChars: 3, recentShown: 2, tileURL: "", tileAttribution: "", defaultCenter: { latitude: 48.8566, longitude: 2.3522 }, defaultZoom: 3 },
    results: [],          // the last search's results, in the engine's order
    single: null,         // the place whose card (Save / Delete) is shown
    savedIDs: new Set(),
    recent: [],           // the newest recent addresses, newest first
    suggestions: [],      // what the open list shows: {place, recent}
    active: -1,           // highlighted suggestion
    suggestSeq: 0,        // every suggestion request gets a number; only the newest may fill the list
    suggestTimer: 0,
    reverseSeq: 0,
    reverseTimer: 0,
    centerPin: false,
    skipReverse: false,   // the next move was made by choosing an address: keep that address in the field
    watchID: null,
    youMarker: null,
  };

  // ---------- server calls ----------

  /** Calls the API; throws an Error whose message is the server's (or a plain one when it cannot be reached). */
  async function api(path, options) {
    const providers = window.pindropProviders;   // providers.js: the chosen provider, its credit, fallback notices
    if (providers) path = providers.withProvider(path);
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      throw new Error("Cannot reach the Pindrop server. Is it still running?");
    }
    if (response.status === 204) return null;
    let body = null;
    try { body = await response.json(); } catch (error) { /* an empty or non-JSON body */ }
    if (!response.ok) {
      const message = body && body.error && body.error.message ? body.error.message : "The server answered " + response.status + ".";
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    if (providers) providers.answered(path, body);
    return body;
  }

  const idPath = (id) => encodeURIComponent(id);

  // ---------- map ----------

  const hasLeaflet = typeof window.L !== "undefined";
  let map = null, resultLayer = null, singleLayer = null;

  function setUpMap() {
    if (!hasLeaflet) {
      showMessage("The map library is not installed on the server (Debian package libjs-leaflet). Search still works.");
      return;
    }
    const c = state.config;
    map = L.map("map", { zoomControl: false, worldCopyJump: true, minZoom: 2, maxZoom: 19 })
      .setView([c.defaultCenter.latitude, c.defaultCenter.longitude], c.defaultZoom);
    map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
    // Offline basemap: Natural Earth countries as vectors, in a pane under the online tiles.
    map.createPane("basemap").style.zIndex = 150;
    if (c.basemap) {
      fetch("/basemap/countries.geojson").then((r) => (r.ok ? r.json() : null)).then((data) => {
        if (!data) return;
        L.geoJSON(data, {
          pane: "basemap", interactive: false,
          style: { color: "#b7ab95", weight: 0.8, fillColor: "#f2efe9", fillOpacity: 1 },
          attribution: "Made with Natural Earth",
        }).addTo(map);
      }).catch(() => { /* the page works without the basemap too */ });
    }
    // Online tiles when reachable; a failed tile stays invisible and never breaks the page.
    if (c.tileURL) {
      L.tileLayer(c.tileURL, { maxZoom: 19, attribution: c.tileAttribution, crossOrigin: true }).addTo(map);
    }
    resultLayer = typeof L.markerClusterGroup === "function"
      ? L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 40 }) : L.featureGroup();
    resultLayer.addTo(map);
    singleLayer = L.featureGroup().addTo(map);
    map.on("moveend", onMoveEnd);
    watchBottomStack();
  }

  /**
   * The bottom of the screen stacks up: the map's attribution (bottom right), the providers' credit (bottom left, or
   * on its own line just above the attribution when the two would collide, as on a phone), and on a phone the place
   * card and the map buttons above them (app.css). The credits wrap, so their heights are measured here and handed
   * to the CSS as custom properties on <html>.
   */
  function watchBottomStack() {
    const attribution = map.attributionControl ? map.attributionControl.getContainer() : null;
    const credit = $("provider-attribution");   // providers.js adds it before this script runs
    const root = document.documentElement;
    const shown = (e) => Boolean(e && e.offsetParent !== null);
    const update = () => {
      const a = shown(attribution) ? attribution.getBoundingClientRect() : null;
      const c = shown(credit) ? credit.getBoundingClientRect() : null;
      // Lifting the credit changes neither width, so this cannot flip back and forth.
      const stacked = Boolean(a && c && c.right > a.left);
      root.classList.toggle("credits-stacked", stacked);
      const ah = a ? Math.ceil(a.height) : 0, ch = c ? Math.ceil(c.height) : 0;
      root.style.setProperty("--map-attribution-height", ah + "px");
      root.style.setProperty("--map-credits-height", (stacked ? ah + ch : Math.max(ah, ch)) + "px");
      root.style.setProperty("--place-card-height", (shown(ui.card) ? Math.ceil(ui.card.getBoundingClientRect().height) : 0) + "px");
    };
    update();
    if (typeof ResizeObserver !== "function") return;
    const observer = new ResizeObserver(update);
    [attribution, credit, ui.card].forEach((e) => { if (e) observer.observe(e); });
  }

  function formatCoordinates(p) {
    return p.latitude.toFixed(5) + ", " + p.longitude.toFixed(5);
  }

  /** The popup content, built from text nodes so names stay text. */
  function popupContent(place) {
    const box = document.createElement("div");
    const name = document.createElement("div");
    name.className = "popup-name";
    name.textContent = place.displayName || place.name;
    const coords = document.createElement("div");
    coords.className = "popup-coords";
    coords.textContent = formatCoordinates(place);
    box.append(name, coords);
    return box;
  }

  function markerFor(place) {
    const marker = L.marker([place.latitude, place.longitude], { title: place.displayName || place.name, alt: place.name });
    marker.bindPopup(popupContent(place));
    marker.place = place;
    return marker;
  }

  function zoomFor(place) {
    if (place.address && (place.address.street || place.address.houseNumber)) return 17;
    if (place.category) return 16;
    if (place.population > 1000000) return 10;
    return 12;
  }

  /** Pins every result; centres the selected one (kept out of the clusters) and opens its popup, or fits them all.
   *  Views jump without animation: a click during a running zoom animation would otherwise be undone by it. */
  function showResultsOnMap(selectedIndex) {
    if (!map) return;
    resultLayer.clearLayers();
    singleLayer.clearLayers();
    const markers = state.results.map(markerFor);
    markers.forEach((m, i) => (i === selectedIndex ? singleLayer : resultLayer).addLayer(m));
    if (selectedIndex == null) {
      if (markers.length === 1) {
        map.setView(markers[0].getLatLng(), zoomFor(markers[0].place), { animate: false });
      } else if (markers.length > 1) {
        map.fitBounds(L.latLngBounds(markers.map((m) => m.getLatLng())), Object.assign(uncoveredPadding(), { maxZoom: 12, animate: false }));
      }
      return;
    }
    const marker = markers[selectedIndex];
    map.setView(marker.getLatLng(), Math.max(zoomFor(marker.place), 5), { animate: false });
    marker.openPopup();
  }

  /** Padding that keeps fitted pins out from under the search panel (beside it on a desktop, below it on a phone). */
  function uncoveredPadding() {
    const mapBox = document.getElementById("map").getBoundingClientRect();
    const panel = ui.panel.getBoundingClientRect();
    const besidePanel = panel.right + 30 < mapBox.width * 0.6;
    return besidePanel
      ? { paddingTopLeft: [panel.right + 30, 40], paddingBottomRight: [70, 40] }
      : { paddingTopLeft: [30, panel.bottom + 30], paddingBottomRight: [60, 40] };
  }

  /** Drops one pin on a chosen address or saved place and centres it. */
  function showSingleOnMap(place) {
    if (!map) return;
    resultLayer.clearLayers();
    singleLayer.clearLayers();
    const marker = markerFor(place).addTo(singleLayer);
    state.skipReverse = state.centerPin;
    map.setView(marker.getLatLng(), zoomFor(place), { animate: false });
    marker.openPopup();
  }

  // ---------- panel, status, messages ----------

  function setStatus(text) { ui.status.textContent = text; }

  let messageTimer = 0;
  function showMessage(text) {
    ui.messageText.textContent = text;
    ui.message.hidden = false;
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => { ui.message.hidden = true; }, 12000);
  }
  ui.messageClose.addEventListener("click", () => { ui.message.hidden = true; });

  function setPanelCollapsed(collapsed) {
    ui.panel.classList.toggle("collapsed", collapsed);
    ui.panelToggle.setAttribute("aria-expanded", String(!collapsed));
    ui.panelToggle.title = collapsed ? "Show the list" : "Hide the list";
  }
  ui.panelToggle.addEventListener("click", () => setPanelCollapsed(!ui.panel.classList.contains("collapsed")));

  /** On a phone the list covers the map, so it folds away once a place is picked. */
  function collapseOnSmallScreens() {
    if (window.matchMedia("(max-width: 600px)").matches) setPanelCollapsed(true);
  }

  function section(title, className) {
    const s = document.createElement("section");
    if (className) s.className = className;
    if (title) {
      const h = document.createElement("h2");
      h.textContent = title;
      s.append(h);
    }
    return s;
  }

  function rowButton(text, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "row";
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  function renderResults() {
    ui.results.replaceChildren();
    if (state.results.length === 0) {
      const p = document.createElement("p");
      p.className = "no-results";
      p.textContent = "No Results";
      ui.results.append(p);
      return;
    }
    // Several results: "Display All on Map" in its own section, on top so a long list does not hide it.
    if (state.results.length > 1) {
      const all = section(null, "display-all-section");
      const b = rowButton("Display All on Map", displayAll);
      b.id = "display-all";
      all.append(b);
      ui.results.append(all);
    }
    const list = section(null, "result-list");
    const ul = document.createElement("ul");
    state.results.forEach((place, index) => {
      const li = document.createElement("li");
      li.append(rowButton(place.displayName || place.name, () => selectResult(index)));
      ul.append(li);
    });
    list.append(ul);
    ui.results.append(list);
  }

  function markSelectedRow(index) {
    ui.results.querySelectorAll(".result-list .row").forEach((b, i) => b.classList.toggle("selected", i === index));
  }

  // ---------- search ----------

  const SEARCH_LIMIT = 20;
  let searchSeq = 0;
  async function runSearch(text) {
    text = text.trim();
    closeSuggestions();
    if (!text) { setStatus("Type a place or an address to search."); return; }
    const seq = ++searchSeq;
    ui.panel.classList.add("busy");
    ui.panel.setAttribute("aria-busy", "true");
    ui.searchButton.disabled = true;
    ui.searchButton.textContent = "Searching…";
    setPanelCollapsed(false);
    setStatus("");
    try {
      const body = await api("/v1/search?q=" + encodeURIComponent(text) + "&limit=" + SEARCH_LIMIT);
      if (seq !== searchSeq) return;
      state.results = body.results;
      hideCard();
      renderResults();
      setStatus(body.results.length ? body.results.length + (body.results.length === 1 ? " result" : " results") + " for “" + text + "”" : "");
      showResultsOnMap(null);
    } catch (error) {
      if (seq === searchSeq) showMessage(error.message);
    } finally {
      if (seq === searchSeq) {
        ui.panel.classList.remove("busy");
        ui.panel.removeAttribute("aria-busy");
        ui.searchButton.disabled = false;
        ui.searchButton.textContent = "Search";
      }
    }
  }

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    runSearch(ui.q.value);
  });

  function selectResult(index) {
    const place = state.results[index];
    markSelectedRow(index);
    showResultsOnMap(index);
    showCard(place);
    remember(place);
    collapseOnSmallScreens();
  }

  function displayAll() {
    markSelectedRow(-1);
    hideCard();
    collapseOnSmallScreens();
    showResultsOnMap(null);
  }

  // ---------- the place card: Save / Delete ----------

  function showCard(place) {
    state.single = place;
    ui.cardName.textContent = place.displayName || place.name;
    ui.cardCoords.textContent = formatCoordinates(place);
    ui.card.hidden = false;
    updateSaveButton();
    history.replaceState(null, "", "#place=" + encodeURIComponent(place.id));
  }

  function hideCard() {
    state.single = null;
    ui.card.hidden = true;
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  }

  function updateSaveButton() {
    const saved = state.single && state.savedIDs.has(state.single.id);
    ui.saveButton.textContent = saved ? "Delete" : "Save";
    ui.saveButton.classList.toggle("saved", Boolean(saved));
  }

  /** The place as the API takes it: the wire fields minus the distance. */
  function placeBody(place) {
    const copy = Object.assign({}, place);
    delete copy.distanceMeters;
    return JSON.stringify(copy);
  }

  ui.saveButton.addEventListener("click", async () => {
    const place = state.single;
    if (!place) return;
    if (state.savedIDs.has(place.id)) {
      ui.dialogName.textContent = place.displayName || place.name;
      ui.dialog.showModal();
      return;
    }
    ui.saveButton.disabled = true;
    try {
      await api("/v1/saved/" + idPath(place.id), { method: "PUT", headers: { "Content-Type": "application/json" }, body: placeBody(place) });
      state.savedIDs.add(place.id);
      setStatus("Saved “" + (place.displayName || place.name) + "”.");
    } catch (error) {
      showMessage("Could not save: " + error.message);
    } finally {
      ui.saveButton.disabled = false;
      updateSaveButton();
    }
  });

  ui.dialogCancel.addEventListener("click", () => ui.dialog.close());
  ui.dialogOk.addEventListener("click", async () => {
    ui.dialog.close();
    const place = state.single;
    if (!place) return;
    try {
      await api("/v1/saved/" + idPath(place.id), { method: "DELETE" });
      state.savedIDs.delete(place.id);
      setStatus("Deleted “" + (place.displayName || place.name) + "” from saved places.");
    } catch (error) {
      if (error.status === 404) state.savedIDs.delete(place.id); else showMessage("Could not delete: " + error.message);
    }
    updateSaveButton();
  });

  async function loadSaved() {
    const body = await api("/v1/saved");
    state.savedIDs = new Set(body.results.map((p) => p.id));
    return body.results;
  }

  ui.savedButton.addEventListener("click", async () => {
    try {
      const places = await loadSaved();
      closeSuggestions();
      setPanelCollapsed(false);
      ui.results.replaceChildren();
      const s = section("Saved places", "saved-list");
      if (places.length === 0) {
        const p = document.createElement("p");
        p.className = "no-results";
        p.textContent = "No saved places yet";
        s.append(p);
      } else {
        const ul = document.createElement("ul");
        places.forEach((place) => {
          const li = document.createElement("li");
          li.append(rowButton(place.displayName || place.name, () => { openSingle(place); collapseOnSmallScreens(); }));
          ul.append(li);
        });
        s.append(ul);
      }
      ui.results.append(s);
      setStatus("");
    } catch (error) {
      showMessage(error.message);
    }
  });

  function openSingle(place) {
    state.results = [];
    showSingleOnMap(place);
    showCard(place);
  }

  // ---------- recent addresses ----------

  async function loadRecent() {
    try {
      const body = await api("/v1/recent?limit=" + state.config.recentShown);
      state.recent = body.results;
    } catch (error) { state.recent = []; }
  }

  /** Remembers a picked or pinned address (by id when the engine knows it, else the whole place). */
  async function remember(place, whole) {
    try {
      const body = await api("/v1/recent", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: whole ? placeBody(place) : JSON.stringify({ id: place.id }),
      });
      state.recent = body.results.slice(0, state.config.recentShown);
    } catch (error) {
      if (!whole && error.status === 404) return remember(place, true);
      showMessage("Could not remember the address: " + error.message);
    }
  }

  // ---------- suggestions ----------

  /** Shows the recent addresses on top of `places`; `query` is the text the places answer (kept for tests). */
  function renderSuggestions(places, query) {
    ui.suggestions.dataset.query = query || "";
    const recentIDs = new Set(state.recent.map((p) => p.id));
    state.suggestions = state.recent.map((place) => ({ place, recent: true }))
      .concat(places.filter((p) => !recentIDs.has(p.id)).map((place) => ({ place, recent: false })));
    state.active = -1;
    ui.suggestions.replaceChildren();
    state.suggestions.forEach((item, index) => {
      const li = document.createElement("li");
      li.id = "suggestion-" + index;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      if (item.recent) {
        li.classList.add("recent");
        const tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = "Recent";
        li.append(tag);
      }
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = item.place.displayName || item.place.name;
      li.append(text);
      li.addEventListener("mousedown", (event) => event.preventDefault());   // keep the field focused
      li.addEventListener("click", () => chooseSuggestion(index));
      ui.suggestions.append(li);
    });
    const open = state.suggestions.length > 0;
    ui.suggestions.hidden = !open;
    ui.q.setAttribute("aria-expanded", String(open));
    ui.q.removeAttribute("aria-activedescendant");
  }

  function closeSuggestions() {
    state.suggestSeq++;               // any answer still on its way is now stale
    clearTimeout(state.suggestTimer);
    state.suggestions = [];
    state.active = -1;
    ui.suggestions.hidden = true;
    ui.suggestions.replaceChildren();
    ui.q.setAttribute("aria-expanded", "false");
    ui.q.removeAttribute("aria-activedescendant");
  }

  function highlight(index) {
    const items = ui.suggestions.children;
    if (items.length === 0) return;
    state.active = (index + items.length) % items.length;
    Array.from(items).forEach((li, i) => {
      li.classList.toggle("active", i === state.active);
      li.setAttribute("aria-selected", String(i === state.active));
    });
    items[state.active].scrollIntoView({ block: "nearest" });
    ui.q.setAttribute("aria-activedescendant", items[state.active].id);
  }

  function chooseSuggestion(index) {
    const item = state.suggestions[index];
    if (!item) return;
    const place = item.place;
    closeSuggestions();
    ui.q.value = place.displayName || place.name;
    state.results = [];
    ui.results.replaceChildren();
    setStatus("");
    openSingle(place);
    remember(place);
  }

  /** Asks for suggestions; only the answer to the newest request may fill the list. */
  async function fetchSuggestions(text) {
    const seq = ++state.suggestSeq;
    try {
      const body = await api("/v1/suggest?q=" + encodeURIComponent(text) + "&limit=8&minChars=" + state.config.suggestMinChars);
      if (seq !== state.suggestSeq || document.activeElement !== ui.q) return;
      renderSuggestions(body.results, text);
    } catch (error) {
      if (seq === state.suggestSeq) showMessage(error.message);
    }
  }

  ui.q.addEventListener("input", () => {
    clearTimeout(state.suggestTimer);
    const text = ui.q.value;
    if (text.trim().length < state.config.suggestMinChars) {
      state.suggestSeq++;
      if (state.recent.length) renderSuggestions([]); else closeSuggestions();
      return;
    }
    state.suggestTimer = setTimeout(() => fetchSuggestions(text), 150);
  });

  ui.q.addEventListener("focus", () => {
    if (ui.q.value.trim().length < state.config.suggestMinChars && state.recent.length) renderSuggestions([]);
  });
  ui.q.addEventListener("blur", () => closeSuggestions());

  ui.q.addEventListener("keydown", (event) => {
    const open = !ui.suggestions.hidden;
    if (event.key === "ArrowDown") {
      if (open) { event.preventDefault(); highlight(state.active + 1); }
    } else if (event.key === "ArrowUp") {
      if (open) { event.preventDefault(); highlight(state.active - 1); }
    } else if (event.key === "Enter") {
      if (open && state.active >= 0) { event.preventDefault(); chooseSuggestion(state.active); }
      // otherwise the form submits: a search
    } else if (event.key === "Escape") {
      if (open) { event.preventDefault(); closeSuggestions(); }
    }
  });

  // ---------- centre pin: reverse geocode where the map stops ----------

  function addressLine(place) {
    const a = place.address;
    if (a && (a.street || a.houseNumber || a.postcode)) {
      const streetLine = [a.street, a.houseNumber].filter(Boolean).join(" ");
      const townLine = [a.postcode, a.town].filter(Boolean).join(" ");
      return [streetLine, townLine].filter(Boolean).join(", ");
    }
    return place.displayName || place.name;
  }

  function onMoveEnd() {
    if (!state.centerPin) return;
    if (state.skipReverse) { state.skipReverse = false; return; }
    clearTimeout(state.reverseTimer);
    state.reverseTimer = setTimeout(reverseCentre, 250);
  }

  async function reverseCentre() {
    const seq = ++state.reverseSeq;
    const c = map.getCenter().wrap();
    ui.q.placeholder = "Finding the address…";
    try {
      const body = await api("/v1/reverse?lat=" + c.lat.toFixed(6) + "&lon=" + c.lng.toFixed(6));
      if (seq !== state.reverseSeq || !state.centerPin) return;
      const place = body.results[0];
      if (!place) { setStatus("No address here."); return; }
      ui.q.value = addressLine(place);
      ui.card.hidden = true;
      state.single = null;
      setStatus("Address under the pin: " + addressLine(place));
      remember(place, true);
    } catch (error) {
      if (seq === state.reverseSeq) showMessage(error.message);
    } finally {
      ui.q.placeholder = "Search places or addresses";
    }
  }

  ui.centerPinToggle.addEventListener("click", () => {
    state.centerPin = !state.centerPin;
    ui.centerPinToggle.setAttribute("aria-pressed", String(state.centerPin));
    ui.centerPin.hidden = !state.centerPin;
    if (state.centerPin && map) {
      singleLayer.clearLayers();
      resultLayer.clearLayers();
      hideCard();
      state.skipReverse = false;
      reverseCentre();
    } else {
      state.reverseSeq++;
    }
  });

  // ---------- zoom and my location ----------

  ui.zoomIn.addEventListener("click", () => map && map.zoomIn());
  ui.zoomOut.addEventListener("click", () => map && map.zoomOut());

  function showYou(lat, lon) {
    if (!map) return;
    if (!state.youMarker) {
      state.youMarker = L.marker([lat, lon], {
        icon: L.divIcon({ className: "", html: '<div class="you-are-here"></div>', iconSize: [22, 22] }),
        title: "You are here", keyboard: false, zIndexOffset: 1000,
      }).addTo(map);
    } else {
      state.youMarker.setLatLng([lat, lon]);
    }
  }

  function stopFollowing() {
    if (state.watchID !== null) navigator.geolocation.clearWatch(state.watchID);
    state.watchID = null;
    ui.myLocation.setAttribute("aria-pressed", "false");
  }

  function locationFailed(reason) {
    stopFollowing();
    const c = state.config.defaultCenter;
    showMessage(reason + " Showing the default location instead; search works as usual.");
    if (map) map.setView([c.latitude, c.longitude], Math.max(map.getZoom(), 10));
  }

  /** Follows the user's position until pressed again. */
  ui.myLocation.addEventListener("click", () => {
    if (state.watchID !== null) { stopFollowing(); return; }
    if (!("geolocation" in navigator)) { locationFailed("This browser cannot tell your location."); return; }
    ui.myLocation.setAttribute("aria-pressed", "true");
    let first = true;
    state.watchID = navigator.geolocation.watchPosition((position) => {
      const { latitude, longitude } = position.coords;
      showYou(latitude, longitude);
      if (map) {
        if (first) map.setView([latitude, longitude], Math.max(map.getZoom(), 15)); else map.panTo([latitude, longitude]);
      }
      first = false;
    }, (error) => {
      if (error.code === 1) locationFailed("Location permission was refused.");
      else if (error.code === 3) locationFailed("Your location took too long to find.");
      else locationFailed("Your location is unavailable.");
    }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 10000 });
  });

  // ---------- start ----------

  async function start() {
    try {
      state.config = Object.assign(state.config, await api("/v1/config"));
    } catch (error) {
      showMessage(error.message);
    }
    setUpMap();
    await Promise.all([loadRecent(), loadSaved().catch((error) => showMessage(error.message))]);
    // Reopen the place a reload left on screen, with its saved state.
    const match = /^#place=(.+)$/.exec(location.hash);
    if (match) {
      const id = decodeURIComponent(match[1]);
      try {
        const saved = (await api("/v1/saved")).results.find((p) => p.id === id);
        const place = saved || (await api("/v1/places/" + idPath(id))).results[0];
        if (place) openSingle(place);
      } catch (error) {
        hideCard();
      }
    }
    document.body.dataset.ready = "true";
    document.dispatchEvent(new Event("pindrop:ready"));
  }

  // For people debugging in the console, and for the browser tests.
  window.pindrop = {
    get map() { return map; },
    state,
    resultMarkerCount: () => (resultLayer ? resultLayer.getLayers().length + singleLayer.getLayers().length : 0),
    api, showMessage,   // for the other modes' scripts (nearme.js)
  };
  start();
})();
