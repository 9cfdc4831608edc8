"""Reading the offline map in the browser tests: moving the view and waiting until everything of it is drawn (the
coastlines, the street tiles, the names), how much of the street layer is painted, which names and venues were
placed, and /v1/streetmap read directly for comparison."""
import urllib.parse

from app import js, wait_idle_map
from conftest import wait

HELSINKI = (60.1700, 24.9443)       # the middle of the shipped central Helsinki extract
VADUZ = (47.1410, 9.5215)
PARIS = (48.8566, 2.3522)


def drawn(driver, zoom, timeout=30):
    """Waits until the view at `zoom` is drawn whole: coastlines, street tiles, place names, street names."""
    wait_idle_map(driver)
    wait(driver, lambda d: js(d, "return pindrop.basemap.current && pindrop.streetMap.ready()"), timeout=timeout,
         message="the map at zoom %d was not drawn" % zoom)
    wait(driver, lambda d: js(d, "return pindrop.labelsDrawnZoom()") == zoom, timeout=timeout,
         message="no place names at zoom %d" % zoom)
    wait(driver, lambda d: js(d, """const s = pindrop.streetLabels.drawn, c = pindrop.map.getCenter();
        return s && s.zoom === pindrop.map.getZoom() && Math.abs(s.center[0] - c.lat) < 1e-9
            && Math.abs(s.center[1] - c.lng) < 1e-9 && pindrop.streetMap.ready();"""), timeout=timeout,
         message="the street names at zoom %d were not drawn" % zoom)


def show(driver, centre, zoom):
    """Moves the map to `centre` at `zoom` and waits until it is drawn."""
    js(driver, "pindrop.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false})", centre[0], centre[1], zoom)
    drawn(driver, zoom)


def painted(driver):
    """The share of the street layer's visible pixels that are painted (its tiles are transparent where nothing is)."""
    return js(driver, """const box = pindrop.map.getContainer().getBoundingClientRect(); let on = 0, all = 0;
        for (const c of document.querySelectorAll('.leaflet-streets-pane canvas.leaflet-tile-loaded')) {
            const r = c.getBoundingClientRect();
            if (r.right <= box.left || r.left >= box.right || r.bottom <= box.top || r.top >= box.bottom) continue;
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, step = c.width / r.width;
            for (let y = 0; y < c.height; y += 7 * step) for (let x = 0; x < c.width; x += 7 * step) {
                const sx = r.left + x / step, sy = r.top + y / step;
                if (sx < box.left || sx >= box.right || sy < box.top || sy >= box.bottom) continue;
                all++; if (d[(Math.floor(y) * c.width + Math.floor(x)) * 4 + 3] > 0) on++;
            }
        }
        return all ? on / all : 0;""")


def view_box(driver):
    return js(driver, "const b = pindrop.map.getBounds(); return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];")


def api_features(server, box, zoom):
    """What /v1/streetmap answers for a box at a zoom, cut into boxes the server takes (at most 0.1° a side)."""
    west, south, east, north = box
    features, seen = [], set()
    x = west
    while x < east:
        y = south
        while y < north:
            part = [x, y, min(east, x + 0.09), min(north, y + 0.09)]
            path = "/v1/streetmap?limit=20000&zoom=%d&bbox=%s" % (zoom, urllib.parse.quote(",".join("%.6f" % v for v in part)))
            for f in server.api("GET", path)[1]["features"]:
                key = (f["properties"]["kind"], f["id"])
                if key not in seen:
                    seen.add(key)
                    features.append(f)
            y += 0.09
        x += 0.09
    return features


def on_screen_points(driver, positions):
    """Which [lon, lat] positions lie in the map's view at least `margin` pixels inside its edges."""
    return js(driver, """const size = pindrop.map.getSize();
        return arguments[0].map(p => { const q = pindrop.map.latLngToContainerPoint([p[1], p[0]]);
            return q.x > 30 && q.y > 30 && q.x < size.x - 30 && q.y < size.y - 30; });""", positions)


def street_names_in_view(driver, server, zoom):
    """The names of the named streets with a stretch inside the view (at least 120 pixels of it, room for a name)."""
    features = [f for f in api_features(server, view_box(driver), zoom)
                if f["properties"]["kind"] == "street" and f["properties"].get("name")]
    lengths = js(driver, """const size = pindrop.map.getSize(), inside = (p) => p.x >= 0 && p.y >= 0 && p.x <= size.x && p.y <= size.y;
        return arguments[0].map(f => { const g = f.geometry, lines = g.type === 'LineString' ? [g.coordinates] : g.coordinates;
            let n = 0; for (const line of lines) for (let i = 1; i < line.length; i++) {
                const a = pindrop.map.latLngToContainerPoint([line[i - 1][1], line[i - 1][0]]);
                const b = pindrop.map.latLngToContainerPoint([line[i][1], line[i][0]]);
                if (inside(a) && inside(b)) n += Math.hypot(a.x - b.x, a.y - b.y); }
            return n; });""", features)
    by_name = {}
    for feature, length in zip(features, lengths):
        name = feature["properties"]["name"]
        by_name[name] = by_name.get(name, 0) + length
    return {name for name, length in by_name.items() if length >= 120}
