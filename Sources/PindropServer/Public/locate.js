// Pindrop web app: where you are. The map opens on you: the position is asked for once on load (the browser asks for
// permission then), shown as a blue dot in a circle of its accuracy, and the map centred there while nobody has moved
// it yet; refused or unavailable, the map says so once and stays on the default view. "My location" follows you until
// pressed again or until you move the map yourself (then the dot stays and the map stops chasing it). The card's
// distances are measured from the last position known.
import { $, element } from "./dom.js";
import { showMessage } from "./panel.js";

const OPEN_ZOOM = 15;       // the zoom the map opens on you and first follows at: streets are readable there
const you = { map: null, position: null, marker: null, circle: null, watchID: null, config: null };

/** The last position known ({latitude, longitude, accuracy}), or null. */
export const userPosition = () => you.position;

/** For the browser tests: whether following is on, and the accuracy circle's radius in metres (null without one). */
export const locateForTests = {
  get following() { return you.watchID !== null; },
  get accuracy() { return you.circle ? you.circle.getRadius() : null; },
};

/** Wires the "My location" button and asks for the position once. */
export function initLocate(map, config) {
  you.map = map;
  you.config = config;
  $("my-location").addEventListener("click", toggleFollow);
  // Moving the map by hand ends following: the map no longer snaps back to you.
  map.on("dragstart", () => { if (you.watchID !== null) stopFollowing(); });
  openOnUser();
}

function openOnUser() {
  if (!("geolocation" in navigator)) return;
  let untouched = true;
  you.map.once("movestart", () => { untouched = false; });
  navigator.geolocation.getCurrentPosition((position) => {
    showYou(position.coords);
    if (untouched) you.map.setView([position.coords.latitude, position.coords.longitude], OPEN_ZOOM, { animate: false });
  }, (error) => {
    if (untouched) sayWhyNotHere(error.code === 1);
  }, { enableHighAccuracy: false, timeout: 15000, maximumAge: 60000 });
}

/** The map stays on the default view: a notice at its top says why and what to do, until closed or the map moved. */
function sayWhyNotHere(refused) {
  const notice = element("div", "map-notice");
  notice.id = "location-notice";
  notice.setAttribute("role", "status");
  const close = element("button", "icon", "×");
  close.type = "button";
  close.setAttribute("aria-label", "Close the notice");
  close.addEventListener("click", () => notice.remove());
  notice.append(element("span", null, refused
    ? "Location is off for this site, so the map shows its default view, not where you are. Allow location in the "
      + "browser to start where you are."
    : "Your location could not be found, so the map shows its default view."), close);
  $("map-notices").append(notice);
  you.map.once("dragstart zoomstart", () => notice.remove());
}

/** The dot at the position and the circle of its accuracy (metres), kept for the card's distances. */
function showYou(coords) {
  const latlng = [coords.latitude, coords.longitude];
  you.position = { latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy };
  if (!you.marker) {
    you.circle = L.circle(latlng, { radius: coords.accuracy || 0, color: "#1a5fd0", weight: 1, opacity: 0.5, fillColor: "#1a5fd0",
      fillOpacity: 0.12, interactive: false, className: "accuracy-circle" }).addTo(you.map);
    you.marker = L.marker(latlng, {
      icon: L.divIcon({ className: "", html: '<div class="you-are-here"></div>', iconSize: [22, 22] }),
      title: "You are here", keyboard: false, zIndexOffset: 1000,
    }).addTo(you.map);
  } else {
    you.marker.setLatLng(latlng);
    you.circle.setLatLng(latlng).setRadius(coords.accuracy || 0);
  }
}

function stopFollowing() {
  if (you.watchID !== null) navigator.geolocation.clearWatch(you.watchID);
  you.watchID = null;
  $("my-location").setAttribute("aria-pressed", "false");
}

/**
 * Follows the user's position until pressed again or the map is dragged. Only a refusal stops it otherwise:
 * "unavailable" and "took too long" are passing states (indoors, a tunnel), so it says so once and keeps waiting
 * for the next fix. The map never jumps elsewhere on an error; it stays where the user was looking.
 */
function toggleFollow() {
  if (you.watchID !== null) { stopFollowing(); return; }
  if (!("geolocation" in navigator)) { showMessage("This browser cannot tell your location. Search works as usual."); return; }
  $("my-location").setAttribute("aria-pressed", "true");
  let first = true, saidWaiting = false;
  you.watchID = navigator.geolocation.watchPosition((position) => {
    const { latitude, longitude } = position.coords;
    showYou(position.coords);
    if (you.watchID === null) return;
    if (first) you.map.setView([latitude, longitude], Math.max(you.map.getZoom(), OPEN_ZOOM), { animate: false });
    else you.map.panTo([latitude, longitude]);
    first = false;
    saidWaiting = false;
  }, (error) => {
    if (error.code === 1) {
      stopFollowing();
      showMessage("Location permission was refused, so the map cannot show where you are. "
        + "Allow location for this site in the browser to use My location; search works as usual.");
    } else if (!saidWaiting) {
      saidWaiting = true;
      showMessage(error.code === 3 ? "Finding your location is taking a while; still trying."
        : "Your location is not available right now; still trying.");
    }
  }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 10000 });
}
