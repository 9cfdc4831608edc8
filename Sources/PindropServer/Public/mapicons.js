// Pindrop web app: the icon of a venue's category, shared by the map's points of interest (streetlabels.js, drawn on
// a canvas) and Near me's pins (nearme.js, as SVG): a white glyph on a disc whose colour says the kind of place, as
// the usual map apps do (orange to eat and drink, pink to sleep, blue to shop, teal for culture...). The glyphs are
// drawn here, 24 units square, as SVG path data.

const GLYPHS = {
  food: "M7 3h1.4v6h1.2V3H11v6h1.2V3h1.4v7a2.6 2.6 0 0 1-2.2 2.6V21H9.6v-8.4A2.6 2.6 0 0 1 7 10zM16.5 3C18 3 19 5 19 8.5V12h-1.5v9h-2V3z",
  cafe: "M4 8h12v5a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5zM16 9h1.8a2.6 2.6 0 0 1 0 5.2H16v-1.7h1.8a.9.9 0 0 0 0-1.8H16zM4 19h12.5v1.7H4z",
  bar: "M5 4h14l-6 8v6h3.5v2h-9v-2H11v-6zM8.6 6l3.4 4.2L15.4 6z",
  lodging: "M2.5 6h2v7h15a2 2 0 0 1 2 2v5h-2v-2.5h-15V20h-2zM6.5 8.5h4v3.5h-4zM11.5 9h6.5a1.5 1.5 0 0 1 1.5 1.5V12h-8z",
  shop: "M5.5 8h13l1.2 13H4.3zM8.8 8V6.5a3.2 3.2 0 0 1 6.4 0V8h-1.7V6.5a1.5 1.5 0 0 0-3 0V8z",
  culture: "M12 2.5l9.5 5V10h-19V7.5zM4.5 11.5h2.2v6.5H4.5zM10.9 11.5h2.2v6.5h-2.2zM17.3 11.5h2.2v6.5h-2.2zM2.5 19.5h19v2h-19z",
  worship: "M11 2h2v2.5h2v2h-2V8l5 4v9.5h-4V17a2 2 0 0 0-4 0v4.5H6V12l5-4V6.5H9v-2h2z",
  health: "M9 3.5h6v5.5h5.5v6H15v5.5H9V15H3.5V9H9z",
  transport: "M6.5 3h11A2.5 2.5 0 0 1 20 5.5V18h-1.5v2.5h-2.5V18H8v2.5H5.5V18H4V5.5A2.5 2.5 0 0 1 6.5 3zM6 6v5.5h12V6zM6 13.5v2h3v-2zM15 13.5v2h3v-2z",
  money: "M2.5 6.5h19v11h-19zM12 8.8a3.2 3.2 0 1 0 .01 0zM5 9v6h1.5V9zM17.5 9v6H19V9z",
  education: "M12 3.5l10.5 5.3L12 14 1.5 8.8zM5.5 12v4.2C5.5 18 8.5 20 12 20s6.5-2 6.5-3.8V12L12 15.3zM20.5 10v6h1.4v-6.7z",
  leisure: "M12 2a6 6 0 0 1 6 6 5 5 0 0 1-4.8 5V16H16v2h-2.8v4h-2.4v-4H8v-2h2.8v-3A5 5 0 0 1 6 8a6 6 0 0 1 6-6z",
  service: "M12 6.5a5.5 5.5 0 1 0 .01 0z",
};

// Which group a category belongs to, its colour, and its words in the Near me list. Anything not named here is a
// shop when OSM files it under `shop`, else a service.
const GROUPS = {
  food: ["#e8710a", ["restaurant", "fast_food", "food_court", "ice_cream", "bbq"]],
  cafe: ["#e8710a", ["cafe", "coffee", "tea", "bakery", "pastry", "confectionery"]],
  bar: ["#e8710a", ["bar", "pub", "nightclub", "biergarten", "wine_bar"]],
  lodging: ["#d6457a", ["hotel", "hostel", "guest_house", "motel", "apartment", "chalet", "camp_site", "caravan_site"]],
  culture: ["#12857c", ["museum", "gallery", "theatre", "cinema", "arts_centre", "library", "attraction", "artwork",
    "viewpoint", "castle", "monument", "memorial", "historic", "zoo", "aquarium", "theme_park", "concert_hall",
    "exhibition_centre", "ruins", "archaeological_site", "music_venue", "planetarium"]],
  worship: ["#5f6368", ["place_of_worship", "church", "chapel", "monastery", "mosque", "synagogue", "temple", "wayside_shrine"]],
  health: ["#d93025", ["pharmacy", "hospital", "clinic", "doctors", "dentist", "healthcare", "optician", "veterinary"]],
  transport: ["#4a6790", ["bus_station", "parking", "fuel", "bicycle_rental", "car_rental", "taxi", "ferry_terminal",
    "station", "car_sharing", "charging_station", "car_wash", "car_repair"]],
  money: ["#1e8e3e", ["bank", "atm", "bureau_de_change", "money_transfer"]],
  education: ["#9c5a2c", ["school", "university", "college", "kindergarten", "language_school", "music_school", "driving_school"]],
  leisure: ["#2f8f3a", ["park", "playground", "sports_centre", "fitness_centre", "pitch", "garden", "swimming_pool",
    "stadium", "golf_course", "marina", "sauna", "dog_park", "nature_reserve"]],
  shop: ["#3b6fd8", ["supermarket", "convenience", "clothes", "books", "department_store", "mall", "shoes", "jewelry",
    "gift", "florist", "electronics", "furniture", "hardware", "kiosk", "shop", "butcher", "deli", "beverages", "wine"]],
};
const SERVICE_COLOR = "#70757a";
const GROUP_OF = new Map();
Object.entries(GROUPS).forEach(([group, [, categories]]) => categories.forEach((c) => GROUP_OF.set(c, group)));

/** Which of the map's icon groups a category is in ("cafe" → "cafe", "hairdresser" → "service"); `categoryKey` the
 *  OSM key it came from, when known ("shop" files any shop under the bag). */
export function iconGroup(category, categoryKey) {
  return GROUP_OF.get(category) || (categoryKey === "shop" ? "shop" : "service");
}

/** The icon of a category: its group, disc colour and glyph path (24 units). */
export function iconFor(category, categoryKey) {
  const group = iconGroup(category, categoryKey);
  return { group, color: group === "service" ? SERVICE_COLOR : GROUPS[group][0], path: GLYPHS[group] };
}

const paths = new Map();   // group → Path2D, made once

/** Draws the icon of `category` on a canvas, a disc `size` pixels across centred at (x, y). */
export function drawIcon(ctx, category, x, y, size, categoryKey) {
  const icon = iconFor(category, categoryKey);
  if (!paths.has(icon.group)) paths.set(icon.group, new Path2D(icon.path));
  ctx.save();
  ctx.beginPath();
  ctx.arc(x, y, size / 2, 0, 2 * Math.PI);
  ctx.fillStyle = icon.color;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = "#ffffff";
  ctx.stroke();
  const scale = (size * 0.62) / 24;
  ctx.translate(x - 12 * scale, y - 12 * scale);
  ctx.scale(scale, scale);
  ctx.fillStyle = "#ffffff";
  ctx.fill(paths.get(icon.group), "evenodd");
  ctx.restore();
  return icon;
}

/** The icon of `category` as an SVG element (a pin of Near me), `size` pixels across. */
export function iconElement(category, size, categoryKey) {
  const icon = iconFor(category, categoryKey);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "-3 -3 30 30");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("category-icon");
  svg.dataset.group = icon.group;
  const disc = document.createElementNS(ns, "circle");
  Object.entries({ cx: 12, cy: 12, r: 13.5, fill: icon.color, stroke: "#ffffff", "stroke-width": 2 })
    .forEach(([k, v]) => disc.setAttribute(k, String(v)));
  const glyph = document.createElementNS(ns, "path");
  glyph.setAttribute("d", icon.path);
  glyph.setAttribute("fill", "#ffffff");
  glyph.setAttribute("fill-rule", "evenodd");
  glyph.setAttribute("transform", "translate(3.6 3.6) scale(0.7)");
  svg.append(disc, glyph);
  return svg;
}
