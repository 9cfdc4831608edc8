// Pindrop web app: how the offline street map paints one tile (streetmap.js loads them): land use, parks, water,
// rivers, railways, buildings and roads by class. The features of one look (the same colour and width) go into one
// path, traced once per tile and kept with its data, so a tile costs a few dozen fills and strokes however many
// streets it holds, and painting it again (zooming back, panning back) only replays them.

const FILL = {
  landuse: { residential: "#e6e3df", commercial: "#f2dad9", retail: "#fbd9d4", industrial: "#ebdbe8", farmland: "#eef0d5",
    farmyard: "#f5dcba", cemetery: "#c9dfc3", railway: "#e6dfe4", construction: "#e4e0cf", military: "#f1d9d5",
    education: "#f7efb7", religious: "#e3ddd5" },
  park: { forest: "#b7d9a5", wood: "#b7d9a5", scrub: "#c8dcae", heath: "#d6d99f", pitch: "#aae0cb", playground: "#c6efd9",
    golf_course: "#c4eac4", orchard: "#cfe6b6", vineyard: "#cfe6b6", allotments: "#d6e6c2" },
};
const DEFAULT_FILL = { landuse: "#ebe8e3", park: "#cdebc0", water: "#aad3df", building: "#d9d0c9" };
// Roads by class: [fill, casing, width in pixels at zoom 16]. Drawn low classes first, so the main roads cross over.
const ROADS = [
  [["footway", "path", "cycleway", "bridleway", "steps"], "#fa8072", null, 1.2],
  [["track"], "#c6a45f", null, 1.3],
  [["service", "busway", "raceway"], "#ffffff", "#c9c0b6", 3],
  [["pedestrian"], "#eeecf3", "#c2bcc9", 5],
  [["residential", "unclassified", "living_street", "road"], "#ffffff", "#c4bcb2", 6.5],
  [["motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link"], "#fff3c4", "#c9b37e", 5],
  [["tertiary"], "#ffffff", "#b8ac9d", 8],
  [["secondary"], "#f7fabf", "#b9ba85", 9],
  [["primary"], "#fcd6a4", "#c99c64", 10],
  [["trunk"], "#f9b29c", "#c7826f", 10.5],
  [["motorway"], "#e892a2", "#c0677a", 11],
];
const ROAD_RANK = new Map();
ROADS.forEach(([classes], rank) => classes.forEach((c) => ROAD_RANK.set(c, rank)));
const PATHS = new Set(ROADS[0][0]);

/** The road class rank (0 paths … 10 motorways), for the labels' order; -1 for anything else. */
export const roadRank = (category) => (ROAD_RANK.has(category) ? ROAD_RANK.get(category) : -1);

/** Web Mercator pixels at `zoom` of a [longitude, latitude] position. */
export function project(position, zoom) {
  const scale = 256 * Math.pow(2, zoom);
  const lat = Math.max(-85.05, Math.min(85.05, position[1])) * Math.PI / 180;
  return [((position[0] + 180) / 360) * scale, ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * scale];
}

/** The parts of a feature's geometry as lists of positions: a line's lines, an area's rings, a point. */
export function partsOf(geometry) {
  switch (geometry.type) {
    case "LineString": return [geometry.coordinates];
    case "MultiLineString": case "Polygon": return geometry.coordinates;
    case "MultiPolygon": return geometry.coordinates.flat();
    case "Point": return [[geometry.coordinates]];
    default: return [];
  }
}

/** Paints a tile's features on its canvas, its top left corner at `origin` (world pixels at `zoom`). */
export function paintTile(ctx, tile, origin, zoom) {
  if (!tile.passes) tile.passes = passesOf(tile.features, origin, zoom);
  ctx.lineJoin = "round";
  for (const pass of tile.passes) {
    if (pass.fill) {
      ctx.fillStyle = pass.fill;
      ctx.fill(pass.path);
    }
    if (pass.stroke) {
      ctx.strokeStyle = pass.stroke;
      ctx.lineWidth = pass.width;
      ctx.lineCap = pass.dashed ? "butt" : "round";
      ctx.stroke(pass.path);
    }
  }
}

/** How wide a road of `width` pixels at zoom 16 is drawn at `zoom`. */
const widthAt = (width, zoom) => Math.max(0.6, width * Math.pow(2, (zoom - 16) * 0.75));

/** The tile's fills and strokes in painting order, each with the path of every feature it paints. */
function passesOf(features, origin, zoom) {
  const toPixels = (position) => { const [x, y] = project(position, zoom); return [x - origin[0], y - origin[1]]; };
  const byKind = {};
  for (const f of features) (byKind[f.properties.kind] = byKind[f.properties.kind] || []).push(f);
  const passes = new Passes(toPixels);
  for (const kind of ["landuse", "park", "water"]) {
    passes.areas(byKind[kind], (f) => ({ fill: (FILL[kind] && FILL[kind][f.properties.category]) || DEFAULT_FILL[kind] }));
  }
  // A dash of `on` pixels with round ends, cut as a flat-ended one reaching as far; solid where the ends meet.
  const line = (stroke, width, [on, off] = [0, 0]) => ({ stroke, width, dashed: off > width ? [on + width, off - width] : null });
  passes.lines(byKind.waterway, (f) => line("#8fc6da", widthAt(f.properties.category === "river" ? 5 : 2, zoom)));
  const rail = (f) => f.properties.category === "rail";
  passes.lines(byKind.railway, (f) => line("#9a9a9a", widthAt(rail(f) ? 3 : 1.6, zoom)));
  passes.lines((byKind.railway || []).filter(rail), () => line("#ffffff", widthAt(1.6, zoom), [6, 6]));
  const outline = zoom >= 15 ? line("#c4b5a8", zoom >= 16 ? 0.8 : 0.5) : {};
  passes.areas(byKind.building, () => Object.assign({ fill: DEFAULT_FILL.building }, outline));
  const roads = (byKind.street || []).slice().sort((a, b) => roadRank(a.properties.category) - roadRank(b.properties.category));
  const style = (f) => ROADS[Math.max(0, roadRank(f.properties.category))];
  passes.lines(roads.filter((f) => style(f)[2]), (f) => line(style(f)[2], widthAt(style(f)[3], zoom) + (zoom >= 15 ? 2 : 1)));
  passes.lines(roads, (f) => line(style(f)[1], widthAt(style(f)[3], zoom),
    PATHS.has(f.properties.category) && zoom >= 16 ? [3, 3] : undefined));
  return passes.list;
}

/** Passes in the order they are first asked for; the features of one look share one pass. */
class Passes {
  constructor(toPixels) { this.toPixels = toPixels; this.list = []; }

  /** Lines, each traced open, or as its dashes when the look has some. */
  lines(features, look) {
    this.add(features, look, (path, f, style) => partsOf(f.geometry).forEach((part) => {
      if (style.dashed) this.traceDashes(path, part, style.dashed); else this.trace(path, part, false);
    }));
  }

  /** Areas: each polygon's outer ring one way round and its holes the other, so one path of many areas fills right. */
  areas(features, look) {
    this.add(features, look, (path, f) => {
      const g = f.geometry;
      const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
      for (const rings of polygons) rings.forEach((ring, i) => this.trace(path, ring, true, i === 0 ? 1 : -1));
    });
  }

  add(features, look, traceFeature) {
    const here = new Map();
    for (const f of features || []) {
      const style = look(f);
      const key = [style.fill, style.stroke, style.width, style.dashed].join("|");
      if (!here.has(key)) {
        here.set(key, Object.assign({ path: new Path2D() }, style));
        this.list.push(here.get(key));
      }
      traceFeature(here.get(key).path, f, style);
    }
  }

  /** Adds one line or ring to `path`; a ring goes round clockwise on screen when `turn` is 1, the other way when -1. */
  trace(path, positions, close, turn) {
    const points = positions.map(this.toPixels);
    if (close && Math.sign(signedArea(points)) === -turn) points.reverse();
    points.forEach(([x, y], i) => { if (i === 0) path.moveTo(x, y); else path.lineTo(x, y); });
    if (close) path.closePath();
  }

  /** Adds a line's dashes, [on, off] pixels, to `path` (stroked with flat ends). Cutting the dashes once per tile
   *  costs the canvas a fraction of its own dashing with round ends. */
  traceDashes(path, positions, [on, off]) {
    const points = positions.map(this.toPixels);
    let drawing = true, left = on;
    if (points.length) path.moveTo(points[0][0], points[0][1]);
    for (let i = 1; i < points.length; i++) {
      const [x0, y0] = points[i - 1], [x1, y1] = points[i];
      const length = Math.hypot(x1 - x0, y1 - y0);
      let at = 0;
      while (length - at > left) {
        at += left;
        const x = x0 + ((x1 - x0) * at) / length, y = y0 + ((y1 - y0) * at) / length;
        if (drawing) path.lineTo(x, y); else path.moveTo(x, y);
        drawing = !drawing;
        left = drawing ? on : off;
      }
      left -= length - at;
      if (drawing) path.lineTo(x1, y1);
    }
  }
}

/** Twice the area of a ring in screen pixels: positive when it goes round clockwise on screen (y down). */
function signedArea(points) {
  let sum = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) sum += points[j][0] * points[i][1] - points[i][0] * points[j][1];
  return sum;
}
