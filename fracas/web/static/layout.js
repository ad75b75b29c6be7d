// fracas serve: a map you can read (issue 22, item 7). Each token's label (name and HP)
// and status badges are placed where they collide with no other label, badge or token
// (below, above, then farther; badges right, then left, then stacked), kept inside the
// grid; what finds no free place is hidden (the token's title and its card say it all).
// On a phone (a coarse pointer) the map opens zoomed so a tile is at least 44 px.
import { mapView } from "./mapview.js";

export const mapLayout = (() => {
  const MIN_TOUCH = 44; // px: a touch target at the default zoom

  const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  function spotsFor(text, cx, cy, i) {
    if (text.classList.contains("label")) {
      return [[cx, cy + 25, "middle"], [cx, cy - 22, "middle"], [cx + 17, cy + 4, "start"], [cx - 17, cy + 4, "end"],
        [cx + 17, cy + 25, "start"], [cx - 17, cy + 25, "end"], [cx, cy + 36, "middle"], [cx, cy - 33, "middle"]];
    }
    const out = [];
    for (let k = 0; k < 6; k++) {
      const y = cy - 10 + (i + k) * 9;
      out.push([cx + 17, y, "start"], [cx - 17, y, "end"]);
    }
    return out;
  }

  const SHIFT = { start: 0, middle: 0.5, end: 1 }; // of its width, left of its x

  // Each text measured once (one layout for the whole map, issue 35 "speed"): where it
  // would be at any spot follows from its width, height and its offsets from its x and
  // y; each spot was set and read before, a layout each.
  function measured(text) {
    const b = text.getBBox();
    const x = Number(text.getAttribute("x")), y = Number(text.getAttribute("y"));
    const shift = SHIFT[text.getAttribute("text-anchor") || "start"] * b.width;
    return { width: b.width, height: b.height, dx: b.x - (x - shift), dy: b.y - y };
  }

  // The box of a text measured `m` at (x, y, anchor), inside the grid: a text running
  // off an edge is anchored at that edge.
  function boxAt(m, x, y, anchor, W) {
    let left = x - SHIFT[anchor] * m.width + m.dx;
    if (left < 0) { x = 1; anchor = "start"; left = 1 + m.dx; }
    else if (left + m.width > W) { x = W - 1; anchor = "end"; left = W - 1 - m.width + m.dx; }
    return { x: left, y: y + m.dy, width: m.width, height: m.height, at: [x, y, anchor] };
  }

  function place(W, H) {
    const texts = [...document.querySelectorAll("#tokens text.label, #tokens text.badge")];
    for (const text of texts) text.removeAttribute("display"); // every write, then the reads
    const taken = [...document.querySelectorAll("#tokens .disc")].map((d) => d.getBBox());
    const sizes = new Map(texts.map((text) => [text, measured(text)]));
    for (const t of document.querySelectorAll("#tokens .token")) {
      const cx = Number(t.dataset.cx), cy = Number(t.dataset.cy);
      let badge = 0;
      for (const text of t.querySelectorAll("text.label, text.badge")) {
        const i = text.classList.contains("badge") ? badge++ : 0;
        let placed = null;
        for (const [x, y, anchor] of spotsFor(text, cx, cy, i)) {
          const b = boxAt(sizes.get(text), x, y, anchor, W);
          if (b.y < 0 || b.y + b.height > H) continue;
          if (!taken.some((o) => hit(b, o))) { placed = b; break; }
        }
        if (placed) {
          taken.push(placed);
          text.setAttribute("x", placed.at[0]);
          text.setAttribute("y", placed.at[1]);
          text.setAttribute("text-anchor", placed.at[2]);
        } else text.setAttribute("display", "none");
        text.classList.toggle("crowded", !placed);
      }
    }
  }

  // The zoom that makes a tile MIN_TOUCH px on a coarse pointer (1 elsewhere).
  function touchZoom(tile) {
    if (!matchMedia("(pointer: coarse)").matches) return 1;
    const svg = document.getElementById("map");
    const box = mapView.box();
    const width = svg.getBoundingClientRect().width;
    if (!box || !width) return 1;
    const perUnit = (width / box[2]) * mapView.zoom;
    return Math.max(1, (MIN_TOUCH + 0.5) / (tile * perUnit)); // a half pixel over, for rounding
  }

  return { place, touchZoom };
})();
