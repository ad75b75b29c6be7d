// Built by tools/bundle.py (esbuild 0.28.2) from app.js and the panels it imports: do not edit; edit the modules and run `.venv/bin/python tools/bundle.py`.

// fracas/web/static/app.js
import { $ as $7, el as el7, keepFocus as keepFocus2 } from "./dom.js";
import {
  TILE,
  token as token2,
  store as store7,
  link,
  connect,
  send as send9,
  changes,
  RETRIES,
  notice as notice3,
  name as name5,
  hpText as hpText3,
  title as title3,
  words,
  valueWords,
  api,
  placed as placed2,
  findOption,
  actionFor as actionFor3,
  aiming as aiming2,
  playerMove as playerMove2
} from "./state.js";

// fracas/web/static/sides.js
var SIDE_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];
var SIDE_INKS = ["#fff", "#000", "#000", "#000", "#000", "#000"];
var sides = [];
function sideColour(side) {
  if (!sides.includes(side)) sides.push(side);
  return SIDE_COLOURS[sides.indexOf(side) % SIDE_COLOURS.length];
}
function sideInk(side) {
  sideColour(side);
  return SIDE_INKS[sides.indexOf(side) % SIDE_INKS.length];
}

// fracas/web/static/mapview.js
var mapView = /* @__PURE__ */ (() => {
  const MAX_ZOOM = 6;
  const STEP = 1.25;
  const SLOP = 5;
  let full = null;
  let zoom = 1;
  let centre = null;
  const pointers = /* @__PURE__ */ new Map();
  let press = null;
  let pinch = null;
  let suppress = false;
  const hooks = { canDrag: () => false, drop: () => {
  }, hover: () => {
  }, dragEnd: () => {
  } };
  const svg = () => document.getElementById("map");
  function mapPoint(clientX, clientY) {
    const p = new DOMPoint(clientX, clientY).matrixTransform(svg().getScreenCTM().inverse());
    return [p.x, p.y];
  }
  function box3() {
    const [fx, fy, fw, fh] = full;
    const w = fw / zoom, h = fh / zoom;
    const cx = Math.min(Math.max(centre[0], fx + w / 2), fx + fw - w / 2);
    const cy = Math.min(Math.max(centre[1], fy + h / 2), fy + fh - h / 2);
    centre = [cx, cy];
    return [cx - w / 2, cy - h / 2, w, h];
  }
  function apply() {
    if (!full) return;
    svg().setAttribute("viewBox", box3().map((v) => +v.toFixed(2)).join(" "));
    const level = document.getElementById("zoom-level");
    if (level) level.textContent = `${Math.round(zoom * 100)}%`;
    const out = document.getElementById("zoom-out");
    if (out) out.disabled = zoom <= 1;
    const inn = document.getElementById("zoom-in");
    if (inn) inn.disabled = zoom >= MAX_ZOOM;
  }
  function setFull(next) {
    const same = full && next.every((v, i) => v === full[i]);
    if (same) {
      apply();
      return;
    }
    full = next;
    if (!centre || zoom === 1) centre = [next[0] + next[2] / 2, next[1] + next[3] / 2];
    apply();
  }
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
  function panBy(dx, dy) {
    centre = [centre[0] + dx, centre[1] + dy];
    apply();
  }
  function keep(was) {
    if (!full || !was) {
      reset();
      return;
    }
    zoom = Math.min(MAX_ZOOM, Math.max(1, Math.min(full[2] / was[2], full[3] / was[3])));
    centre = [was[0] + was[2] / 2, was[1] + was[3] / 2];
    apply();
  }
  function unitsPerPixel() {
    const rect = svg().getBoundingClientRect();
    return rect.width ? box3()[2] / rect.width : 1;
  }
  function spread() {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  }
  function down(e) {
    if (e.button !== void 0 && e.button !== 0) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      pinch = { distance: spread(), zoom };
      press = null;
      return;
    }
    const token3 = e.target.closest && e.target.closest(".token");
    const cid = token3 && token3.dataset.id;
    press = { id: e.pointerId, start: [e.clientX, e.clientY], centre: [...centre], token: cid && hooks.canDrag(cid) ? token3 : null, moved: false };
  }
  function move(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const mid = mapPoint((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      zoomBy(pinch.zoom * spread() / pinch.distance / zoom, mid);
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
      hooks.hover(e, press.token.dataset.id);
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
    if (f < 1 && zoom <= 1) return;
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
      if (suppress) {
        suppress = false;
        e.stopPropagation();
        e.preventDefault();
      }
    }, true);
    document.getElementById("zoom-in").addEventListener("click", () => zoomBy(STEP));
    document.getElementById("zoom-out").addEventListener("click", () => zoomBy(1 / STEP));
    document.getElementById("zoom-reset").addEventListener("click", reset);
  }
  return { attach, setFull, keep, zoomBy, reset, panBy, STEP, get zoom() {
    return zoom;
  }, box: () => full ? box3() : null };
})();

// fracas/web/static/layout.js
var mapLayout = /* @__PURE__ */ (() => {
  const MIN_TOUCH = 44;
  const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  function spotsFor(text, cx, cy, i) {
    if (text.classList.contains("label")) {
      return [
        [cx, cy + 25, "middle"],
        [cx, cy - 22, "middle"],
        [cx + 17, cy + 4, "start"],
        [cx - 17, cy + 4, "end"],
        [cx + 17, cy + 25, "start"],
        [cx - 17, cy + 25, "end"],
        [cx, cy + 36, "middle"],
        [cx, cy - 33, "middle"]
      ];
    }
    const out = [];
    for (let k = 0; k < 6; k++) {
      const y = cy - 10 + (i + k) * 9;
      out.push([cx + 17, y, "start"], [cx - 17, y, "end"]);
    }
    return out;
  }
  const SHIFT = { start: 0, middle: 0.5, end: 1 };
  function measured(text) {
    const b = text.getBBox();
    const x = Number(text.getAttribute("x")), y = Number(text.getAttribute("y"));
    const shift = SHIFT[text.getAttribute("text-anchor") || "start"] * b.width;
    return { width: b.width, height: b.height, dx: b.x - (x - shift), dy: b.y - y };
  }
  function boxAt(m, x, y, anchor, W) {
    let left = x - SHIFT[anchor] * m.width + m.dx;
    if (left < 0) {
      x = 1;
      anchor = "start";
      left = 1 + m.dx;
    } else if (left + m.width > W) {
      x = W - 1;
      anchor = "end";
      left = W - 1 - m.width + m.dx;
    }
    return { x: left, y: y + m.dy, width: m.width, height: m.height, at: [x, y, anchor] };
  }
  function place(W, H) {
    const texts = [...document.querySelectorAll("#tokens text.label, #tokens text.badge")];
    for (const text of texts) text.removeAttribute("display");
    const taken = [...document.querySelectorAll("#tokens .disc")].map((d) => d.getBBox());
    const sizes = new Map(texts.map((text) => [text, measured(text)]));
    for (const t of document.querySelectorAll("#tokens .token")) {
      const cx = Number(t.dataset.cx), cy = Number(t.dataset.cy);
      let badge = 0;
      for (const text of t.querySelectorAll("text.label, text.badge")) {
        const i = text.classList.contains("badge") ? badge++ : 0;
        let placed3 = null;
        for (const [x, y, anchor] of spotsFor(text, cx, cy, i)) {
          const b = boxAt(sizes.get(text), x, y, anchor, W);
          if (b.y < 0 || b.y + b.height > H) continue;
          if (!taken.some((o) => hit(b, o))) {
            placed3 = b;
            break;
          }
        }
        if (placed3) {
          taken.push(placed3);
          text.setAttribute("x", placed3.at[0]);
          text.setAttribute("y", placed3.at[1]);
          text.setAttribute("text-anchor", placed3.at[2]);
        } else text.setAttribute("display", "none");
        text.classList.toggle("crowded", !placed3);
      }
    }
  }
  function touchZoom(tile) {
    if (!matchMedia("(pointer: coarse)").matches) return 1;
    const svg = document.getElementById("map");
    const box3 = mapView.box();
    const width = svg.getBoundingClientRect().width;
    if (!box3 || !width) return 1;
    const perUnit = width / box3[2] * mapView.zoom;
    return Math.max(1, (MIN_TOUCH + 0.5) / (tile * perUnit));
  }
  return { place, touchZoom };
})();

// fracas/web/static/odds.js
import { $ as $2, el } from "./dom.js";
import { store as store2, send as send2, name as name2, title as title2, actionFor as actionFor2, aiming, severalAction as severalAction2 } from "./state.js";

// fracas/web/static/preview.js
import { $ } from "./dom.js";
import { store, send, name, title, actionFor, severalAction } from "./state.js";
var touching = false;
var preview = null;
document.addEventListener("pointerdown", (e) => {
  touching = e.pointerType === "touch";
}, true);
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" || e.key === " ") touching = false;
}, true);
function pick(what) {
  if (!store.chosen) return;
  if (touching) openPreview(what);
  else commit(what);
}
function actionOf(what) {
  if (what.several) return severalAction();
  if (what.at) return actionFor(null, what.at);
  return actionFor(what.target);
}
function pickWords(what) {
  const { chosen } = store;
  if (what.several) return `${title(chosen.do)} ${chosen.several.map(name).join(", ")}`;
  if (what.at) return `${title(chosen.do)} at ${what.at[0]}, ${what.at[1]}`;
  return `${title(chosen.do)} ${name(what.target)}`;
}
function commit(what) {
  const { chosen } = store;
  if (!chosen) return;
  const action = actionOf(what);
  closePreview();
  chosen.sent = send({ type: "act", action });
}
function openPreview(what) {
  preview = { what };
  $("confirm-go").textContent = `Confirm: ${pickWords(what)}`;
  $("confirm-box").hidden = false;
  askPreview();
  $("confirm-box").scrollIntoView({ block: "nearest" });
}
function askPreview() {
  if (!preview || !store.chosen) return;
  const w = preview.what;
  if (w.several) askSeveralOdds();
  else if (w.at) {
    stopTileOdds();
    ask(actionOf(w), pickWords(w).toLowerCase(), (odds) => showBlastOdds(odds, w.at));
  } else askOdds(w.target);
}
function closePreview() {
  preview = null;
  const box3 = $("confirm-box");
  if (box3) box3.hidden = true;
}
function paramsChanged() {
  if (preview) askPreview();
  else hideOdds();
}
function leaveOdds() {
  if (!preview) hideOdds();
}
function follow() {
  const { chosen } = store;
  if (!preview) return;
  const w = preview.what;
  const gone = !chosen || w.target !== void 0 && !(chosen.option.targets || []).includes(w.target);
  if (gone) {
    hideOdds();
    return;
  }
  forgetAsked();
  askPreview();
}
function setup() {
  $("confirm-go").addEventListener("click", () => {
    if (preview) commit(preview.what);
  });
  $("confirm-cancel").addEventListener("click", () => hideOdds());
}

// fracas/web/static/odds.js
var asked = null;
var oddsCache = /* @__PURE__ */ new Map();
var askedKeys = /* @__PURE__ */ new Map();
function answered(action, show2) {
  const key = JSON.stringify(action);
  const at = `${store2.seq}|${key}`;
  if (asked && asked.at === at) return true;
  const cached = oddsCache.get(at);
  if (!cached) return false;
  asked = { id: null, at, show: show2 };
  show2(cached);
  return true;
}
function ask(action, what, show2) {
  if (answered(action, show2)) return;
  const key = JSON.stringify(action);
  const box3 = $2("odds");
  box3.hidden = false;
  box3.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), el("span", {}, ` working out the odds of ${what}…`));
  asked = { id: send2({ type: "odds", action }), at: `${store2.seq}|${key}`, show: show2 };
  askedKeys.set(asked.id, key);
}
function askOdds(t) {
  const { chosen } = store2;
  if (!chosen || !chosen.option.targets || !chosen.option.targets.includes(t)) return;
  ask(actionFor2(t), `${title2(chosen.do)} ${name2(t)}`, (odds) => showOdds(odds, t));
}
var tileTimer = null;
function askTileOdds(tile) {
  clearTimeout(tileTimer);
  if (!aiming() || !tile) return;
  const action = actionFor2(null, tile);
  const show2 = (odds) => showBlastOdds(odds, tile);
  if (answered(action, show2)) return;
  const what = `${title2(store2.chosen.do).toLowerCase()} at ${tile[0]}, ${tile[1]}`;
  tileTimer = setTimeout(() => {
    if (aiming()) ask(action, what, show2);
  }, 120);
}
function askSeveralOdds() {
  const { chosen } = store2;
  if (!chosen || !chosen.several || chosen.several.length < 2) return;
  const several = [...chosen.several];
  const heading = `${title2(chosen.do)} ${several.map(name2).join(", ")}`;
  ask(severalAction2(), heading, (odds) => showEachOdds(odds, heading, several));
}
function showBlastOdds(odds, tile) {
  const { chosen } = store2;
  showEachOdds(odds, `${title2(chosen ? chosen.do : "")} at ${tile[0]}, ${tile[1]}`);
}
function showEachOdds(odds, heading, order = []) {
  const box3 = $2("odds");
  box3.hidden = false;
  box3.replaceChildren(el("strong", {}, `${heading}: ${oddsKind(odds)}`), ...costLines(odds.costs));
  const listed = order.filter((cid) => cid in odds.combatants);
  const ids = [...listed, ...Object.keys(odds.combatants).filter((cid) => !listed.includes(cid))];
  if (!ids.length) {
    box3.append(el("p", {}, "no creature it may reach"));
    return;
  }
  for (const cid of ids) {
    const block = el("div", { class: "blast-odds", "data-id": cid });
    block.append(el("strong", {}, name2(cid)));
    oddsBody(block, odds.combatants[cid], exactOf(odds, cid));
    box3.append(block);
  }
  box3.append(el("p", { class: "small" }, oddsFoot(odds)));
}
function pct(p) {
  return `${(100 * p).toFixed(1)}%`;
}
function costLines(costs) {
  return (costs || []).map((c) => {
    const owed = c.owed ? `, ${c.owed} owed from the next turn` : "";
    const said2 = c.uses ? `Uses ${c.spent} ${c.what} (${name2(c.actor)}: ${c.before} → ${c.after} left)` : `Costs ${c.spent} ${c.what} (${name2(c.actor)}: ${c.before} → ${c.after} ${c.what}${owed})`;
    return el("p", { class: "cost-line" }, said2);
  });
}
function oddsKind(odds) {
  return odds.estimate ? "estimated odds" : "exact odds";
}
function oddsFoot(odds) {
  if (!odds.estimate) return `${odds.paths} dice paths, exact`;
  const samples = `an estimate from ${odds.estimate.samples.toLocaleString("en")} seeded samples`;
  return odds.estimate.cut_by_time ? `${samples}, cut short by the time limit` : `${samples}: too many dice paths to count exactly`;
}
function showOdds(odds, t) {
  const { chosen } = store2;
  const box3 = $2("odds");
  box3.hidden = false;
  box3.replaceChildren();
  const o = odds.combatants[t];
  box3.append(el("strong", {}, `${title2(chosen ? chosen.do : "")} ${name2(t)}: ${oddsKind(odds)}`));
  box3.append(...costLines(odds.costs));
  if (!o) {
    box3.append(el("p", {}, "it cannot affect them"));
    return;
  }
  oddsBody(box3, o, exactOf(odds, t));
  const actor = chosen ? chosen.actor : null;
  const others = Object.keys(odds.combatants).filter((cid) => cid !== t && risky(odds.combatants[cid]));
  others.sort((a, b) => (b === actor) - (a === actor));
  for (const cid of others) {
    const block = el("div", { class: "blast-odds", "data-id": cid });
    block.append(el("strong", {}, cid === actor ? `${name2(cid)}'s own risk` : name2(cid)));
    oddsBody(block, odds.combatants[cid], exactOf(odds, cid));
    box3.append(block);
  }
  box3.append(el("p", { class: "small" }, oddsFoot(odds)));
}
function exactOf(odds, cid) {
  return odds.exact && odds.exact.combatants && odds.exact.combatants[cid] || null;
}
function risky(o) {
  return Boolean(o && (o.hit || o.mean > 0));
}
var BUCKETS = 16;
function oddsBody(box3, o, exact = null) {
  const parts = [];
  if (o.hit !== null) parts.push(`hit ${pct(o.hit)}`);
  parts.push(`mean damage ${o.mean.toFixed(2)}`);
  if (o.down !== void 0) parts.push(`down ${pct(o.down)}`);
  box3.append(el("p", { class: "odds-line" }, parts.join(" · ")));
  const buckets = damageBuckets(o.damage, exact && exact.damage);
  const top = Math.max(...buckets.map((b) => b.p));
  const bars = el("div", { class: "bars", "aria-hidden": "true" });
  const labels = el("div", { class: "bars-labels", "aria-hidden": "true" });
  for (const b of buckets) {
    const bar = el("span");
    bar.style.height = `${Math.max(1, Math.round(40 * b.p / top))}px`;
    bars.append(bar);
    labels.append(el("span", {}, b.label));
  }
  const list = el("ul", { class: "dist", "aria-label": "damage, each value's chance" });
  for (const b of buckets) list.append(el("li", {}, `${b.label}: ${pct(b.p)}`));
  box3.append(bars, labels, list);
  if (exact) box3.append(exactFigures(o, exact, buckets));
}
function exactFigures(o, exact, buckets) {
  const box3 = el("details", { class: "exact small" });
  box3.append(el("summary", {}, "Exact figures"));
  const list = el("ul", { class: "exact-figures" });
  if (o.hit !== null && exact.hit) list.append(el("li", {}, `hit: ${fractionWords(exact.hit)}`));
  if (exact.mean) list.append(el("li", {}, `mean damage: ${fractionWords(exact.mean)}`));
  if (o.down !== void 0 && exact.down) list.append(el("li", {}, `down: ${fractionWords(exact.down)}`));
  for (const b of buckets) if (b.exact) list.append(el("li", { "data-label": b.label }, `${b.label}: ${fractionWords(b.exact)}`));
  box3.append(list);
  return box3;
}
var FRACTION_DIGITS = 12;
function fractionWords(f) {
  const [a, b] = String(f).split("/");
  if (b === void 0 || a.replace("-", "").length + b.length <= FRACTION_DIGITS) return String(f);
  let n = BigInt(a);
  const d = BigInt(b);
  const sign = n < 0n ? "-" : "";
  if (n < 0n) n = -n;
  const scaled = (n * 2000000n + d) / (2n * d);
  const whole = scaled / 1000000n;
  const frac = String(scaled % 1000000n).padStart(6, "0");
  return `≈ ${sign}${whole}.${frac}`;
}
function damageBuckets(damage, exact) {
  const all = Object.entries(damage).map(([d, p]) => [Number(d), p]).sort((a, b) => a[0] - b[0]);
  const keep = all.length > BUCKETS ? all.slice(0, BUCKETS - 1) : all;
  const out = keep.map(([d, p]) => ({ label: String(d), p, exact: exact ? exact[String(d)] : null }));
  if (all.length > keep.length) {
    const rest = all.slice(keep.length);
    const mass = exact ? rest.map(([d]) => exact[String(d)]).reduce(addFractions, "0/1") : null;
    out.push({ label: `≥ ${rest[0][0]}`, p: rest.reduce((s, [, p]) => s + p, 0), exact: mass, tail: true });
  }
  return out;
}
function addFractions(x, y) {
  const [a, b] = x.split("/").map(BigInt), [c, d] = (y || "0/1").split("/").map(BigInt);
  let [n, m] = [a * d + c * b, b * d];
  const gcd = (u, v) => v === 0n ? u < 0n ? -u : u : gcd(v, u % v);
  const g = gcd(n, m) || 1n;
  [n, m] = [n / g, m / g];
  return `${n}/${m}`;
}
function hideOdds() {
  clearTimeout(tileTimer);
  closePreview();
  asked = null;
  $2("odds").hidden = true;
}
function stopTileOdds() {
  clearTimeout(tileTimer);
}
function forgetAsked() {
  asked = null;
}
function heardOdds(m) {
  const key = askedKeys.get(m.id);
  askedKeys.delete(m.id);
  if (key) oddsCache.set(`${m.seq}|${key}`, m.odds);
  if (asked && m.id === asked.id) asked.show(m.odds);
}
function refusedOdds(id) {
  if (asked && id === asked.id) hideOdds();
}

// fracas/web/static/movecost.js
import { store as store3, send as send3, placed, playerMove } from "./state.js";
var moveCosts = /* @__PURE__ */ (() => {
  const known = /* @__PURE__ */ new Map();
  let asked3 = null;
  let wanted = null;
  const keyOf = (actor, tile) => `${store3.seq}|${actor}|${tile[0]},${tile[1]}`;
  function ask2(actor, tile) {
    const key = keyOf(actor, tile);
    if (known.has(key)) return;
    if (asked3) {
      wanted = [actor, tile];
      return;
    }
    const id = send3({ type: "cost", action: { actor, do: "move", to: tile } });
    if (id !== null) asked3 = { id, key };
  }
  function next() {
    asked3 = null;
    const w = wanted;
    wanted = null;
    if (w) ask2(...w);
  }
  function heard2(m) {
    const c = m.cost;
    known.set(`${m.seq}|${c.actor}|${c.to[0]},${c.to[1]}`, c);
    if (asked3 && asked3.id === m.id) next();
    showTile();
  }
  function refused2(m) {
    if (!asked3 || asked3.id !== m.id) return false;
    known.set(asked3.key, { allowed: false, own: true, code: m.code, message: m.words || m.message, words: [], free: false });
    next();
    showTile();
    return true;
  }
  function asks2(cid) {
    const { state } = store3;
    if (!state || !placed(cid)) return false;
    return state.you.role === "gm" ? cid === state.turn : Boolean(playerMove(cid));
  }
  function line(actor, tile) {
    const c = placed(actor);
    if (!c || !asks2(actor) || c.at[0] === tile[0] && c.at[1] === tile[1]) return null;
    const cost = known.get(keyOf(actor, tile));
    if (!cost) {
      ask2(actor, tile);
      return { text: ` · moving ${c.name}: asking the table what it costs`, refused: false };
    }
    if (!cost.own) return { text: " · the game master's move: free", refused: false };
    const pays = cost.words.length ? cost.words.join("; ") : "no cost";
    if (cost.allowed) {
      return { text: ` · move ${c.name} here: ${pays}` + (cost.free ? " (its own move; your drop puts it here free)" : ""), refused: false };
    }
    return { text: ` · ${c.name} cannot move here: ${cost.refusal_words || cost.message}` + // people's words, no code
    (cost.free ? "; your drop puts it here anyway (the game master's move)" : ""), refused: true };
  }
  return { heard: heard2, refused: refused2, line };
})();

// fracas/web/static/winbar.js
import { el as el2 } from "./dom.js";
import { send as send4 } from "./state.js";
var players = false;
var colour = sideColour;
function pct2(p) {
  return `${(100 * p).toFixed(1)}%`;
}
function said(p, certain) {
  if (certain && p >= 1) return "100%";
  if (certain && p <= 0) return "0%";
  const text = pct2(p);
  if (text === "100.0%") return ">99.9%";
  if (text === "0.0%") return "<0.1%";
  return text;
}
function fights(n) {
  return `${n.toLocaleString("en")} simulated ${n === 1 ? "fight" : "fights"}`;
}
function working(section, strip, how, bar, record) {
  const n = bar.fights || 0;
  section.dataset.method = "working";
  section.classList.add("estimate", "working");
  const so = `${n.toLocaleString("en")} ${n === 1 ? "fight" : "fights"}`;
  let text;
  if (n === 0) {
    text = `Working it out: no fight finished yet (after record ${record}).`;
  } else if (bar.final) {
    text = `Too close to call: ${so} played out (after record ${record}), not enough to give a chance within 10 points either way.`;
  } else {
    text = `Working it out: ${so} so far (after record ${record}). A chance is shown once it is known to within 10 points either way.`;
  }
  how.textContent = text;
  strip.setAttribute("aria-label", n === 0 ? "win chance: being worked out" : `win chance: being worked out, ${so} so far`);
}
function box() {
  let section = document.getElementById("winbar-box");
  if (section) return section;
  section = el2("section", { id: "winbar-box", "aria-labelledby": "winbar-h" });
  section.hidden = true;
  section.append(
    el2("h2", { id: "winbar-h" }, "Win chance"),
    el2("div", { class: "bar", id: "winbar", role: "img" }),
    el2("ul", { id: "winbar-sides", "aria-live": "polite" }),
    el2("p", { class: "how", id: "winbar-how" })
  );
  const toggle = el2("button", { type: "button", id: "winbar-players", "aria-pressed": "false" }, "Show the win bar to players");
  toggle.hidden = true;
  toggle.addEventListener("click", () => {
    send4({ type: "winbar", players: !players });
  });
  const why = el2("p", { class: "small", id: "winbar-withheld", role: "status" });
  why.hidden = true;
  toggle.setAttribute("aria-describedby", "winbar-withheld");
  section.append(toggle, why);
  const order = document.getElementById("order-box");
  if (order) order.before(section);
  else document.querySelector("main").append(section);
  return section;
}
function draw(m) {
  const section = box();
  players = m.players;
  const toggle = document.getElementById("winbar-players");
  toggle.hidden = !m.gm;
  toggle.setAttribute("aria-pressed", String(players));
  toggle.textContent = players ? "Hide the win bar from players" : "Show the win bar to players";
  const why = document.getElementById("winbar-withheld");
  why.textContent = m.withheld || "";
  why.hidden = !m.gm || !m.withheld;
  if (!m.bar) {
    section.hidden = !m.gm;
    if (!m.gm) return;
  }
  section.hidden = false;
  const bar = m.bar;
  const strip = document.getElementById("winbar");
  const list = document.getElementById("winbar-sides");
  const how = document.getElementById("winbar-how");
  strip.replaceChildren();
  list.replaceChildren();
  if (!bar) {
    how.textContent = "working it out…";
    return;
  }
  const record = m.seq - 1;
  const estimate = bar.method === "estimate";
  const bare = estimate && (bar.draw_ci95 == null || Object.values(bar.sides).some((s) => !s.ci95));
  if (bar.method === "working" || bare) {
    working(section, strip, how, bar, record);
    return;
  }
  section.classList.remove("working");
  section.dataset.method = bar.method;
  section.classList.toggle("estimate", estimate);
  const words2 = [];
  for (const [side, s] of Object.entries(bar.sides)) {
    const seg = el2("span", { "data-side": side });
    seg.style.width = pct2(s.win);
    seg.style.background = colour(side);
    strip.append(seg);
    const ci = s.ci95 ? ` (95%: ${said(s.ci95[0])}–${said(s.ci95[1])})` : "";
    const line = `${side}: ${estimate ? "about " : ""}${said(s.win, s.certain)}${ci}`;
    const li = el2("li", { "data-side": side });
    const sw = el2("span", { class: "swatch", "aria-hidden": "true" });
    sw.style.background = colour(side);
    li.append(sw, document.createTextNode(line));
    list.append(li);
    words2.push(line);
  }
  if (bar.draw > 0) {
    const seg = el2("span", { class: "draw" });
    seg.style.width = pct2(bar.draw);
    strip.append(seg);
    const ci = estimate ? ` (95%: ${said(bar.draw_ci95[0])}–${said(bar.draw_ci95[1])})` : "";
    const line = `draw: ${estimate ? "about " : ""}${said(bar.draw, bar.draw_certain)}${ci}`;
    list.append(el2("li", { "data-side": "" }, line));
    words2.push(line);
  }
  const kind = { exact: "exact", float: "solved in floating point", estimate: "an estimate" }[bar.method];
  strip.setAttribute("aria-label", `win chance, ${kind}: ${words2.join("; ")}`);
  const states = `${bar.states.toLocaleString("en")} ${bar.states === 1 ? "state" : "states"} of the fight, the lab's tactics`;
  let text;
  if (bar.method === "exact") {
    text = `Exact (${states}), after record ${record}.`;
  } else if (bar.method === "float") {
    text = `Solved in floating point (${states}; largest residual ${Number(bar.residual).toExponential(0)}), after record ${record}.`;
  } else {
    text = `An estimate from ${fights(bar.fights)} (the lab's tactics), after record ${record}` + (bar.final ? "." : bar.growing ? `; refining, the fight's chain at ${bar.growing.toLocaleString("en")} ${bar.growing === 1 ? "state" : "states"}…` : "; refining…");
  }
  how.textContent = text + (bar.idle && bar.idle.length ? ` ${bar.idle.join(", ")} only ${bar.idle.length === 1 ? "ends its turn" : "end their turns"} here: nothing in reach, and it does not walk (approach: false, or the table's move: 0).` : "");
}

// fracas/web/static/advisor.js
import { el as el3 } from "./dom.js";
import { store as store4, send as send5 } from "./state.js";
var asked2 = null;
function box2() {
  let section = document.getElementById("advisor-box");
  if (section) return section;
  section = el3("section", { id: "advisor-box", "aria-labelledby": "advisor-h" });
  section.hidden = true;
  const button2 = el3("button", { type: "button", id: "advisor-suggest" }, "Suggest");
  button2.addEventListener("click", () => {
    const id = send5({ type: "advise" });
    if (id === null) return;
    asked2 = { id, seq: store4.seq };
    document.getElementById("advisor-how").textContent = "Working out every choice…";
    document.getElementById("advisor-list").replaceChildren();
  });
  section.append(
    el3("h2", { id: "advisor-h" }, "Advisor"),
    button2,
    el3("p", { class: "how", id: "advisor-how", "aria-live": "polite" }),
    el3("ol", { id: "advisor-list" })
  );
  const bar = document.getElementById("winbar-box") || document.getElementById("order-box");
  if (bar) bar.after(section);
  else document.querySelector("main").append(section);
  return section;
}
function pct3(p) {
  const text = `${(100 * p).toFixed(1)}%`;
  if (text === "0.0%" && p > 0) return "<0.1%";
  if (text === "100.0%" && p < 1) return ">99.9%";
  return text;
}
function named(cid) {
  const c = (store4.state && store4.state.combatants || []).find((x) => x.id === cid);
  return c ? c.name : cid;
}
function stepWords(s) {
  if (s.do === "move") return `walk to [${s.to.join(", ")}]`;
  const parts = [s.do.replace(/_/g, " ")];
  if (s.target !== void 0) parts.push(named(s.target));
  if (s.at !== void 0) parts.push(`at [${s.at.join(", ")}]`);
  for (const [k, v] of Object.entries(s)) {
    if (!["actor", "do", "target", "at", "dice"].includes(k)) parts.push(`${k.replace(/_/g, " ")} ${typeof v === "string" ? v : JSON.stringify(v)}`);
  }
  return parts.join(" ");
}
function show(m) {
  if (!asked2 || m.id !== asked2.id) return;
  const a = m.advice;
  if (!a.working) asked2 = null;
  const how = document.getElementById("advisor-how");
  const list = document.getElementById("advisor-list");
  list.replaceChildren();
  const now = a.win === null ? "" : `; ${a.side} win ${pct3(a.win)} now (${a.method === "exact" ? "exact" : "floating point"})`;
  let said2 = `${a.name}'s choices, best first${now}.`;
  if (a.working) said2 += " Working out the chances to win…";
  else if (a.chances && a.unsolved) said2 += ` No chances to win: ${a.unsolved}.`;
  how.textContent = said2;
  for (const c of a.choices) {
    const li = el3("li", { "data-rank": String(c.rank) });
    const head = el3("div", { class: "steps" }, c.steps.map(stepWords).join(", then ") + (c.tactics ? " — the tactics' choice" : ""));
    li.append(head);
    const figures = [];
    const o = c.odds && c.target ? c.odds.combatants[c.target] : null;
    if (o) {
      if (o.hit !== null) figures.push(`hit ${pct3(o.hit)}`);
      figures.push(`mean ${o.mean.toFixed(2)}`);
      if (o.down !== void 0) figures.push(`down ${pct3(o.down)}`);
      if (c.odds.estimate) figures.push("(an estimate)");
    }
    if (c.win !== null) figures.push(`then ${a.side} win ${pct3(c.win)}`);
    if (figures.length) li.append(el3("div", { class: "figures" }, figures.join(", ")));
    li.append(el3("div", { class: "why" }, c.why));
    list.append(li);
  }
}
function follow2(state) {
  const section = box2();
  section.hidden = !state.you.advise;
  if (asked2 && asked2.seq !== store4.seq) asked2 = null;
  const list = document.getElementById("advisor-list");
  const how = document.getElementById("advisor-how");
  if (!asked2 && list.dataset.seq !== String(store4.seq)) {
    list.replaceChildren();
    how.textContent = "";
  }
  list.dataset.seq = String(store4.seq);
}
function heard(m) {
  show(m);
  document.getElementById("advisor-list").dataset.seq = String(m.seq);
}
function refused(m) {
  if (asked2 && m.id === asked2.id) {
    asked2 = null;
    document.getElementById("advisor-how").textContent = m.words || m.message;
  }
}

// fracas/web/static/table.js
import { $ as $3 } from "./dom.js";
import { send as send6 } from "./state.js";
var FLAGS = ["player_undo", "player_move", "winbar", "advisor"];
var policy = null;
function item(text, ...buttons) {
  const li = document.createElement("li");
  li.append(document.createTextNode(text), ...buttons);
  return li;
}
function button(text, key, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.key = key;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}
function drawRequests(state) {
  const gm = state.you.role === "gm";
  const list = $3("requests");
  const asked3 = state.requests || [];
  $3("requests-box").hidden = asked3.length === 0;
  list.replaceChildren(...asked3.map((r) => gm ? item(
    `${r.text} (${r.action_words || r.action}) `,
    button("Accept", `request:${r.id}:accept`, () => send6({ type: "answer", request: r.id, accept: true })),
    document.createTextNode(" "),
    button("Refuse", `request:${r.id}:refuse`, () => send6({ type: "answer", request: r.id, accept: false }))
  ) : item(`Waiting for the game master: ${r.text}`)));
}
function drawPolicy(state) {
  policy = state.policy;
  $3("policy-words").replaceChildren(...policy.words.map((w) => item(w)));
  const form = $3("policy-form");
  form.hidden = state.you.role !== "gm";
  if (form.hidden) return;
  for (const f of FLAGS) $3(`policy-${f}`).checked = policy[f];
  $3("policy-enemy_hp").value = policy.enemy_hp;
  const box3 = $3("policy-calls");
  const legend = box3.querySelector("legend");
  const calls = policy.calls || [];
  box3.hidden = calls.length === 0;
  box3.replaceChildren(legend, ...calls.map((c) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = c;
    input.dataset.key = `call:${c}`;
    input.checked = policy.player_calls.includes(c);
    input.addEventListener("change", () => {
      const mine = [...box3.querySelectorAll("input:checked")].map((i) => i.value);
      send6({ type: "policy", changes: { player_calls: mine } });
    });
    label.append(input, document.createTextNode(` ${c.replace(/_/g, " ")}`));
    return label;
  }));
}
function setup2() {
  for (const f of FLAGS) {
    $3(`policy-${f}`).addEventListener("change", (e) => send6({ type: "policy", changes: { [f]: e.target.checked } }));
  }
  $3("policy-enemy_hp").addEventListener("change", (e) => send6({ type: "policy", changes: { enemy_hp: e.target.value } }));
}
function follow3(state) {
  drawRequests(state);
  drawPolicy(state);
}

// fracas/web/static/roster.js
import { $ as $4, el as el4, keepFocus } from "./dom.js";
import { store as store5, send as send7, notice, name as name3, hpText } from "./state.js";
var picked = null;
var dragged = null;
var byId = (cid) => store5.state.combatants.find((c) => c.id === cid);
var gmAct2 = (actor, what, params = {}) => send7({ type: "act", action: { actor, do: what, ...params } });
function pick2(cid) {
  if (!byId(cid)) return;
  picked = cid;
  const who = $4("gm-who");
  if (who && who.value !== cid) {
    who.value = cid;
    who.dispatchEvent(new Event("change"));
  }
  keepFocus(draw2);
}
function reorder(order) {
  const { state } = store5;
  if (order.join() !== state.order.join()) gmAct2(state.order[0], "initiative", { order });
}
function moved(cid, by) {
  const order = [...store5.state.order];
  const i = order.indexOf(cid), j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  reorder(order);
}
function small(text, label, key, onClick) {
  const b = el4("button", { type: "button", class: "roster-btn", "aria-label": label, title: label, "data-key": key }, text);
  b.addEventListener("click", onClick);
  return b;
}
function tactics(c) {
  const label = `Tactics of ${c.name}`;
  const sel = el4("select", { class: "roster-tactics", "aria-label": label, title: label, "data-key": `tactics:${c.id}` });
  sel.append(...(store5.state.presets || []).map((p) => el4("option", { value: p, selected: p === c.tactics }, p)));
  sel.addEventListener("change", () => gmAct2(c.id, "tactics", { preset: sel.value }));
  return sel;
}
function row(cid, i) {
  const { state } = store5;
  const c = byId(cid);
  const li = el4("li", {
    tabindex: "0",
    "data-id": cid,
    "data-key": `roster:${cid}`,
    class: `${picked === cid ? "picked" : ""}${c && c.acting ? " acting" : ""}`,
    "aria-label": `${name3(cid)}, ${i + 1} in the order; Alt and the arrow keys move it`
  });
  li.append(el4("span", { class: "roster-name" }, `${i + 1}. ${name3(cid)}${c && c.hidden ? " (hidden)" : ""}`));
  if (c && c.initiative !== void 0) li.append(el4("span", { class: "small" }, `${c.initiative_word} ${c.initiative}`));
  if (c) li.append(el4("span", { class: "small" }, `HP ${hpText(c)}`), tactics(c));
  const next = state.order[(i + 1) % state.order.length];
  li.append(
    small("↑", `Move ${name3(cid)} earlier`, `roster:${cid}:up`, () => moved(cid, -1)),
    small("↓", `Move ${name3(cid)} later`, `roster:${cid}:down`, () => moved(cid, 1)),
    small("Delay", `Delay ${name3(cid)} to after ${name3(next)}`, `roster:${cid}:delay`, () => gmAct2(cid, "delay", { after: next })),
    small("Pick", `Pick ${name3(cid)} for quick HP and conditions`, `roster:${cid}:pick`, () => pick2(cid)),
    small("Remove", `Remove ${name3(cid)} from the fight`, `roster:${cid}:remove`, () => gmAct2(cid, "remove"))
  );
  li.addEventListener("keydown", (e) => {
    if (e.target !== li || !e.altKey || e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
    e.preventDefault();
    moved(cid, e.key === "ArrowUp" ? -1 : 1);
  });
  const grip = li.querySelector(".roster-name");
  grip.addEventListener("pointerdown", (e) => {
    dragged = cid;
    grip.setPointerCapture(e.pointerId);
    li.classList.add("dragging");
  });
  grip.addEventListener("pointerup", (e) => {
    li.classList.remove("dragging");
    const from = dragged;
    dragged = null;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const onto = under && under.closest("#roster li");
    const to = onto && onto.getAttribute("data-id");
    if (!from || !to || to === from) return;
    const now = store5.state.order;
    const order = now.filter((x) => x !== from);
    order.splice(order.indexOf(to) + (now.indexOf(from) < now.indexOf(to) ? 1 : 0), 0, from);
    reorder(order);
  });
  grip.addEventListener("pointercancel", () => {
    dragged = null;
    li.classList.remove("dragging");
  });
  return li;
}
function drawConditions() {
  const { state } = store5;
  const sel = $4("cond-name");
  const was = sel.options.length ? sel.value : null;
  const list = state.status_list || [];
  sel.replaceChildren(
    ...list.map((s) => el4("option", { value: s.name, selected: s.name === was }, s.name.replace(/_/g, " "))),
    el4("option", { value: "", selected: was === "" || was === null && list.length === 0 }, "another (a free mark)")
  );
  const spec = list.find((s) => s.name === sel.value);
  $4("cond-free").closest("label").hidden = Boolean(spec);
  const lasts = $4("cond-lasts");
  const kept = lasts.options.length ? lasts.value : "turns";
  const kinds = [["turns", "for N of its own turns (Turns; none: until removed)"], ["removed", "until removed"]];
  for (const cid of state.order) {
    kinds.push([`start:${cid}`, `until the start of ${name3(cid)}'s next turn`], [`end:${cid}`, `until the end of ${name3(cid)}'s next turn`]);
  }
  lasts.replaceChildren(...kinds.map(([v, text]) => el4("option", { value: v, selected: v === kept }, text)));
  lasts.closest("label").hidden = Boolean(spec);
  $4("cond-turns").closest("label").hidden = spec ? !spec.details.some((d) => d.name === "turns") : lasts.value !== "turns";
  $4("cond-help").textContent = spec ? `${spec.summary}${spec.details.length ? "; details: " + spec.details.map((d) => `${d.name}${d.default !== null ? ` (default ${d.default})` : ""}`).join(", ") : ""}` : "A mark of the game master's own: any name; it lasts N of its bearer's turns, until removed, or until the start or the end of someone's next turn.";
}
function draw2() {
  const { state } = store5;
  const box3 = $4("roster-box");
  if (!box3) return;
  box3.hidden = !state || state.you.role !== "gm";
  if (box3.hidden) return;
  if (picked && !byId(picked)) picked = null;
  if (!picked) picked = state.turn;
  $4("roster").replaceChildren(...state.order.map(row));
  const c = byId(picked);
  $4("quick-who").textContent = c ? `${c.name}: HP ${hpText(c)}` : "pick a token";
  $4("quick-hp").setAttribute("aria-label", c ? `HP change for ${c.name}: -5 or +3, then Enter` : "HP change");
  $4("init-row").hidden = !state.initiative_roll;
  $4("init-each").checked = Boolean(state.initiative_each_round);
  const copy = $4("add-copy");
  const was = copy.value;
  copy.replaceChildren(...state.combatants.map((x) => el4("option", { value: x.id, selected: x.id === was }, x.name)));
  drawConditions();
  for (const t of document.querySelectorAll("#tokens .token")) t.classList.toggle("picked", t.getAttribute("data-id") === picked);
}
function quickHp(e) {
  e.preventDefault();
  const v = $4("quick-hp").value.trim();
  const m = /^([+-])\s*(\d{1,6})$/.exec(v);
  if (!picked || !m || Number(m[2]) < 1) {
    notice(`${v || "nothing"}: type -5 to take 5 HP off, +3 to give 3 back`);
    return;
  }
  gmAct2(picked, m[1] === "+" ? "heal" : "damage", { amount: Number(m[2]) });
  $4("quick-hp").value = "";
}
function addCondition(e) {
  const { state } = store5;
  e.preventDefault();
  if (!picked) return;
  const spec = (state.status_list || []).find((s) => s.name === $4("cond-name").value);
  const status = spec ? spec.name : $4("cond-free").value.trim();
  if (!status) {
    notice("name the mark");
    return;
  }
  const turns = $4("cond-turns").value.trim();
  const lasts = spec ? "turns" : $4("cond-lasts").value;
  const details = {};
  if (lasts === "turns" && /^\d+$/.test(turns) && (!spec || spec.details.some((d) => d.name === "turns"))) details.turns = Number(turns);
  const to = lasts.indexOf(":");
  if (to > 0) Object.assign(details, { until: lasts.slice(0, to), of: lasts.slice(to + 1) });
  gmAct2(picked, "status", { add: { [status]: details } });
}
function addCopy(e) {
  const { state } = store5;
  e.preventDefault();
  const from = $4("add-copy").value;
  const who = $4("add-name").value.trim();
  if (!from || !who) {
    notice("give the new combatant a name");
    return;
  }
  let id = who.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "new";
  for (let n = 2; byId(id); n++) id = id.replace(/-\d+$/, "") + `-${n}`;
  const at = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec($4("add-at").value);
  const combatant = { id, name: who };
  if (at) combatant.at = [Number(at[1]), Number(at[2])];
  const action = { copy: from, combatant };
  if (state.turn) action.after = state.order[state.order.length - 1];
  gmAct2(from, "add", action);
  $4("add-name").value = "";
}
function roll(e) {
  const { state } = store5;
  e.preventDefault();
  const notation = $4("roll-notation").value.trim();
  if (!notation) {
    notice("type a roll: 2d6+1");
    return;
  }
  const params = { notation };
  if (state.you.role === "gm") {
    if ($4("roll-secret").checked) params.secret = true;
    send7({ type: "act", action: { do: "roll", ...params } });
    return;
  }
  const owns = state.you.owns;
  gmAct2(owns.includes(state.turn) ? state.turn : owns[0], "roll", params);
}
function setup3() {
  $4("quick-form").addEventListener("submit", quickHp);
  $4("cond-form").addEventListener("submit", addCondition);
  $4("cond-name").addEventListener("change", drawConditions);
  $4("cond-lasts").addEventListener("change", drawConditions);
  $4("init-roll").addEventListener("click", () => gmAct2(store5.state.order[0], "initiative", { roll: true }));
  $4("init-each").addEventListener("change", (e) => gmAct2(store5.state.order[0], "initiative", { each_round: e.target.checked }));
  $4("add-form").addEventListener("submit", addCopy);
  $4("sheet-box").addEventListener("toggle", () => {
    if ($4("sheet-box").open) sheetModule().then((m) => m.setup());
  });
  $4("add-keep").addEventListener("click", () => sheetModule().then((m) => m.keepCopy()));
  $4("roll-form").addEventListener("submit", roll);
  $4("cond-clear").addEventListener("click", () => {
    const c = byId(picked);
    const name6 = $4("cond-name").value || $4("cond-free").value.trim();
    if (c && name6) gmAct2(picked, "status", { remove: name6 });
  });
  $4("tokens").addEventListener("click", (e) => {
    const t = e.target.closest(".token");
    if (t && store5.state && store5.state.you.role === "gm" && !store5.chosen) {
      pick2(t.getAttribute("data-id"));
      $4("quick-hp").focus({ preventScroll: true });
    }
  });
}
var sheetLoading = null;
var sheetLoaded = null;
function sheetModule() {
  if (!sheetLoading) {
    sheetLoading = import("./gmsheet.js").then(async (m) => {
      await m.setup();
      sheetLoaded = m;
      return m;
    });
  }
  return sheetLoading;
}
function follow4(state) {
  draw2();
  $4("sheet-box").hidden = state.you.role !== "gm";
  $4("roll-box").hidden = !(state.you.role === "gm" || state.you.owns.length);
  $4("roll-secret").closest("label").hidden = state.you.role !== "gm";
}

// fracas/web/static/links.js
import { $ as $5, el as el5, SVG } from "./dom.js";
import { store as store6, token, send as send8, notice as notice2 } from "./state.js";
function row2(link2) {
  if (!link2.url) return [];
  const box3 = el5("div", { class: "link-url" });
  const input = el5("input", { readonly: "", value: link2.url, "aria-label": `${link2.name}'s link`, class: "link-address", "data-key": `link:${link2.id}:address` });
  const copy = el5("button", { type: "button", class: "link-copy", "data-key": `link:${link2.id}:copy` }, `Copy ${link2.name}'s link`);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link2.url);
      copy.textContent = "Copied";
    } catch (e) {
      input.select();
      document.execCommand("copy");
      copy.textContent = "Copied";
    }
    setTimeout(() => {
      copy.textContent = `Copy ${link2.name}'s link`;
    }, 1500);
  });
  const qr = el5("img", {
    class: "link-qr",
    alt: `QR code of ${link2.name}'s link`,
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link2.qr)}`
  });
  box3.append(input, copy, qr);
  return [box3];
}
function finishButton(state) {
  let b = $5("gm-finish");
  if (state.you.role !== "gm") {
    if (b) b.remove();
    return;
  }
  if (!b) {
    b = el5("button", { type: "button", id: "gm-finish" });
    b.addEventListener("click", () => {
      const ended2 = b.dataset.ended === "true";
      send8({ type: "act", action: { actor: b.dataset.actor, do: ended2 ? "reopen" : "finish" } });
    });
    $5("table-buttons").append(b);
  }
  const ended = Boolean(state.outcome && state.outcome.ended);
  b.dataset.ended = String(ended);
  b.dataset.actor = state.turn || state.order[0] || "";
  b.textContent = ended ? "Reopen the fight" : "Finish the fight";
}
function banner(state) {
  const b = $5("outcome");
  if (!b) return;
  const done = state.outcome;
  b.hidden = !done;
  b.textContent = done ? done.words : "";
  finishButton(state);
}
var imageShown;
function mapImage(state) {
  const svg = $5("map");
  if (!svg) return;
  const size = state.bounds || store6.mapSize;
  let img = $5("map-image");
  if (!img) {
    img = document.createElementNS(SVG, "image");
    img.id = "map-image";
    img.setAttribute("x", "0");
    img.setAttribute("y", "0");
    img.setAttribute("preserveAspectRatio", "none");
    img.setAttribute("aria-hidden", "true");
    img.addEventListener("error", () => img.setAttribute("display", "none"));
    img.addEventListener("load", () => img.removeAttribute("display"));
    svg.insertBefore(img, $5("grid-rect"));
  }
  img.setAttribute("width", String(size[0] * 40));
  img.setAttribute("height", String(size[1] * 40));
  const version = state.map_image || null;
  if (version !== imageShown) {
    imageShown = version;
    img.setAttribute("data-version", version || "");
    if (version) img.setAttribute("href", `/map/${token}?v=${version}`);
    else {
      img.removeAttribute("href");
      img.setAttribute("display", "none");
    }
  }
  if (state.you.role === "gm" && !$5("map-upload")) {
    const row3 = el5("div", { class: "row" });
    const label = el5("label", {}, "Map image (PNG, JPEG or WebP, at most 4 MiB) ");
    const input = el5("input", { type: "file", id: "map-upload", accept: "image/png,image/jpeg,image/webp" });
    label.append(input);
    const drop = el5("button", { type: "button", id: "map-remove" }, "Remove the map image");
    row3.append(label, drop);
    $5("gm-box").append(row3);
    input.addEventListener("change", async () => {
      const file = input.files[0];
      if (!file) return;
      const r = await fetch("/api/map", { method: "PUT", headers: { Authorization: `Bearer ${token}` }, body: file });
      input.value = "";
      const data = await r.json();
      if (!r.ok) {
        notice2(data.message);
        return;
      }
      notice2("");
    });
    drop.addEventListener("click", async () => {
      const r = await fetch("/api/map", { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });
      if (!r.ok) {
        const data = await r.json();
        notice2(data.message);
      }
    });
  }
}
function follow5(state) {
  banner(state);
  mapImage(state);
}

// fracas/web/static/folds.js
import { $ as $6, el as el6 } from "./dom.js";
import { name as name4, hpText as hpText2 } from "./state.js";
var PHONE = matchMedia("(max-width: 899px) and (pointer: coarse)");
var OPEN = /* @__PURE__ */ new Set(["act-box", "requests-box"]);
var opened = /* @__PURE__ */ new Set();
var player = false;
var last = null;
var onOpen = () => {
};
var folded = (id) => Boolean($6(id) && $6(id).classList.contains("folded"));
function on() {
  return player && PHONE.matches;
}
function fold(section, shut) {
  section.classList.toggle("folded", shut);
  const b = section.querySelector(":scope > h2 > button.fold");
  if (b) b.setAttribute("aria-expanded", String(!shut));
}
function foldable(section) {
  const h2 = section.querySelector(":scope > h2");
  if (!h2 || h2.querySelector("button.fold")) return;
  const id = section.id;
  const b = el6("button", {
    type: "button",
    class: "fold",
    "aria-expanded": "false",
    "aria-controls": id,
    "aria-describedby": `${id}-sum`,
    "data-key": `fold:${id}`
  }, h2.textContent);
  const line = el6("span", { class: "fold-sum", id: `${id}-sum` });
  b.addEventListener("click", () => {
    const shut = !section.classList.contains("folded");
    if (shut) opened.delete(id);
    else opened.add(id);
    fold(section, shut);
    if (!shut) onOpen(id);
  });
  line.addEventListener("click", () => b.click());
  h2.replaceChildren(b, line);
  fold(section, !opened.has(id));
}
function plain(section) {
  const b = section.querySelector(":scope > h2 > button.fold");
  if (b) section.querySelector(":scope > h2").replaceChildren(b.textContent);
  section.classList.remove("folded");
}
function open(id) {
  const section = $6(id);
  if (!section || !section.classList.contains("folded")) return;
  opened.add(id);
  fold(section, false);
  onOpen(id);
}
function sum(id, text) {
  const span = document.getElementById(`${id}-sum`);
  if (span && span.textContent !== text) span.textContent = text;
}
function summaries(state) {
  if (!state) return;
  const whose = state.outcome && state.outcome.words ? state.outcome.words : `Round ${state.round}: ${state.turn_words || (state.turn === null ? "a turn this page does not see" : `${name4(state.turn)}'s turn`)}`;
  const mine = state.combatants.filter((c) => c.mine).map((c) => `${c.name} HP ${hpText2(c)}`);
  sum("order-box", [whose, ...mine].join(" · "));
  const line = $6("log").lastElementChild;
  sum("log-box", line && line.firstChild ? line.firstChild.textContent : "");
}
function follow6(state) {
  if (state) {
    last = state;
    player = state.you.role !== "gm";
  }
  for (const section of document.querySelectorAll("main > section[id]")) {
    if (OPEN.has(section.id)) continue;
    if (on()) foldable(section);
    else plain(section);
  }
  if (on()) summaries(last);
}
function setup4(opener) {
  onOpen = opener;
  PHONE.addEventListener("change", () => follow6(null));
}

// fracas/web/static/app.js
function hpColour(c) {
  const f = c.max_hp ? c.hp / c.max_hp : 0;
  return f > 0.5 ? "#0072b2" : f > 0.25 ? "#f0e442" : "#d55e00";
}
var METRICS = {
  chebyshev: (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])),
  manhattan: (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1])
};
function distance(a, b) {
  return (METRICS[store7.state.metric] || METRICS.chebyshev)(a, b);
}
function handle(m) {
  if (m.type === "sync") {
    const first = store7.state === null;
    if (!first && m.seq !== store7.seq && !changes.size) notice3("");
    store7.state = m.state;
    store7.seq = m.seq;
    store7.options = m.options;
    document.body.dataset.seq = String(store7.seq);
    appendLog(m.lines);
    if (store7.chosen && !findOption(store7.chosen.actor, store7.chosen.do)) store7.chosen = null;
    keepFocus2(() => {
      follow6(store7.state);
      render();
      follow();
      follow2(store7.state);
      follow5(store7.state);
      follow3(store7.state);
      follow4(store7.state);
      follow6(store7.state);
    });
    if (first && store7.state.you.role === "gm") loadLinks();
    if (store7.state.you.role === "gm" && (store7.state.outcome || $7("party-box"))) import("./party.js").then((m2) => m2.follow(store7.state));
  } else if (m.type === "cost") {
    moveCosts.heard(m);
  } else if (m.type === "refused") {
    if (moveCosts.refused(m)) return;
    const change = changes.get(m.id);
    changes.delete(m.id);
    if (change && m.code === "store_unavailable" && change[1] < RETRIES) {
      notice3(`the table's store is unavailable; trying again (${change[1] + 1} of ${RETRIES})`);
      setTimeout(() => send9(change[0], change[1] + 1), 500 * (change[1] + 1));
      return;
    }
    notice3(m.words || m.message);
    if (m.words && m.rules && m.rules.length) $7("notice").append(" ", rulesInfo(m.rules));
    refused(m);
    if (sheetLoaded) sheetLoaded.refused(m);
    refusedOdds(m.id);
  } else if (m.type === "asked") {
    notice3("");
    changeAnswered(m.id);
  } else if (m.type === "requested") {
    changes.delete(m.id);
    notice3("asked the game master: the action waits for the answer");
    changeAnswered(m.id);
  } else if (m.type === "done") {
    changes.delete(m.id);
    notice3("");
    changeAnswered(m.id);
    if (sheetLoaded) sheetLoaded.done(m);
  } else if (m.type === "odds") {
    heardOdds(m);
  } else if (m.type === "winbar") {
    draw(m);
    follow6(null);
  } else if (m.type === "advice") {
    heard(m);
  }
}
function render() {
  if (!store7.state) return;
  keepFocus2(draw3);
}
function draw3() {
  const { state } = store7;
  $7("title").textContent = `${state.encounter} · ${state.title}`;
  document.title = `fracas · ${state.encounter}`;
  const you = state.you.role === "gm" ? "game master" : state.you.name;
  const whose = state.turn_words || (state.turn === null ? "a turn this page does not see" : `${name5(state.turn)}'s turn`);
  $7("turn").textContent = state.outcome && state.outcome.words ? `${state.outcome.words} (you: ${you})` : `Round ${state.round}: ${whose}; next ${name5(state.next)} (you: ${you})`;
  if (state.ranges_button && $7("ranges-toggle").textContent !== state.ranges_button) $7("ranges-toggle").textContent = state.ranges_button;
  renderMap();
  renderOrder();
  renderActions();
  renderDice();
  renderGm();
}
var dieAsked = null;
function renderDice() {
  const p = store7.state.pending;
  const box3 = $7("dice-box");
  box3.hidden = !p;
  if (!p) {
    dieAsked = null;
    return;
  }
  const who = p.waiting || "the game master";
  $7("die-question").textContent = p.label ? p.yours ? `${p.action_words || p.action}: ${p.question}` : `${p.action_words || p.action}: waiting for ${who}: ${p.question}` : p.question;
  $7("die-row").hidden = !p.yours && !p.cancel;
  $7("die-face").hidden = $7("die-give").hidden = !p.yours;
  $7("die-face").closest("label").hidden = !p.yours;
  $7("die-cancel").hidden = !p.cancel;
  if (p.yours) {
    $7("die-face").max = p.sides;
    $7("die-face").setAttribute("aria-label", p.question);
    if (dieAsked !== `${p.label}|${JSON.stringify(p.given)}`) {
      dieAsked = `${p.label}|${JSON.stringify(p.given)}`;
      $7("die-face").value = "";
      $7("die-face").focus();
    }
  }
}
function renderGm() {
  const { state } = store7;
  const box3 = $7("gm-box");
  box3.hidden = state.you.role !== "gm";
  if (box3.hidden) return;
  $7("gm-dice").setAttribute("aria-pressed", String(state.dice === "physical"));
  const sel = $7("gm-who");
  const was = sel.value || state.turn;
  sel.replaceChildren(...state.combatants.map((c) => el7("option", { value: c.id, selected: c.id === was }, c.name + (c.hidden ? " (hidden)" : ""))));
  gmPicked();
}
var notePicked = null;
function gmPicked() {
  const c = store7.state.combatants.find((x) => x.id === $7("gm-who").value);
  if (!c) return;
  $7("gm-hide").textContent = c.hidden ? "Show to players" : "Hide from players";
  $7("gm-hide").setAttribute("aria-pressed", String(Boolean(c.hidden)));
  $7("gm-reveal-row").hidden = !c.hidden;
  $7("gm-reveal").checked = Boolean(c.reveal_on_turn);
  const note = $7("gm-note");
  if (notePicked !== c.id || document.activeElement !== note) note.value = c.note || "";
  notePicked = c.id;
}
function gmAct(what, params = {}) {
  send9({ type: "act", action: { actor: $7("gm-who").value, do: what, ...params } });
}
function tileAt(e) {
  const svg = $7("map");
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  return [Math.floor(p.x / TILE), Math.floor(p.y / TILE)];
}
function renderMap() {
  const { state } = store7;
  const placed3 = state.combatants.filter((c) => c.at);
  let w = 8, h = 6;
  if (state.bounds) [w, h] = state.bounds;
  for (const c of placed3) {
    w = Math.max(w, c.at[0] + 2);
    h = Math.max(h, c.at[1] + 2);
  }
  [w, h] = ringsFit(w, h);
  const svg = $7("map");
  mapView.setFull([-4, -4, w * TILE + 8, h * TILE + 8]);
  const grid = $7("grid-rect");
  grid.setAttribute("width", w * TILE);
  grid.setAttribute("height", h * TILE);
  $7("clip-rect").setAttribute("width", w * TILE);
  $7("clip-rect").setAttribute("height", h * TILE);
  store7.mapSize = [w, h];
  const g = $7("tokens");
  g.replaceChildren();
  for (const c of placed3) g.append(tokenOf(c));
  if (!folded("map-box")) {
    mapLayout.place(w * TILE, h * TILE);
    phoneZoom();
  }
  renderRings();
  showTile();
}
function origin() {
  return placed2(store7.dragged) || placed2(store7.chosen && store7.chosen.actor) || placed2(store7.state.turn);
}
function ringsOrigin() {
  const o = origin();
  if (o && o.ranges) return o;
  return store7.state.combatants.find((c) => c.mine && c.at && c.ranges) || null;
}
function allRings(c) {
  return [...c.ranges || [], ...(c.rings || []).map((r) => ({ ...r, mark: true }))];
}
function ringsFit(w, h) {
  const c = store7.showRanges && store7.state ? ringsOrigin() : null;
  if (!c) return [w, h];
  const far = Math.max(0, ...allRings(c).map((r) => r.tiles));
  return [Math.max(w, c.at[0] + far + 1), Math.max(h, c.at[1] + far + 1)];
}
function renderRings() {
  const { state } = store7;
  const g = $7("rings");
  const legend = $7("ranges-legend");
  g.replaceChildren();
  const c = store7.showRanges ? ringsOrigin() : null;
  g.setAttribute("display", c ? "inline" : "none");
  legend.hidden = !store7.showRanges;
  if (!store7.showRanges) return;
  const rings = c ? allRings(c) : [];
  if (!c || !rings.length) {
    legend.textContent = "No ranges to show for " + (c ? c.name : "this page");
    return;
  }
  legend.textContent = `Ranges of ${c.name} (${state.metric}): ` + c.ranges.map((r) => `${r.label} ${r.tiles}`).join(", ") + " tiles" + (c.rings && c.rings.length ? `; rings: ${c.rings.map((r) => `${r.label} ${r.tiles}`).join(", ")}` : "");
  const [X, Y] = [c.at[0] * TILE + TILE / 2, c.at[1] * TILE + TILE / 2];
  const [W, H] = [store7.mapSize[0] * TILE, store7.mapSize[1] * TILE];
  const labelled = /* @__PURE__ */ new Map();
  for (const r of rings) {
    const half = (r.tiles + 0.5) * TILE;
    const attrs = { class: r.mark ? "range-ring mark" : "range-ring", "data-label": r.label, "data-tiles": r.tiles };
    const ring = state.metric === "manhattan" ? el7("svg:polygon", { ...attrs, points: `${X},${Y - half} ${X + half},${Y} ${X},${Y + half} ${X - half},${Y}` }) : el7("svg:rect", { ...attrs, x: X - half, y: Y - half, width: 2 * half, height: 2 * half });
    ring.append(el7("svg:title", {}, `${r.label}: ${r.tiles} tiles`));
    g.append(ring);
    const left = Math.max(4, X - half + 4);
    const edge = state.metric === "manhattan" ? X : left;
    const spots = [
      [edge, Y - half + 11, edge === X ? "middle" : "start"],
      [edge, Y + half - 4, edge === X ? "middle" : "start"],
      [X + half - 4, Y + 3, "end"],
      [X - half + 4, Y + 3, "start"]
    ];
    const spot = spots.find(([x, y]) => x >= 0 && x <= W && y >= 8 && y <= H);
    if (spot && labelled.has(r.tiles)) {
      labelled.get(r.tiles).textContent += ` · ${r.mark && /\d/.test(r.label) ? r.label : `${r.label} ${r.tiles}`}`;
    } else if (spot) {
      const text = el7(
        "svg:text",
        { class: "range-label", x: spot[0], y: spot[1], "text-anchor": spot[2] },
        r.mark && /\d/.test(r.label) ? r.label : `${r.label} ${r.tiles}`
      );
      labelled.set(r.tiles, text);
      g.append(text);
    }
  }
}
function showTile() {
  const box3 = $7("cursor");
  $7("map").classList.toggle("aiming", aiming2());
  if (!store7.cursor) {
    box3.setAttribute("display", "none");
    return;
  }
  box3.setAttribute("display", "inline");
  box3.setAttribute("x", store7.cursor[0] * TILE);
  box3.setAttribute("y", store7.cursor[1] * TILE);
  const o = origin();
  let text = `Tile ${store7.cursor[0]}, ${store7.cursor[1]}`;
  if (o) {
    const d = distance(o.at, store7.cursor);
    text += `: ${d} ${d === 1 ? "tile" : "tiles"} from ${o.name}`;
    if (o.ranges && o.ranges.length && d > 0) {
      const band = o.ranges.find((r) => d <= r.tiles);
      text += band ? `, within ${band.label} (${band.tiles})` : ", beyond every range";
    }
  }
  if (aiming2()) {
    text += ` · click or press Enter to ${title3(store7.chosen.do).toLowerCase()} here`;
    askTileOdds(store7.cursor);
  }
  const cost = store7.dragged ? moveCosts.line(store7.dragged, store7.cursor) : null;
  if (cost) text += cost.text;
  box3.classList.toggle("refused", Boolean(cost && cost.refused));
  drawRuler(o, store7.cursor);
  const info = $7("tile-info");
  if (info.textContent !== text) info.textContent = text;
}
function pointAt(t) {
  if (!t || t[0] < 0 || t[1] < 0 || t[0] >= store7.mapSize[0] || t[1] >= store7.mapSize[1]) return;
  if (store7.cursor && store7.cursor[0] === t[0] && store7.cursor[1] === t[1]) return;
  store7.cursor = t;
  showTile();
}
var ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
function mapKey(e) {
  if (!store7.state) return;
  const step = ARROWS[e.key];
  if (step && e.shiftKey) {
    e.preventDefault();
    mapView.panBy(step[0] * TILE, step[1] * TILE);
  } else if (step) {
    e.preventDefault();
    const from = store7.cursor || (origin() ? origin().at : [0, 0]);
    const t = [Math.min(store7.mapSize[0] - 1, Math.max(0, from[0] + step[0])), Math.min(store7.mapSize[1] - 1, Math.max(0, from[1] + step[1]))];
    store7.cursor = null;
    pointAt(t);
  } else if ((e.key === "Enter" || e.key === " ") && e.target === $7("map") && store7.cursor && aiming2()) {
    e.preventDefault();
    actAt(store7.cursor);
  }
}
function tokenOf(c) {
  const [x, y] = [c.at[0] * TILE + TILE / 2, c.at[1] * TILE + TILE / 2];
  const statuses = c.statuses.map((s) => s.label + (s.value ? ` (${s.value})` : "")).join(", ");
  const label = `${c.name}, ${c.side}, HP ${hpText3(c)}${c.down ? ", down" : ""}${c.acting ? ", acting now" : ""}${c.hidden ? ", hidden from players" : ""}` + (statuses ? `, ${statuses}` : "") + ` at ${c.at[0]}, ${c.at[1]}`;
  const t = el7("svg:g", {
    class: `token${c.acting ? " acting" : ""}${c.down ? " down" : ""}${c.hidden ? " hidden" : ""}`,
    tabindex: "0",
    role: "button",
    "aria-label": label,
    "data-id": c.id,
    "data-key": `token:${c.id}`,
    "data-cx": x,
    "data-cy": y
  });
  t.append(el7("svg:title", {}, label));
  t.append(el7("svg:circle", { class: "hit", cx: x, cy: y, r: TILE / 2 }));
  if (c.acting) t.append(el7("svg:circle", { class: "ring", cx: x, cy: y, r: 18 }));
  t.append(el7("svg:circle", { class: "disc", cx: x, cy: y, r: 14, fill: sideColour(c.side) }));
  t.append(el7("svg:text", { x, y: y + 4, fill: sideInk(c.side), class: "name" }, c.name.slice(0, 2)));
  const bw = 34, bx = x - bw / 2, by = y + 12;
  t.append(el7("svg:rect", { x: bx, y: by, width: bw, height: 5, fill: "#eee", stroke: "#555", "stroke-width": 0.5 }));
  if (c.hp_shown === "exact" && c.max_hp) {
    t.append(el7("svg:rect", { x: bx, y: by, width: Math.max(0, bw * c.hp / c.max_hp), height: 5, fill: hpColour(c) }));
  }
  t.append(el7("svg:text", { x, y: by + 13, class: "label" }, `${c.name} ${hpText3(c)}`));
  c.statuses.forEach((s, i) => {
    t.append(el7(
      "svg:text",
      { x: x + 16, y: y - 10 + i * 9, class: "badge", "text-anchor": "start" },
      s.label + (s.value.match(/turns=(\d+)/) ? ` ${s.value.match(/turns=(\d+)/)[1]}` : "")
    ));
  });
  t.addEventListener("click", () => target(c.id));
  t.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      target(c.id);
    }
  });
  t.addEventListener("mouseenter", () => askOdds(c.id));
  t.addEventListener("focus", () => askOdds(c.id));
  return t;
}
function renderOrder() {
  const ol = $7("order");
  ol.replaceChildren();
  for (const c of store7.state.combatants) {
    const li = el7("li", { class: `${c.acting ? "acting" : ""} ${c.down ? "down" : ""}`, "aria-current": c.acting ? "true" : null });
    const card = el7("div", { class: "card" });
    card.append(el7("strong", {}, c.name));
    card.append(el7("span", { class: "small" }, c.side + (c.mine ? " (yours)" : "")));
    if (c.initiative !== void 0) card.append(el7("span", { class: "small initiative" }, `${c.initiative_word} ${c.initiative}`));
    if (c.hp_shown === "exact") {
      const m = el7("meter", { min: 0, max: c.max_hp, value: c.hp, low: Math.ceil(c.max_hp / 4) + 0.5, high: c.max_hp / 2 + 0.5, optimum: c.max_hp, "aria-label": `${c.name}'s HP` });
      card.append(m);
    }
    card.append(el7("span", {}, `HP ${hpText3(c)}`));
    if (c.down) card.append(el7("span", {}, "down"));
    if (c.gear) card.append(gearOf(c));
    if (c.hidden) card.append(el7("span", { class: "tag" }, "hidden from players"));
    if (c.note) card.append(el7("span", { class: "note", title: "your note (players never see it)" }, `Note: ${c.note}`));
    for (const s of c.statuses) card.append(el7("span", { class: "small" }, `${s.label}${s.value ? " " + s.value : ""}`));
    for (const f of c.fields || []) card.append(el7("span", { class: "small", title: f.detail || null }, `${f.label} ${f.value}`));
    li.append(card);
    ol.append(li);
  }
  const dl = $7("values");
  dl.replaceChildren();
  for (const v of store7.state.values) {
    dl.append(el7("dt", {}, v.label));
    dl.append(el7("dd", { title: v.detail || null }, v.value));
  }
}
function gearOf(c) {
  if (!c.gear_note) return el7("span", { class: "small" }, c.gear);
  const wrap = el7("span", { class: "gear" });
  const b = el7("button", { type: "button", class: "gear-tip", "aria-expanded": "false", "data-id": c.id, "data-key": `gear:${c.id}` }, `${c.gear} ⓘ`);
  const note = el7("span", { class: "gear-note", role: "note", hidden: true }, c.gear_note);
  b.addEventListener("click", () => {
    const open2 = b.getAttribute("aria-expanded") !== "true";
    b.setAttribute("aria-expanded", String(open2));
    note.hidden = !open2;
  });
  wrap.append(b, note);
  return wrap;
}
function choiceTip(said2, value, key) {
  const node = el7("span", { class: "gear choice-tip" });
  const b = el7("button", { type: "button", class: "gear-tip", "aria-expanded": "false", "data-key": key });
  const note = el7("span", { class: "gear-note", role: "note", hidden: true });
  b.addEventListener("click", () => {
    const open2 = b.getAttribute("aria-expanded") !== "true";
    b.setAttribute("aria-expanded", String(open2));
    note.hidden = !open2;
  });
  node.append(b, note);
  const update = () => {
    const v = value();
    const line = v && said2[v] ? said2[v].note : "";
    node.hidden = !line;
    b.textContent = line ? `${said2[v].words} ⓘ` : "";
    b.setAttribute("aria-expanded", "false");
    note.hidden = true;
    note.textContent = line;
  };
  return { node, update };
}
var actionsShown = null;
function rulesInfo(rules) {
  const box3 = el7("details", { class: "rules small" });
  box3.style.display = "inline-block";
  box3.append(el7("summary", {}, "Rules"), document.createTextNode(` ${rules.join(", ")}`));
  return box3;
}
function renderActions() {
  const box3 = $7("actions");
  const key = JSON.stringify([store7.seq, store7.options, store7.chosen && [store7.chosen.actor, store7.chosen.do, store7.chosen.params, store7.chosen.several || null]]);
  if (key === actionsShown && box3.childElementCount) {
    renderTurnButtons();
    return;
  }
  actionsShown = key;
  box3.replaceChildren();
  const actors = Object.keys(store7.options);
  if (!actors.length) box3.append(el7("p", { class: "why" }, "You watch this table."));
  for (const actor of actors) box3.append(...reactPrompts(actor));
  for (const actor of actors) {
    box3.append(el7("h3", { class: "small" }, `${name5(actor)}'s actions`));
    const row3 = el7("div", { class: "row", role: "group", "aria-label": `${name5(actor)}'s actions` });
    for (const o of store7.options[actor]) {
      const pressed = store7.chosen && store7.chosen.actor === actor && store7.chosen.do === o.do;
      const b = el7("button", {
        type: "button",
        "aria-pressed": String(Boolean(pressed)),
        disabled: !o.allowed,
        title: o.allowed ? o.summary_words || o.summary : o.refusal.words || o.refusal.message,
        "data-key": `act:${actor}:${o.do}`
      }, title3(o.do));
      b.addEventListener("click", () => choose(actor, o));
      row3.append(b);
    }
    box3.append(row3);
    if (store7.state.outcome) {
      box3.append(el7("p", { class: "why" }, "The fight is over: no more actions. The game master can reopen it by undoing the last action."));
      continue;
    }
    for (const o of store7.options[actor]) {
      if (o.allowed) continue;
      const why = el7("p", { class: "why" }, `${title3(o.do)}: ${o.refusal.words || o.refusal.message}`);
      if (o.refusal.words && o.refusal.rules && o.refusal.rules.length) why.append(" ", rulesInfo(o.refusal.rules));
      box3.append(why);
    }
  }
  if (store7.chosen) box3.append(chosenPanel());
  renderTurnButtons();
}
function reactPrompts(actor) {
  const out = [];
  for (const o of store7.options[actor]) {
    for (const t of o.react || []) {
      const said2 = `${name5(actor)} can react: ${title3(o.do)} on ${name5(t)}`.replace(/^./, (x) => x.toUpperCase());
      const box3 = el7("div", { class: "react-prompt", role: "group", "aria-label": said2 });
      box3.style.border = "2px solid #d55e00";
      box3.style.padding = "0.3rem";
      box3.style.margin = "0.3rem 0";
      const b = el7("button", { type: "button", "data-key": `react:${actor}:${o.do}:${t}` }, `${title3(o.do)} ${name5(t)}`);
      b.addEventListener("click", () => {
        store7.chosen = { actor, do: o.do, option: o, params: {} };
        keepFocus2(renderActions);
        pick({ target: t });
      });
      box3.append(el7("strong", {}, said2), " ", b);
      out.push(box3);
    }
  }
  return out;
}
function renderTurnButtons() {
  const { state } = store7;
  $7("end-turn").disabled = !state.you.end_turn;
  $7("undo").disabled = !state.you.undo;
  $7("redo").disabled = !state.you.redo;
}
function asks(o, p) {
  return (o.ask || []).includes(p) ? " (asks the game master)" : "";
}
function targetMark(o, t) {
  const m = (o.marks || {})[t];
  if (!m) return "";
  const said2 = [m.relation === "ally" ? "ally" : m.relation === "self" ? "self" : "", m.down ? "down" : ""].filter(Boolean);
  return said2.length ? ` (${said2.join(", ")})` : "";
}
function targetClass(o, t) {
  const m = (o.marks || {})[t];
  return m ? `target-${m.relation}${m.down ? " target-down" : ""}` : null;
}
function chosenPanel() {
  const o = store7.chosen.option;
  const panel = el7("div", { role: "group", "aria-label": `${title3(o.do)}: choose` });
  for (const [p, values] of Object.entries(o.choices)) {
    const said2 = (o.choice_words || {})[p] || {};
    const sel = el7("select", { "aria-label": `${words(p)}${asks(o, p)}`, "data-key": `param:${p}` });
    if (!o.required.includes(p)) sel.append(el7("option", { value: "" }, `${words(p)}: not given`));
    for (const v of values) sel.append(el7("option", { value: v, selected: store7.chosen.params[p] === v }, `${words(p)}: ${said2[v] ? said2[v].words : valueWords(p, v)}`));
    const tip = choiceTip(said2, () => store7.chosen.params[p], `tip:${p}`);
    sel.addEventListener("change", () => {
      if (sel.value) store7.chosen.params[p] = sel.value;
      else delete store7.chosen.params[p];
      tip.update();
      paramsChanged();
    });
    if (!o.required.includes(p) || values.length) {
      if (o.required.includes(p) && !store7.chosen.params[p]) store7.chosen.params[p] = values[0];
      panel.append(sel, tip.node);
      tip.update();
    }
  }
  for (const f of o.flags || []) {
    const input = el7("input", { type: "checkbox", checked: store7.chosen.params[f] === true, "data-key": `flag:${f}` });
    input.addEventListener("change", () => {
      if (input.checked) store7.chosen.params[f] = true;
      else delete store7.chosen.params[f];
      paramsChanged();
    });
    const label = el7("label", { class: "flag" });
    label.append(input, document.createTextNode(` ${title3(f)}${asks(o, f)}`));
    panel.append(label);
  }
  for (const n of o.numbers || []) {
    const input = el7("input", {
      type: "number",
      step: "1",
      inputmode: "numeric",
      class: "number",
      "data-key": `number:${n}`,
      value: store7.chosen.params[n] === void 0 ? "" : String(store7.chosen.params[n]),
      placeholder: "not given"
    });
    input.addEventListener("change", () => {
      const v = input.value.trim();
      if (/^-?\d+$/.test(v)) store7.chosen.params[n] = Number(v);
      else {
        delete store7.chosen.params[n];
        input.value = "";
      }
      paramsChanged();
    });
    const label = el7("label", { class: "flag" });
    label.append(document.createTextNode(`${title3(n)}${asks(o, n)} `), input);
    panel.append(label);
  }
  const row3 = el7("div", { class: "row targets" });
  if (o.targets === null) panel.append(...costLines(o.costs));
  if (o.targets === null) {
    const b = el7("button", { type: "button", class: "go", "data-key": "go" }, `${title3(o.do)} now`);
    b.addEventListener("click", () => act(null));
    row3.append(b);
  } else {
    for (const t of o.targets) {
      const b = el7("button", { type: "button", "data-target": t, "data-key": `target:${t}`, class: targetClass(o, t) }, `${title3(o.do)} ${name5(t)}${targetMark(o, t)}`);
      b.addEventListener("click", () => pick({ target: t }));
      b.addEventListener("mouseenter", () => askOdds(t));
      b.addEventListener("focus", () => askOdds(t));
      b.addEventListener("mouseleave", leaveOdds);
      row3.append(b);
    }
    if (!o.targets.length) row3.append(el7("p", { class: "why" }, "no target now"));
  }
  panel.append(el7("p", { class: "small" }, o.targets === null ? "" : "Pick a target (or its token on the map); hover or focus it for the exact odds, or tap it to read them and then confirm."));
  if (aiming2()) panel.append(el7("p", { class: "small" }, "Or aim at a tile: click it on the map (or focus the map, move with the arrow keys, press Enter)."));
  panel.append(row3);
  if (o.target_kind === "combatants" && o.targets.length > 1) panel.append(severalBox(o));
  return panel;
}
function severalBox(o) {
  const box3 = el7("fieldset", { class: "several" });
  box3.append(el7("legend", {}, "Or several targets at once, each with its own roll"));
  store7.chosen.several = (store7.chosen.several || []).filter((t) => o.targets.includes(t));
  const go = el7("button", { type: "button", id: "act-several", "data-key": "several" });
  const update = () => {
    const n = store7.chosen.several.length;
    go.disabled = n < 2;
    go.textContent = n < 2 ? `${title3(o.do)}: tick two or more` : `${title3(o.do)} ${store7.chosen.several.map(name5).join(", ")}`;
  };
  for (const t of o.targets) {
    const input = el7("input", { type: "checkbox", value: t, checked: store7.chosen.several.includes(t), "data-key": `several:${t}` });
    input.addEventListener("change", () => {
      store7.chosen.several = store7.chosen.several.filter((x) => x !== t);
      if (input.checked) store7.chosen.several.push(t);
      update();
      paramsChanged();
    });
    const label = el7("label", {});
    label.append(input, document.createTextNode(` ${name5(t)}${targetMark(o, t)}`));
    box3.append(label);
  }
  go.addEventListener("click", () => {
    if (store7.chosen.several.length > 1) pick({ several: true });
  });
  go.addEventListener("mouseenter", () => askSeveralOdds());
  go.addEventListener("focus", () => askSeveralOdds());
  go.addEventListener("mouseleave", leaveOdds);
  update();
  box3.append(go);
  return box3;
}
function choose(actor, o) {
  store7.chosen = store7.chosen && store7.chosen.actor === actor && store7.chosen.do === o.do ? null : { actor, do: o.do, option: o, params: {} };
  hideOdds();
  if (aiming2()) open("map-box");
  keepFocus2(renderActions);
  renderRings();
  showTile();
}
function actAt(tile) {
  if (!aiming2()) return;
  pick({ at: tile });
}
function target(cid) {
  if (store7.chosen && store7.chosen.option.targets && store7.chosen.option.targets.includes(cid)) pick({ target: cid });
}
function act(t) {
  if (!store7.chosen) return;
  store7.chosen.sent = send9({ type: "act", action: actionFor3(t) });
}
function changeAnswered(id) {
  if (!store7.chosen || store7.chosen.sent !== id) return;
  store7.chosen = null;
  hideOdds();
  render();
}
function appendLog(lines) {
  const ol = $7("log");
  for (const line of lines) {
    const li = el7("li", { class: line.tone || null, "data-seq": line.seq }, line.text);
    if (line.rules && line.rules.length) li.append(" ", rulesInfo(line.rules));
    ol.append(li);
  }
  scrollLog();
}
var logScroll = 0;
function scrollLog() {
  if (logScroll) return;
  logScroll = requestAnimationFrame(() => {
    logScroll = 0;
    const ol = $7("log");
    ol.scrollTop = ol.scrollHeight;
  });
}
function ownsBoxes(box3, owns, onChange, key) {
  for (const c of store7.state.combatants) {
    const input = el7("input", { type: "checkbox", value: c.id, checked: owns.includes(c.id), "data-key": `${key}:${c.id}` });
    if (onChange) input.addEventListener("change", onChange);
    const label = el7("label", {});
    label.append(input, document.createTextNode(` ${c.name}`));
    box3.append(label);
  }
}
function checked(box3) {
  return [...box3.querySelectorAll("input:checked")].map((i) => i.value);
}
async function loadLinks() {
  $7("links-box").hidden = false;
  let list;
  try {
    list = await api("/api/links");
  } catch (e) {
    $7("links").replaceChildren();
    notice3(e.message);
    return;
  }
  keepFocus2(() => drawLinks(list));
}
function drawLinks(list) {
  const ul = $7("links");
  ul.replaceChildren();
  for (const link2 of list) {
    const li = el7("li", {});
    li.append(el7("strong", {}, link2.name), document.createTextNode(link2.revoked ? " (revoked)" : ""));
    if (!link2.revoked) {
      const box3 = el7("span", { role: "group", "aria-label": `${link2.name} plays` });
      ownsBoxes(box3, link2.owns, async () => {
        try {
          await api(`/api/links/${link2.id}`, "POST", { owns: checked(box3) });
        } catch (e) {
          notice3(e.message);
        }
      }, `link:${link2.id}:owns`);
      const revoke = el7("button", { type: "button", "data-key": `link:${link2.id}:revoke` }, `Revoke ${link2.name}'s link`);
      revoke.addEventListener("click", async () => {
        try {
          await api(`/api/links/${link2.id}`, "DELETE");
          loadLinks();
        } catch (e) {
          notice3(e.message);
        }
      });
      li.append(" ", box3, " ", revoke, ...row2(link2));
    }
    ul.append(li);
  }
  const owns = $7("link-owns");
  owns.replaceChildren(el7("legend", {}, "Plays"));
  ownsBoxes(owns, [], null, "owns");
}
function setup5() {
  $7("end-turn").addEventListener("click", endTurn);
  const amount = () => {
    const typed = $7("gm-amount").value.trim();
    return { amount: /^\d+$/.test(typed) ? Number(typed) : typed };
  };
  $7("gm-heal").addEventListener("click", () => gmAct("heal", amount()));
  $7("gm-damage").addEventListener("click", () => gmAct("damage", amount()));
  $7("gm-status-add").addEventListener("click", () => gmAct("status", { add: $7("gm-status").value }));
  $7("gm-status-remove").addEventListener("click", () => gmAct("status", { remove: $7("gm-status").value }));
  $7("gm-remove").addEventListener("click", () => gmAct("remove"));
  $7("gm-who").addEventListener("change", () => {
    notePicked = null;
    gmPicked();
    pick2($7("gm-who").value);
  });
  $7("gm-hide").addEventListener("click", () => {
    const c = store7.state.combatants.find((x) => x.id === $7("gm-who").value);
    if (c) gmAct(c.hidden ? "show" : "hide");
  });
  $7("gm-reveal").addEventListener("change", (e) => gmAct("reveal", { on: e.target.checked }));
  $7("gm-dice").addEventListener("click", () => send9({ type: "dice", physical: store7.state.dice !== "physical" }));
  $7("dice-box").addEventListener("submit", (e) => {
    e.preventDefault();
    const face = $7("die-face").value.trim();
    if (!/^\d+$/.test(face)) {
      notice3(`${face || "nothing"} is not a face: give a whole number`);
      return;
    }
    send9({ type: "die", face: Number(face) });
  });
  $7("die-cancel").addEventListener("click", () => send9({ type: "cancel" }));
  $7("gm-note-save").addEventListener("click", () => gmAct("note", { text: $7("gm-note").value }));
  $7("gm-move").addEventListener("click", () => {
    store7.moving = !store7.moving;
    $7("gm-move").setAttribute("aria-pressed", String(store7.moving));
  });
  $7("ranges-toggle").addEventListener("click", () => {
    store7.showRanges = !store7.showRanges;
    $7("ranges-toggle").setAttribute("aria-pressed", String(store7.showRanges));
    if (store7.state) {
      const was = mapView.box();
      renderMap();
      mapView.keep(was);
    }
  });
  $7("map").addEventListener("mousemove", (e) => {
    if (store7.state) pointAt(tileAt(e));
  });
  mapView.attach({
    canDrag: (cid) => Boolean(store7.state && (store7.state.you.role === "gm" || playerMove2(cid))),
    hover: (e, cid) => {
      const was = store7.dragged;
      store7.dragged = cid || null;
      if (was !== store7.dragged) store7.cursor = null;
      pointAt(tileAt(e));
    },
    dragEnd: () => {
      store7.dragged = null;
      if (store7.state) showTile();
    },
    drop: (cid, e) => {
      const [x, y] = tileAt(e);
      const c = placed2(cid);
      if (!c) return;
      if (x < 0 || y < 0 || x >= store7.mapSize[0] || y >= store7.mapSize[1]) {
        notice3("Off the map: drop on a tile");
        return;
      }
      if (c.at[0] === x && c.at[1] === y) return;
      const own = playerMove2(cid);
      if (own) {
        send9({ type: "act", action: { actor: cid, do: "move", to: [x, y], ...own } });
        return;
      }
      send9({ type: "act", action: { actor: cid, do: "move", to: [x, y] } });
    }
  });
  $7("map").addEventListener("keydown", mapKey);
  $7("map").addEventListener("click", (e) => {
    if (e.target.closest(".token")) return;
    const [x, y] = tileAt(e);
    if (x < 0 || y < 0 || x >= store7.mapSize[0] || y >= store7.mapSize[1]) return;
    if (!store7.moving) {
      actAt([x, y]);
      return;
    }
    store7.moving = false;
    $7("gm-move").setAttribute("aria-pressed", "false");
    gmAct("move", { to: [x, y] });
  });
  $7("undo").addEventListener("click", () => send9({ type: "undo" }));
  $7("redo").addEventListener("click", () => send9({ type: "redo" }));
  $7("new-link").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api("/api/links", "POST", { name: $7("link-name").value, owns: checked($7("link-owns")) });
      await loadLinks();
      $7("link-name").value = "";
    } catch (err) {
      notice3(err.message);
    }
  });
  $7("export").addEventListener("click", async (e) => {
    e.preventDefault();
    const r = await fetch("/api/export", { headers: { Authorization: `Bearer ${token2}` } });
    const a = el7("a", { href: URL.createObjectURL(await r.blob()), download: `${store7.state.encounter}.yaml` });
    a.click();
  });
  for (const id of ["log-md", "log-md-gm"]) {
    $7(id).addEventListener("click", async (e) => {
      e.preventDefault();
      const r = await fetch($7(id).getAttribute("href"), { headers: { Authorization: `Bearer ${token2}` } });
      if (!r.ok) {
        notice3((await r.json()).message);
        return;
      }
      const name6 = (r.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
      el7("a", { href: URL.createObjectURL(await r.blob()), download: name6 ? name6[1] : "log.md" }).click();
    });
  }
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if (typing) return;
    if (e.key === "n" && !e.ctrlKey && !e.metaKey) endTurn();
    else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
      e.preventDefault();
      send9({ type: e.shiftKey ? "redo" : "undo" });
    } else if ((e.key === "+" || e.key === "=") && !e.ctrlKey && !e.metaKey) mapView.zoomBy(mapView.STEP);
    else if (e.key === "-" && !e.ctrlKey && !e.metaKey) mapView.zoomBy(1 / mapView.STEP);
    else if (e.key === "0" && !e.ctrlKey && !e.metaKey) mapView.reset();
    else if (e.key === "Escape") {
      store7.chosen = null;
      hideOdds();
      renderActions();
      renderRings();
      showTile();
    }
  });
}
var phoneZoomed = false;
function phoneZoom() {
  if (phoneZoomed) return;
  phoneZoomed = true;
  const z = mapLayout.touchZoom(TILE);
  if (z <= 1) return;
  const o = placed2(store7.state.turn) || store7.state.combatants.find((c) => c.mine && c.at) || null;
  mapView.zoomBy(z);
  if (o) {
    const b = mapView.box();
    mapView.panBy(o.at[0] * TILE + TILE / 2 - (b[0] + b[2] / 2), o.at[1] * TILE + TILE / 2 - (b[1] + b[3] / 2));
  }
}
function drawRuler(o, tile) {
  const line = $7("ruler");
  if (!line) return;
  if (!o || !tile || o.at[0] === tile[0] && o.at[1] === tile[1]) {
    line.setAttribute("display", "none");
    return;
  }
  const c = (v) => v * TILE + TILE / 2;
  line.setAttribute("x1", c(o.at[0]));
  line.setAttribute("y1", c(o.at[1]));
  line.setAttribute("x2", c(tile[0]));
  line.setAttribute("y2", c(tile[1]));
  line.setAttribute("display", "inline");
}
function endTurn() {
  const { state } = store7;
  if (!state) return;
  const actor = state.turn;
  if (state.you.role !== "gm" && !state.you.owns.includes(actor)) return;
  send9({ type: "act", action: { actor, do: "end_turn" } });
}
setup();
setup5();
setup2();
setup3();
setup4((id) => {
  if (id === "map-box") render();
  if (id === "log-box") scrollLog();
});
connect(handle);
export {
  connect,
  handle,
  link,
  notice3 as notice,
  render,
  send9 as send,
  showTile,
  store7 as store
};
