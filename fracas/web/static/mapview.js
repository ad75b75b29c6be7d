// fracas serve: the map's pan and zoom (wheel, pinch, drag, the +/- buttons and keys)
// and dragging a token to a tile. Only the view: what a drop does is app.js's (an
// action the server checks like any other).
export const mapView = (() => {
  const MAX_ZOOM = 6;
  const STEP = 1.25;
  const SLOP = 5; // px a pointer moves before a press is a drag, not a click
  let full = null; // [x, y, w, h]: the whole map's viewBox
  let zoom = 1;
  let centre = null; // [x, y] in map units
  const pointers = new Map(); // pointerId -> [clientX, clientY]
  let press = null; // {id, start, centre, token, moved}
  let pinch = null; // {distance, zoom}
  let suppress = false; // the click after a drag or a pan is not a click
  const hooks = { canDrag: () => false, drop: () => {}, hover: () => {}, dragEnd: () => {} };

  const svg = () => document.getElementById("map");

  function mapPoint(clientX, clientY) {
    const p = new DOMPoint(clientX, clientY).matrixTransform(svg().getScreenCTM().inverse());
    return [p.x, p.y];
  }

  function box() {
    const [fx, fy, fw, fh] = full;
    const w = fw / zoom, h = fh / zoom;
    const cx = Math.min(Math.max(centre[0], fx + w / 2), fx + fw - w / 2);
    const cy = Math.min(Math.max(centre[1], fy + h / 2), fy + fh - h / 2);
    centre = [cx, cy];
    return [cx - w / 2, cy - h / 2, w, h];
  }

  function apply() {
    if (!full) return;
    svg().setAttribute("viewBox", box().map((v) => +v.toFixed(2)).join(" "));
    const level = document.getElementById("zoom-level");
    if (level) level.textContent = `${Math.round(zoom * 100)}%`;
    const out = document.getElementById("zoom-out");
    if (out) out.disabled = zoom <= 1;
    const inn = document.getElementById("zoom-in");
    if (inn) inn.disabled = zoom >= MAX_ZOOM;
  }

  function setFull(next) {
    const same = full && next.every((v, i) => v === full[i]);
    if (same) { apply(); return; }
    full = next;
    if (!centre || zoom === 1) centre = [next[0] + next[2] / 2, next[1] + next[3] / 2];
    apply();
  }

  // zoom by factor f keeping map point `at` (default: the centre) where it is on screen
  function zoomBy(f, at = null) {
    if (!full) return;
    const z = Math.min(MAX_ZOOM, Math.max(1, zoom * f));
    if (at) centre = [at[0] + (centre[0] - at[0]) * (zoom / z), at[1] + (centre[1] - at[1]) * (zoom / z)];
    zoom = z;
    apply();
  }

  function reset() {
    zoom = 1;
    centre = full ? [full[0] + full[2] / 2, full[1] + full[3] / 2] : null;
    apply();
  }

  function panBy(dx, dy) { centre = [centre[0] + dx, centre[1] + dy]; apply(); }

  // Show the part of the map that box ``was`` (a viewBox, as box() gives) showed, at the
  // same scale, after the map grew or shrank: the range rings make it bigger, and the
  // tiles keep their size (pan to the rings past them, or Fit to see them whole),
  // never shrinking every tile (issue 35).
  function keep(was) {
    if (!full || !was) { reset(); return; }
    zoom = Math.min(MAX_ZOOM, Math.max(1, Math.min(full[2] / was[2], full[3] / was[3])));
    centre = [was[0] + was[2] / 2, was[1] + was[3] / 2];
    apply();
  }

  function unitsPerPixel() {
    const rect = svg().getBoundingClientRect();
    return rect.width ? box()[2] / rect.width : 1;
  }

  function spread() {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  }

  function down(e) {
    if (e.button !== undefined && e.button !== 0) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      pinch = { distance: spread(), zoom };
      press = null;
      return;
    }
    const token = e.target.closest && e.target.closest(".token");
    const cid = token && token.dataset.id;
    press = { id: e.pointerId, start: [e.clientX, e.clientY], centre: [...centre], token: cid && hooks.canDrag(cid) ? token : null, moved: false };
  }

  function move(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const mid = mapPoint((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      zoomBy((pinch.zoom * spread()) / pinch.distance / zoom, mid);
      suppress = true;
      return;
    }
    if (!press || press.id !== e.pointerId) return;
    const dx = e.clientX - press.start[0], dy = e.clientY - press.start[1];
    if (!press.moved && Math.hypot(dx, dy) < SLOP) return;
    if (!press.moved) {
      press.moved = true;
      svg().setPointerCapture(e.pointerId);
    }
    const k = unitsPerPixel();
    if (press.token) {
      press.token.setAttribute("transform", `translate(${dx * k} ${dy * k})`);
      press.token.classList.add("dragging");
      hooks.hover(e, press.token.dataset.id); // the token dragged: its move's cost (app.js)
    } else if (zoom > 1) {
      centre = [press.centre[0] - dx * k, press.centre[1] - dy * k];
      apply();
    }
  }

  function up(e) {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!press || press.id !== e.pointerId) return;
    const done = press;
    press = null;
    if (!done.moved) return;
    suppress = true;
    if (done.token) {
      done.token.removeAttribute("transform");
      done.token.classList.remove("dragging");
      if (e.type === "pointerup") hooks.drop(done.token.dataset.id, e);
      hooks.dragEnd();
    }
  }

  function wheel(e) {
    const f = e.deltaY < 0 ? STEP : 1 / STEP;
    if (f < 1 && zoom <= 1) return; // zoomed out already: the page scrolls
    e.preventDefault();
    zoomBy(f, mapPoint(e.clientX, e.clientY));
  }

  function attach(given) {
    Object.assign(hooks, given);
    const s = svg();
    s.addEventListener("pointerdown", down);
    s.addEventListener("pointermove", move);
    s.addEventListener("pointerup", up);
    s.addEventListener("pointercancel", up);
    s.addEventListener("wheel", wheel, { passive: false });
    s.addEventListener("click", (e) => {
      if (suppress) { suppress = false; e.stopPropagation(); e.preventDefault(); }
    }, true);
    document.getElementById("zoom-in").addEventListener("click", () => zoomBy(STEP));
    document.getElementById("zoom-out").addEventListener("click", () => zoomBy(1 / STEP));
    document.getElementById("zoom-reset").addEventListener("click", reset);
  }

  return { attach, setFull, keep, zoomBy, reset, panBy, STEP, get zoom() { return zoom; }, box: () => (full ? box() : null) };
})();
