// Pindrop web app: "Near me" mode (PRODUCT.md §4) and the offline street basemap drawn at street zoom.
// Runs after app.js and uses what it exposes on window.pindrop (map, api, showMessage, state.config).
// Venue and street names only ever reach the page as text (textContent, DOM nodes), never as HTML.
(function () {
  "use strict";

  const RADIUS = { initial: 1000, min: 100, max: 5000, step: 100 };
  const VENUE_LIMIT = 100;             // the API's largest page
  const STREET_ZOOM = 14;              // the street layer is drawn from this zoom in (a 1 km circle fits at 14)
  const STREET_MAX_SPAN = 0.1;         // the server's largest box, degrees per side
  const STREET_CREDIT = "© OpenStreetMap contributors";
  // OSM tag values the engine uses as categories (amenity=cafe → "cafe", shop=bakery → "bakery").
  const CATEGORIES = [
    ["", "All categories"], ["cafe", "Cafés"], ["restaurant", "Restaurants"], ["fast_food", "Fast food"], ["pub", "Pubs"],
    ["bar", "Bars"], ["nightclub", "Nightclubs"], ["hotel", "Hotels"], ["hostel", "Hostels"], ["museum", "Museums"],
    ["gallery", "Galleries"], ["attraction", "Attractions"], ["theatre", "Theatres"], ["cinema", "Cinemas"],
    ["library", "Libraries"], ["place_of_worship", "Places of worship"], ["supermarket", "Supermarkets"],
    ["convenience", "Convenience shops"], ["bakery", "Bakeries"], ["clothes", "Clothes shops"], ["books", "Bookshops"],
    ["pharmacy", "Pharmacies"], ["bank", "Banks"], ["hairdresser", "Hairdressers"], ["artwork", "Public art"],
  ];

  const app = window.pindrop;
  const $ = (id) => document.getElementById(id);

  const near = {
    active: false,
    center: null,          // {lat, lon} the venues are searched around
    source: null,          // "you": the browser's location; "default": the configured fallback
    radius: RADIUS.initial,
    category: "",
    seq: 0,                // every venue request gets a number; only the newest may draw
    locateSeq: 0,
    venues: [],            // the last answer, nearest first
    answered: null,        // the URL of the last request answered (or failed), for the tests
    markers: [],
    layer: null, circle: null, centerMarker: null,
  };
  const streets = { seq: 0, timer: 0, loaded: null, truncated: false, count: 0, shown: false, lines: null, casings: null, buildings: null };
  const credits = new Map();   // who needs a credit → its texts; the union is shown on the map

  // ---------- small helpers ----------

  function text(tag, className, content) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (content != null) element.textContent = content;
    return element;
  }

  function formatDistance(meters) {
    return meters < 1000 ? Math.round(meters) + " m" : (meters / 1000).toFixed(meters < 10000 ? 1 : 0) + " km";
  }

  function categoryLabel(category) {
    if (!category) return "";
    const words = category.replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  /** "Mannerheimintie 5, 00100 Helsinki", or null when the place has no street address. */
  function addressLine(place) {
    const a = place.address;
    if (!a) return null;
    const street = [a.street, a.houseNumber].filter(Boolean).join(" ");
    const town = [a.postcode, a.town].filter(Boolean).join(" ");
    return [street, town].filter(Boolean).join(", ") || null;
  }

  /** Map credits as plain text (the attribution control takes HTML, so the text is escaped first). */
  function setCredit(owner, texts) {
    const map = app.map;
    if (!map || !map.attributionControl) return;
    const escape = (s) => { const d = document.createElement("div"); d.textContent = s; return d.innerHTML; };
    const before = new Set([...credits.values()].flat());
    if (texts && texts.length) credits.set(owner, texts); else credits.delete(owner);
    const after = new Set([...credits.values()].flat());
    before.forEach((t) => { if (!after.has(t)) map.attributionControl.removeAttribution(escape(t)); });
    after.forEach((t) => {
      if (before.has(t)) return;
      // The online tiles' credit may already say the same thing; do not show it twice.
      const shown = map.attributionControl.getContainer().textContent.replace(/\s+/g, " ");
      if (!shown.includes(t)) map.attributionControl.addAttribution(escape(t));
    });
  }

  // ---------- the mode's panel ----------

  const ui = {};

  function buildPanel() {
    const section = text("section", null);
    section.id = "nearme";
    section.hidden = true;
    section.setAttribute("aria-label", "Near me");
    section.append(text("h2", null, "Near me"));
    ui.where = text("p", "nearme-where");
    ui.where.id = "nearme-where";
    ui.where.setAttribute("role", "status");

    const controls = text("div", "nearme-controls");
    const radiusLabel = text("label", "nearme-radius-label", "Radius ");
    radiusLabel.htmlFor = "nearme-radius";
    ui.radiusValue = text("output", null, formatDistance(near.radius));
    ui.radiusValue.id = "nearme-radius-value";
    radiusLabel.append(ui.radiusValue);
    ui.radius = document.createElement("input");
    Object.assign(ui.radius, { type: "range", id: "nearme-radius", min: RADIUS.min, max: RADIUS.max, step: RADIUS.step, value: near.radius });
    ui.radius.setAttribute("aria-valuetext", formatDistance(near.radius));
    ui.category = document.createElement("select");
    ui.category.id = "nearme-category";
    ui.category.setAttribute("aria-label", "Category");
    CATEGORIES.forEach(([value, label]) => {
      const option = text("option", null, label);
      option.value = value;
      ui.category.append(option);
    });
    controls.append(radiusLabel, ui.radius, ui.category);

    ui.count = text("p", "nearme-count");
    ui.count.id = "nearme-count";
    ui.list = text("ul", "nearme-list");
    ui.list.id = "nearme-list";
    section.append(ui.where, controls, ui.count, ui.list);
    $("panel-body").prepend(section);
    ui.section = section;

    // The label follows the thumb; venues reload when it is let go (or on each arrow-key step).
    ui.radius.addEventListener("input", () => {
      ui.radiusValue.textContent = formatDistance(Number(ui.radius.value));
      ui.radius.setAttribute("aria-valuetext", ui.radiusValue.textContent);
    });
    ui.radius.addEventListener("change", () => {
      near.radius = Number(ui.radius.value);
      if (near.center) loadVenues(true);
    });
    ui.category.addEventListener("change", () => {
      near.category = ui.category.value;
      if (near.center) loadVenues(true);
    });
  }

  // ---------- entering and leaving ----------

  function enter() {
    near.active = true;
    ui.toggle.setAttribute("aria-pressed", "true");
    ui.section.hidden = false;
    const panel = $("panel");
    if (panel.classList.contains("collapsed")) $("panel-toggle").click();
    if (!near.layer && app.map) {
      near.layer = typeof L.markerClusterGroup === "function"
        ? L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 36, disableClusteringAtZoom: 18 })
        : L.featureGroup();
      near.layer.on("animationend", scheduleDeclutter);
      app.map.on("zoomend moveend", scheduleDeclutter);
    }
    if (near.layer && app.map) near.layer.addTo(app.map);
    locate();
  }

  function leave() {
    near.active = false;
    near.seq++;
    near.locateSeq++;
    ui.toggle.setAttribute("aria-pressed", "false");
    ui.section.hidden = true;
    if (near.layer) { near.layer.clearLayers(); near.layer.remove(); }
    if (near.circle) { near.circle.remove(); near.circle = null; }
    if (near.centerMarker) { near.centerMarker.remove(); near.centerMarker = null; }
    near.venues = [];
    near.markers = [];
    near.center = null;
    ui.list.replaceChildren();
    ui.count.textContent = "";
    setCredit("venues", null);
  }

  /** Asks the browser for the position once (no tracking); falls back to the configured default location. */
  function locate() {
    const seq = ++near.locateSeq;
    ui.where.textContent = "Finding your location…";
    ui.section.classList.remove("fallback");
    if (!("geolocation" in navigator)) { useDefault("This browser cannot tell your location."); return; }
    navigator.geolocation.getCurrentPosition((position) => {
      if (seq !== near.locateSeq || !near.active) return;
      near.source = "you";
      near.center = { lat: position.coords.latitude, lon: position.coords.longitude };
      ui.where.textContent = "Venues around your location.";
      loadVenues(true);
    }, (error) => {
      if (seq !== near.locateSeq || !near.active) return;
      useDefault(error.code === 1 ? "Location permission was refused."
        : error.code === 3 ? "Your location took too long to find." : "Your location is unavailable.");
    }, { enableHighAccuracy: false, timeout: 15000, maximumAge: 60000 });
  }

  function useDefault(reason) {
    const c = app.state.config.defaultCenter;
    near.source = "default";
    near.center = { lat: c.latitude, lon: c.longitude };
    const where = reason + " Showing venues near the default location (" + c.latitude.toFixed(4) + ", " + c.longitude.toFixed(4) + ") instead.";
    ui.where.textContent = where;
    ui.section.classList.add("fallback");
    app.showMessage(where);
    loadVenues(true);
  }

  // ---------- venues ----------

  function drawCenter() {
    const map = app.map;
    if (!map) return;
    const latlng = [near.center.lat, near.center.lon];
    if (near.circle) near.circle.remove();
    near.circle = L.circle(latlng, {
      radius: near.radius, color: "#2a6fdb", weight: 2, dashArray: "6 5", fillColor: "#2a6fdb", fillOpacity: 0.06,
      interactive: false, className: "nearme-circle",
    }).addTo(map);
    if (near.centerMarker) near.centerMarker.remove();
    const you = near.source === "you";
    near.centerMarker = L.marker(latlng, {
      icon: L.divIcon({ className: "", html: '<div class="you-are-here' + (you ? "" : " nearme-default") + '"></div>', iconSize: [22, 22] }),
      title: you ? "You are here" : "Default location", keyboard: false, zIndexOffset: 1000,
    }).addTo(map);
  }

  /** Shows `bounds` (default: the whole circle) clear of the search panel. */
  function fitView(bounds) {
    const map = app.map;
    bounds = bounds || L.latLng(near.center.lat, near.center.lon).toBounds(near.radius * 2);
    const mapBox = $("map").getBoundingClientRect();
    const panel = $("panel").getBoundingClientRect();
    const beside = panel.right + 30 < mapBox.width * 0.6;
    const padding = beside ? { paddingTopLeft: [panel.right + 20, 20], paddingBottomRight: [70, 20] }
      : { paddingTopLeft: [20, panel.bottom + 20], paddingBottomRight: [60, 20] };
    map.fitBounds(bounds, Object.assign(padding, { maxZoom: 17, animate: false }));
  }

  async function loadVenues(fit) {
    const seq = ++near.seq;
    drawCenter();
    if (fit && app.map) fitView();
    ui.section.classList.add("busy");
    ui.count.textContent = "Looking for venues…";
    let url = "/v1/nearby?lat=" + near.center.lat.toFixed(6) + "&lon=" + near.center.lon.toFixed(6)
      + "&radius=" + near.radius + "&limit=" + VENUE_LIMIT;
    if (near.category) url += "&category=" + encodeURIComponent(near.category);
    try {
      const body = await app.api(url);
      if (seq !== near.seq || !near.active) return;
      if (!body || !Array.isArray(body.results)) throw new Error("The server sent an answer the page cannot read.");
      showVenues(body.results.filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude)));
      // Cut at the limit, the venues fill only the middle of the circle: show them rather than the empty rim.
      if (fit && app.map && near.venues.length >= VENUE_LIMIT) {
        fitView(L.latLngBounds(near.venues.map((p) => [p.latitude, p.longitude]).concat([[near.center.lat, near.center.lon]])));
      }
    } catch (error) {
      if (seq !== near.seq) return;
      showVenues([]);
      ui.count.textContent = "Venues could not be loaded.";
      app.showMessage("Could not load venues near you: " + error.message);
    } finally {
      if (seq === near.seq) {
        ui.section.classList.remove("busy");
        near.answered = url;
      }
    }
  }

  function popupContent(place) {
    const box = text("div", "venue-popup");
    box.append(text("div", "popup-name", place.name || place.displayName));
    if (place.category) box.append(text("div", "venue-category", categoryLabel(place.category)));
    box.append(text("div", "venue-address", addressLine(place) || "No street address known"));
    if (Number.isFinite(place.distanceMeters)) box.append(text("div", "venue-distance", formatDistance(place.distanceMeters) + " away"));
    return box;
  }

  function venueMarker(place) {
    const name = place.name || place.displayName;
    const marker = L.marker([place.latitude, place.longitude], {
      icon: L.divIcon({ className: "venue-pin", html: "<span></span>", iconSize: [24, 24], iconAnchor: [12, 12], popupAnchor: [0, -8] }),
      title: name, alt: name, riseOnHover: true,
    });
    marker.bindTooltip(text("span", null, name), {
      permanent: true, direction: "bottom", offset: [0, 6], className: "venue-label", interactive: false,
    });
    marker.bindPopup(() => popupContent(place));
    marker.place = place;
    return marker;
  }

  function showVenues(places) {
    near.venues = places;
    if (near.layer) near.layer.clearLayers();
    near.markers = app.map ? places.map(venueMarker) : [];
    if (near.layer) {
      if (typeof near.layer.addLayers === "function") near.layer.addLayers(near.markers);
      else near.markers.forEach((m) => near.layer.addLayer(m));
    }
    setCredit("venues", places.some((p) => String(p.id).startsWith("osm:")) ? [STREET_CREDIT] : null);
    scheduleDeclutter();

    const within = formatDistance(near.radius);
    const chosen = CATEGORIES.find(([value]) => value === near.category);
    const kind = near.category && chosen ? chosen[1].toLowerCase() : "venues";   // "cafés"
    ui.count.textContent = places.length === 0 ? "No " + kind + " within " + within + "."
      : places.length >= VENUE_LIMIT ? "The nearest " + places.length + " " + kind + " (up to "
        + formatDistance(places[places.length - 1].distanceMeters || 0) + " away) in the " + within + " circle."
        + (near.category ? "" : " Choose a category to see further.")
      : places.length === 1 ? "1 venue within " + within + "."
      : places.length + " " + kind + " within " + within + ".";
    ui.list.replaceChildren();
    places.forEach((place, index) => {
      const li = document.createElement("li");
      const button = text("button", "row venue-row");
      button.type = "button";
      button.append(text("span", "venue-row-name", place.name || place.displayName));
      const details = [categoryLabel(place.category), Number.isFinite(place.distanceMeters) ? formatDistance(place.distanceMeters) : ""]
        .filter(Boolean).join(" · ");
      if (details) button.append(text("span", "venue-row-details", details));
      button.addEventListener("click", () => openVenue(index));
      li.append(button);
      ui.list.append(li);
    });
  }

  /** Hides the names that would cover a nearer venue's name; the pin stays, and tapping it shows the name. */
  function declutter() {
    const map = app.map;
    if (!map || !near.active) return;
    const placed = [];
    near.markers.forEach((marker) => {
      const tooltip = marker.getTooltip();
      const element = tooltip && tooltip.getElement();
      if (!element || !map.hasLayer(marker)) return;   // inside a cluster
      element.classList.remove("label-hidden");
      const r = element.getBoundingClientRect();
      const covers = placed.some((p) => r.left < p.right && r.right > p.left && r.top < p.bottom && r.bottom > p.top);
      element.classList.toggle("label-hidden", covers);
      if (!covers) placed.push(r);
    });
  }

  let declutterTimer = 0;
  function scheduleDeclutter() {
    clearTimeout(declutterTimer);
    declutterTimer = setTimeout(declutter, 50);
  }

  function openVenue(index) {
    const marker = near.markers[index];
    if (!marker) return;
    if (typeof near.layer.zoomToShowLayer === "function") near.layer.zoomToShowLayer(marker, () => marker.openPopup());
    else marker.openPopup();
    if (window.matchMedia("(max-width: 600px)").matches && !$("panel").classList.contains("collapsed")) $("panel-toggle").click();
  }

  // ---------- the street basemap ----------

  const STREET_STYLE = {
    motorway: ["#e892a2", 6], trunk: ["#f9b29c", 6], primary: ["#fcd6a4", 5.5], secondary: ["#f7fabf", 5], tertiary: ["#ffffff", 4.5],
    residential: ["#ffffff", 3.5], unclassified: ["#ffffff", 3.5], living_street: ["#ffffff", 3], pedestrian: ["#f1eef6", 3],
    service: ["#ffffff", 2], track: ["#d7c8a8", 1.5], footway: ["#fa8072", 1.2], path: ["#fa8072", 1.2], cycleway: ["#5a7cf0", 1.2],
    steps: ["#fa8072", 1.5], bridleway: ["#6b8e23", 1.2],
  };
  const THIN = new Set(["footway", "path", "cycleway", "steps", "bridleway", "track"]);

  function streetScale() { return Math.pow(2, (app.map.getZoom() - 16) * 0.7); }

  function streetFill(feature) {
    const [color, width] = STREET_STYLE[feature.properties.category] || ["#ffffff", 2.5];
    const thin = THIN.has(feature.properties.category);
    return { color, weight: thin ? width : width * streetScale(), opacity: 1, lineCap: "round", lineJoin: "round",
      dashArray: thin ? "3 3" : null };
  }

  function streetCasing(feature) {
    const [, width] = STREET_STYLE[feature.properties.category] || ["", 2.5];
    return { color: "#b9aea2", weight: width * streetScale() + 1.6, opacity: 1, lineCap: "round", lineJoin: "round" };
  }

  function setUpStreets() {
    const map = app.map;
    map.createPane("streets").style.zIndex = 180;   // over the Natural Earth land (150), under online tiles (200)
    const renderer = streets.renderer = L.canvas({ pane: "streets", padding: 0.5 });
    const isStreet = (f) => f.properties && f.properties.kind === "street";
    const nameTooltip = (feature, layer) => {
      if (feature.properties.name) layer.bindTooltip(() => text("span", null, feature.properties.name), { sticky: true, className: "street-name" });
    };
    streets.buildings = L.geoJSON(null, {
      renderer, pane: "streets", filter: (f) => !isStreet(f), onEachFeature: nameTooltip,
      style: { color: "#c4b5a8", weight: 0.8, fillColor: "#d9d0c9", fillOpacity: 1 },
    });
    streets.casings = L.geoJSON(null, { renderer, pane: "streets", filter: (f) => isStreet(f) && !THIN.has(f.properties.category), style: streetCasing, interactive: false });
    streets.lines = L.geoJSON(null, { renderer, pane: "streets", filter: isStreet, style: streetFill, onEachFeature: nameTooltip });
    map.on("moveend", scheduleStreets);
    map.on("zoomend", () => {
      if (!streets.shown) return;
      streets.casings.setStyle(streetCasing);
      streets.lines.setStyle(streetFill);
    });
    scheduleStreets();
  }

  function scheduleStreets() {
    clearTimeout(streets.timer);
    streets.timer = setTimeout(updateStreets, 250);
  }

  function hideStreets() {
    if (!streets.shown) return;
    [streets.buildings, streets.casings, streets.lines].forEach((layer) => layer.remove());
    streets.renderer.remove();          // its canvas too; adding a layer again brings it back
    streets.shown = false;
    setCredit("streets", null);
  }

  /** The view padded by a quarter on each side, kept within the server's largest box around the view's centre. */
  function streetBox() {
    const map = app.map;
    const view = map.getBounds().pad(0.25);
    const c = map.getCenter().wrap();
    const half = STREET_MAX_SPAN / 2 - 1e-6;
    const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
    const west = clamp(view.getWest(), c.lng - half, c.lng), east = clamp(view.getEast(), c.lng, c.lng + half);
    const south = clamp(view.getSouth(), c.lat - half, c.lat), north = clamp(view.getNorth(), c.lat, c.lat + half);
    return [clamp(west, -180, 180), clamp(south, -90, 90), clamp(east, -180, 180), clamp(north, -90, 90)];
  }

  async function updateStreets() {
    const map = app.map;
    if (map.getZoom() < STREET_ZOOM) { streets.seq++; hideStreets(); return; }
    if (streets.loaded && !streets.truncated && streets.loaded.contains(map.getBounds())) { showStreets(); return; }
    const box = streetBox();
    const seq = ++streets.seq;
    try {
      const body = await app.api("/v1/streetmap?bbox=" + box.map((v) => v.toFixed(6)).join(","));
      if (seq !== streets.seq) return;
      if (!body || !Array.isArray(body.features)) throw new Error("The server sent street data the page cannot read.");
      [streets.buildings, streets.casings, streets.lines].forEach((layer) => layer.clearLayers());
      streets.buildings.addData(body.features);
      streets.casings.addData(body.features);
      streets.lines.addData(body.features);
      streets.count = body.features.length;
      streets.loaded = L.latLngBounds([box[1], box[0]], [box[3], box[2]]);
      streets.truncated = Boolean(body.truncated);
      streets.credit = Array.isArray(body.attribution) ? body.attribution.map(String) : [];
      if (map.getZoom() >= STREET_ZOOM) showStreets(); else hideStreets();
      streets.lastError = null;
    } catch (error) {
      if (seq !== streets.seq) return;
      const message = "Could not draw the streets here: " + error.message;
      if (message !== streets.lastError) app.showMessage(message);   // once per cause, not on every move
      streets.lastError = message;
    }
  }

  function showStreets() {
    if (!streets.shown) {
      [streets.buildings, streets.casings, streets.lines].forEach((layer) => layer.addTo(app.map));
      streets.shown = true;
    }
    setCredit("streets", streets.count > 0 ? streets.credit : null);
  }

  // ---------- start ----------

  function start() {
    buildPanel();
    ui.toggle = $("near-me-toggle");
    ui.toggle.addEventListener("click", () => (near.active ? leave() : enter()));
    if (app.map) setUpStreets();
  }

  // For the browser tests and for people debugging in the console.
  app.nearme = {
    state: near,
    streetFeatureCount: () => (streets.shown ? streets.count : 0),
    /** The names shown under pins (not those hidden inside clusters or behind a nearer venue's name). */
    venueLabels: () => [...document.querySelectorAll(".venue-label:not(.label-hidden)")].map((e) => e.textContent),
  };

  if (document.body.dataset.ready === "true") start(); else document.addEventListener("pindrop:ready", start, { once: true });
})();
