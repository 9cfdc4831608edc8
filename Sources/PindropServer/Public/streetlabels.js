// Pindrop web app: the names on the offline street map, painted on one canvas over the view after every move: street
// names along their streets from zoom 15 (letter by letter, following the curve, upright), and from zoom 16 the
// venues' category icons, with their names from zoom 17. Main roads are named first, then venues by kind; nothing is
// drawn over a name already placed or over a place name (labels.js). Text is drawn, never put in the page as HTML,
// and works the same on a touch screen as with a mouse.
import { map } from "./map.js";
import { viewFeatures } from "./streetmap.js";
import { project, partsOf, roadRank } from "./streetpaint.js";
import { drawIcon, iconFor } from "./mapicons.js";
import { labelBoxes } from "./labels.js";

const NAME_ZOOM = 15, POI_ZOOM = 16, POI_NAME_ZOOM = 17;
// At zoom 16 only the landmarks' icons: the places people find their way by, not every shop and café.
const LANDMARKS = new Set(["culture", "lodging", "worship", "health", "education", "transport", "leisure"]);
const ICON = 18;                      // pixels across a venue's icon
const MAX_BEND = 0.55;                // radians between two letters' directions: more, and the name is not put there
const CELL = 64;                      // the collision grid's cell, pixels
// Which venues win a crowded block: what people look for on a map first.
const GROUP_ORDER = ["culture", "lodging", "food", "cafe", "bar", "shop", "leisure", "worship", "health", "transport",
  "money", "education", "service"];

const PARTIAL_WAIT = 250;             // ms: while a view's tiles come in, its names are drawn again at most this often
const state = { canvas: null, frame: 0, partial: 0, streets: [], pois: [], drawn: null };

/** What the last drawing placed, for the browser tests: street names with their middle point, venues with
 *  whether their name was drawn, and the zoom, centre and time in milliseconds of that drawing. */
export const streetLabelsForTests = {
  streets: () => state.streets.slice(),
  pois: () => state.pois.slice(),
  get drawn() { return state.drawn; },
};

/** Sets up the canvas and follows the map's moves and the street data's arrival; nothing without a map. */
export function initStreetLabels() {
  if (!map) return;
  const pane = map.createPane("streetlabels");
  pane.style.zIndex = 440;                 // over the streets and circles, under the place names (450) and pins
  pane.style.pointerEvents = "none";
  state.canvas = L.DomUtil.create("canvas", "street-labels", pane);
  map.on("moveend resize placelabels", schedule);
  // The names are drawn again once the view's last tile is in (a redraw per tile would slow the others coming in),
  // and every PARTIAL_WAIT meanwhile.
  map.on("streetdata", (event) => {
    if (event.complete) schedule();
    else if (!state.partial) state.partial = setTimeout(schedule, PARTIAL_WAIT);
  });
  map.on("zoomstart", () => { state.canvas.style.visibility = "hidden"; });
  schedule();
}

function schedule() {
  clearTimeout(state.partial);
  state.partial = 0;
  if (state.frame) return;
  state.frame = requestAnimationFrame(() => { state.frame = 0; draw(); });
}

/** Paints every name of the view anew. */
function draw() {
  const started = performance.now();
  const canvas = state.canvas, size = map.getSize(), ratio = window.devicePixelRatio || 1, zoom = map.getZoom();
  const topLeft = map.containerPointToLayerPoint([0, 0]);
  L.DomUtil.setPosition(canvas, topLeft);
  const ctx = canvas.getContext("2d");
  if (canvas.width !== size.x * ratio || canvas.height !== size.y * ratio) {
    canvas.width = size.x * ratio;
    canvas.height = size.y * ratio;
    canvas.style.width = size.x + "px";
    canvas.style.height = size.y + "px";
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  canvas.style.visibility = "";
  ctx.save();
  ctx.scale(ratio, ratio);
  state.streets = [];
  state.pois = [];
  if (zoom >= NAME_ZOOM) {
    const origin = map.getPixelOrigin().add(topLeft);
    const toScreen = (position) => { const p = project(position, zoom); return [p[0] - origin.x, p[1] - origin.y]; };
    const grid = new Grid(size);
    labelBoxes().forEach((box) => grid.add(box));
    const features = viewFeatures();
    if (zoom >= NAME_ZOOM) placeStreetNames(ctx, features, toScreen, grid, size);
    if (zoom >= POI_ZOOM) placeVenues(ctx, features, toScreen, grid, size, zoom >= POI_NAME_ZOOM);
  }
  ctx.restore();
  const c = map.getCenter();
  state.drawn = { zoom, center: [c.lat, c.lng], ms: performance.now() - started, at: performance.now() };
}

// ---------- collisions ----------

/** Boxes placed so far ([left, top, right, bottom] in screen pixels), by grid cell. */
class Grid {
  constructor(size) { this.cells = new Map(); this.size = size; }
  keys(b) {
    const keys = [];
    for (let x = Math.floor(b[0] / CELL); x <= Math.floor(b[2] / CELL); x++) {
      for (let y = Math.floor(b[1] / CELL); y <= Math.floor(b[3] / CELL); y++) keys.push(x + "," + y);
    }
    return keys;
  }
  free(b) {
    if (b[0] < 0 || b[1] < 0 || b[2] > this.size.x || b[3] > this.size.y) return false;
    return this.keys(b).every((k) => !(this.cells.get(k) || []).some((o) => b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3]));
  }
  add(b) { this.keys(b).forEach((k) => { if (!this.cells.has(k)) this.cells.set(k, []); this.cells.get(k).push(b); }); }
}

// ---------- street names ----------

function placeStreetNames(ctx, features, toScreen, grid, size) {
  const byName = new Map();
  for (const f of features) {
    if (f.properties.kind !== "street" || !f.properties.name) continue;
    const entry = byName.get(f.properties.name) || { name: f.properties.name, rank: -1, lines: [] };
    entry.rank = Math.max(entry.rank, roadRank(f.properties.category));
    for (const part of partsOf(f.geometry)) entry.lines.push(part.map(toScreen));
    byName.set(entry.name, entry);
  }
  const names = [...byName.values()].map((e) => Object.assign(e, { lines: joined(e.lines).map(withLengths).sort((a, b) => b.length - a.length) }))
    .sort((a, b) => b.rank - a.rank || b.lines[0].length - a.lines[0].length);
  for (const entry of names) {
    ctx.font = (entry.rank >= 6 ? "600 13px " : "12px ") + "system-ui, sans-serif";
    const placed = placeAlong(ctx, entry, grid, size);
    if (placed) state.streets.push({ name: entry.name, x: Math.round(placed[0]), y: Math.round(placed[1]) });
  }
}

/** A street's ways joined end to end where they meet (OSM cuts a street at every junction and change of lanes), so
 *  its name can run along the whole of it. */
function joined(lines) {
  const near = (a, b) => Math.abs(a[0] - b[0]) < 1 && Math.abs(a[1] - b[1]) < 1;
  const open = lines.filter((l) => l.length >= 2).map((l) => l.slice());
  const out = [];
  while (open.length) {
    let line = open.pop(), grew = true;
    while (grew) {
      grew = false;
      for (let i = 0; i < open.length; i++) {
        const o = open[i];
        if (near(o[0], line[line.length - 1])) line = line.concat(o.slice(1));
        else if (near(o[o.length - 1], line[line.length - 1])) line = line.concat(o.slice(0, -1).reverse());
        else if (near(o[o.length - 1], line[0])) line = o.concat(line.slice(1));
        else if (near(o[0], line[0])) line = o.slice().reverse().concat(line.slice(1));
        else continue;
        open.splice(i, 1);
        grew = true;
        break;
      }
    }
    out.push(line);
  }
  return out;
}

/** A line in screen pixels with the length run up to each point. */
function withLengths(points) {
  const run = [0];
  for (let i = 1; i < points.length; i++) run.push(run[i - 1] + Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]));
  return { points, run, length: run[run.length - 1] };
}

/** Puts the name on the first of its lines where it fits: from the line's middle outwards. Returns where its middle
 *  went, or null. */
function placeAlong(ctx, entry, grid, size) {
  const widths = [...entry.name].map((ch) => ctx.measureText(ch).width);
  const total = widths.reduce((a, b) => a + b, 0);
  for (const line of entry.lines) {
    if (line.length < total + 16) break;              // the lines are longest first
    const slack = line.length - total;
    for (let shift = 0; shift <= slack / 2; shift += 24) {
      for (const start of shift ? [slack / 2 - shift, slack / 2 + shift] : [slack / 2]) {
        const glyphs = glyphsAt(line, start, widths, entry.name, size);
        if (glyphs && glyphs.every((g) => grid.free(g.box))) {
          glyphs.forEach((g) => grid.add(g.box));
          paintGlyphs(ctx, glyphs);
          return glyphs[Math.floor(glyphs.length / 2)].at;
        }
      }
    }
  }
  return null;
}

/** The position and angle of each letter set along the line from `start` pixels on, read left to right; null where
 *  the line bends too much under the name. */
function glyphsAt(line, start, widths, name, size) {
  const total = widths.reduce((a, b) => a + b, 0);
  const a = pointAt(line, start), b = pointAt(line, start + total);
  const forward = b.at[0] >= a.at[0];
  const letters = [...name];
  const glyphs = [];
  let offset = 0;
  for (let i = 0; i < letters.length; i++) {
    const along = forward ? start + offset + widths[i] / 2 : start + total - offset - widths[i] / 2;
    const p = pointAt(line, along);
    const angle = forward ? p.angle : p.angle + Math.PI;
    if (glyphs.length && Math.abs(Math.atan2(Math.sin(angle - glyphs[glyphs.length - 1].angle), Math.cos(angle - glyphs[glyphs.length - 1].angle))) > MAX_BEND) return null;
    const half = Math.max(widths[i], 8) / 2 + 1.5;
    const box = [p.at[0] - half, p.at[1] - half - 1, p.at[0] + half, p.at[1] + half + 1];
    if (box[0] < 0 || box[1] < 0 || box[2] > size.x || box[3] > size.y) return null;
    glyphs.push({ ch: letters[i], at: p.at, angle, width: widths[i], box });
    offset += widths[i];
  }
  return glyphs;
}

/** The point `distance` pixels along the line, and the line's direction there. */
function pointAt(line, distance) {
  const { points, run } = line;
  let i = 1;
  while (i < points.length - 1 && run[i] < distance) i++;
  const [x0, y0] = points[i - 1], [x1, y1] = points[i];
  const span = run[i] - run[i - 1] || 1, t = Math.max(0, Math.min(1, (distance - run[i - 1]) / span));
  return { at: [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t], angle: Math.atan2(y1 - y0, x1 - x0) };
}

function paintGlyphs(ctx, glyphs) {
  ctx.textBaseline = "middle";
  ctx.textAlign = "center";
  ctx.lineJoin = "round";
  for (const g of glyphs) {
    ctx.save();
    ctx.translate(g.at[0], g.at[1]);
    ctx.rotate(g.angle);
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(255, 255, 255, 0.95)";
    ctx.strokeText(g.ch, 0, 0);
    ctx.fillStyle = "#3c3c3c";
    ctx.fillText(g.ch, 0, 0);
    ctx.restore();
  }
}

// ---------- venues ----------

function placeVenues(ctx, features, toScreen, grid, size, named) {
  const rank = (f) => GROUP_ORDER.indexOf(iconFor(f.properties.category).group);
  const venues = features.filter((f) => f.properties.kind === "poi" && f.properties.name)
    .filter((f) => named || LANDMARKS.has(iconFor(f.properties.category).group))
    .sort((a, b) => rank(a) - rank(b) || a.properties.name.localeCompare(b.properties.name));
  ctx.font = "600 12px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  for (const f of venues) {
    const [x, y] = toScreen(f.geometry.coordinates);
    const iconBox = [x - ICON / 2 - 1, y - ICON / 2 - 1, x + ICON / 2 + 1, y + ICON / 2 + 1];
    if (!grid.free(iconBox)) continue;
    grid.add(iconBox);
    const icon = drawIcon(ctx, f.properties.category, x, y, ICON);
    const name = named ? placeVenueName(ctx, f.properties.name, x, y, icon.color, grid) : false;
    state.pois.push({ name: f.properties.name, category: f.properties.category, group: icon.group, named: name, x: Math.round(x), y: Math.round(y) });
  }
}

/** The venue's name to the right of its icon, else to its left, else under it; whether it found room. */
function placeVenueName(ctx, name, x, y, color, grid) {
  const width = ctx.measureText(name).width, h = 8;
  const spots = [
    ["left", x + ICON / 2 + 3, y, [x + ICON / 2 + 2, y - h, x + ICON / 2 + 5 + width, y + h]],
    ["right", x - ICON / 2 - 3, y, [x - ICON / 2 - 5 - width, y - h, x - ICON / 2 - 2, y + h]],
    ["center", x, y + ICON / 2 + 9, [x - width / 2 - 2, y + ICON / 2 + 1, x + width / 2 + 2, y + ICON / 2 + 17]],
  ];
  const spot = spots.find((s) => grid.free(s[3]));
  if (!spot) return false;
  grid.add(spot[3]);
  ctx.textAlign = spot[0];
  ctx.lineWidth = 3;
  ctx.lineJoin = "round";
  ctx.strokeStyle = "rgba(255, 255, 255, 0.95)";
  ctx.strokeText(name, spot[1], spot[2]);
  ctx.fillStyle = shade(color);
  ctx.fillText(name, spot[1], spot[2]);
  return true;
}

/** A darker shade of an icon's colour, for its name (readable on the map's light ground). */
function shade(hex) {
  const n = parseInt(hex.slice(1), 16);
  const part = (shift) => Math.round(((n >> shift) & 255) * 0.72);
  return "rgb(" + part(16) + "," + part(8) + "," + part(0) + ")";
}
