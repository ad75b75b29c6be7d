// fracas serve: the exact odds before a roll, asked of the server over the page's socket
// (app.js's send) and shown as numbers and a bar chart: a target's when it is hovered or
// focused, every creature's in the blast when an explosive is aimed at a tile.
import { $, el } from "./dom.js";
import { store, send, name, title, actionFor, aiming, severalAction } from "./state.js";
import { closePreview } from "./preview.js";

let asked = null; // the odds question in flight or shown: {id, at: "seq|question", show}
const oddsCache = new Map(); // "seq|question" -> odds
const askedKeys = new Map(); // odds question id -> its key (for the cache)

// An odds question already answered on this record (drawn from the cache) or in flight:
// nothing to send.
function answered(action, show) {
  const key = JSON.stringify(action);
  const at = `${store.seq}|${key}`;
  if (asked && asked.at === at) return true;
  const cached = oddsCache.get(at);
  if (!cached) return false;
  asked = { id: null, at, show };
  show(cached);
  return true;
}

// Ask the server the odds of `action`, with a spinner saying `what`; `show` draws them
// when they come (app.js's handler calls it).
export function ask(action, what, show) {
  if (answered(action, show)) return;
  const key = JSON.stringify(action);
  const box = $("odds");
  box.hidden = false;
  box.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), el("span", {}, ` working out the odds of ${what}…`));
  asked = { id: send({ type: "odds", action }), at: `${store.seq}|${key}`, show };
  askedKeys.set(asked.id, key);
}

export function askOdds(t) {
  const { chosen } = store;
  if (!chosen || !chosen.option.targets || !chosen.option.targets.includes(t)) return;
  ask(actionFor(t), `${title(chosen.do)} ${name(t)}`, (odds) => showOdds(odds, t));
}

// An explosive aimed at a tile: hovering (or the tile cursor on) a tile asks the odds of
// the throw there, and shows every creature it may reach (the scatter's too).
let tileTimer = null;
export function askTileOdds(tile) {
  clearTimeout(tileTimer);
  if (!aiming() || !tile) return;
  const action = actionFor(null, tile);
  const show = (odds) => showBlastOdds(odds, tile);
  if (answered(action, show)) return;
  const what = `${title(store.chosen.do).toLowerCase()} at ${tile[0]}, ${tile[1]}`;
  tileTimer = setTimeout(() => { if (aiming()) ask(action, what, show); }, 120);
}

// Several targets ticked (app.js's severalBox): the odds of the action on all of them,
// in the order ticked.
export function askSeveralOdds() {
  const { chosen } = store;
  if (!chosen || !chosen.several || chosen.several.length < 2) return;
  const several = [...chosen.several];
  const heading = `${title(chosen.do)} ${several.map(name).join(", ")}`;
  ask(severalAction(), heading, (odds) => showEachOdds(odds, heading, several));
}

export function showBlastOdds(odds, tile) {
  const { chosen } = store;
  showEachOdds(odds, `${title(chosen ? chosen.do : "")} at ${tile[0]}, ${tile[1]}`);
}

// Every creature's odds of one action, a block each (a blast, several targets: in the
// order they were ticked).
function showEachOdds(odds, heading, order = []) {
  const box = $("odds");
  box.hidden = false;
  box.replaceChildren(el("strong", {}, `${heading}: ${oddsKind(odds)}`), ...costLines(odds.costs));
  const listed = order.filter((cid) => cid in odds.combatants);
  const ids = [...listed, ...Object.keys(odds.combatants).filter((cid) => !listed.includes(cid))];
  if (!ids.length) { box.append(el("p", {}, "no creature it may reach")); return; }
  for (const cid of ids) {
    const block = el("div", { class: "blast-odds", "data-id": cid });
    block.append(el("strong", {}, name(cid)));
    oddsBody(block, odds.combatants[cid], exactOf(odds, cid));
    box.append(block);
  }
  box.append(el("p", { class: "small" }, oddsFoot(odds)));
}

function pct(p) { return `${(100 * p).toFixed(1)}%`; }

// What the action spends before any die, from the rules' own decision as the server
// sends it (`costs`, issue 35): "Costs 4 AP (Vera: 9 → 5 AP)", "Uses 1 Overwatch shot
// (Vera: 4 → 3 left)"; an overflowed action's debt said too. One line each.
export function costLines(costs) {
  return (costs || []).map((c) => {
    const owed = c.owed ? `, ${c.owed} owed from the next turn` : "";
    const said = c.uses
      ? `Uses ${c.spent} ${c.what} (${name(c.actor)}: ${c.before} → ${c.after} left)`
      : `Costs ${c.spent} ${c.what} (${name(c.actor)}: ${c.before} → ${c.after} ${c.what}${owed})`;
    return el("p", { class: "cost-line" }, said);
  });
}

// Exact, or (past the work budget) an estimate from seeded samples, said as such; one
// the wall-time bound cut short says so.
function oddsKind(odds) { return odds.estimate ? "estimated odds" : "exact odds"; }
function oddsFoot(odds) {
  if (!odds.estimate) return `${odds.paths} dice paths, exact`;
  const samples = `an estimate from ${odds.estimate.samples.toLocaleString("en")} seeded samples`;
  return odds.estimate.cut_by_time
    ? `${samples}, cut short by the time limit`
    : `${samples}: too many dice paths to count exactly`;
}

function showOdds(odds, t) {
  const { chosen } = store;
  const box = $("odds");
  box.hidden = false;
  box.replaceChildren();
  const o = odds.combatants[t];
  box.append(el("strong", {}, `${title(chosen ? chosen.do : "")} ${name(t)}: ${oddsKind(odds)}`));
  box.append(...costLines(odds.costs)); // before Confirm: what it spends, what is left
  if (!o) { box.append(el("p", {}, "it cannot affect them")); return; }
  oddsBody(box, o, exactOf(odds, t));
  // the other side of a contest (tier-duel: whoever wins it deals the damage): every
  // other creature the action may hurt, the actor's own risk first
  const actor = chosen ? chosen.actor : null;
  const others = Object.keys(odds.combatants).filter((cid) => cid !== t && risky(odds.combatants[cid]));
  others.sort((a, b) => (b === actor) - (a === actor));
  for (const cid of others) {
    const block = el("div", { class: "blast-odds", "data-id": cid });
    block.append(el("strong", {}, cid === actor ? `${name(cid)}'s own risk` : name(cid)));
    oddsBody(block, odds.combatants[cid], exactOf(odds, cid));
    box.append(block);
  }
  box.append(el("p", { class: "small" }, oddsFoot(odds)));
}

function exactOf(odds, cid) { return (odds.exact && odds.exact.combatants && odds.exact.combatants[cid]) || null; }
function risky(o) { return Boolean(o && (o.hit || o.mean > 0)); }

// One creature's odds: hit, mean, down (where this page sees its HP), then the damage
// as bars and as text, every chance a percentage to a tenth, a mean to two decimals;
// the exact figures (fractions, where the odds have them) behind an "Exact figures"
// line that opens on a tap, a click or a key. Past BUCKETS values the rest is one tail
// bucket "≥ N" with its mass.
const BUCKETS = 16;
function oddsBody(box, o, exact = null) {
  const parts = [];
  if (o.hit !== null) parts.push(`hit ${pct(o.hit)}`);
  parts.push(`mean damage ${o.mean.toFixed(2)}`);
  if (o.down !== undefined) parts.push(`down ${pct(o.down)}`);
  box.append(el("p", { class: "odds-line" }, parts.join(" · ")));
  const buckets = damageBuckets(o.damage, exact && exact.damage);
  const top = Math.max(...buckets.map((b) => b.p));
  const bars = el("div", { class: "bars", "aria-hidden": "true" });
  const labels = el("div", { class: "bars-labels", "aria-hidden": "true" });
  for (const b of buckets) {
    const bar = el("span");
    bar.style.height = `${Math.max(1, Math.round(40 * b.p / top))}px`; // CSSOM: no style attribute under the CSP
    bars.append(bar);
    labels.append(el("span", {}, b.label));
  }
  const list = el("ul", { class: "dist", "aria-label": "damage, each value's chance" });
  for (const b of buckets) list.append(el("li", {}, `${b.label}: ${pct(b.p)}`));
  box.append(bars, labels, list);
  if (exact) box.append(exactFigures(o, exact, buckets));
}

// The exact figures of one creature's odds, behind a <details> "Exact figures".
function exactFigures(o, exact, buckets) {
  const box = el("details", { class: "exact small" });
  box.append(el("summary", {}, "Exact figures"));
  const list = el("ul", { class: "exact-figures" });
  if (o.hit !== null && exact.hit) list.append(el("li", {}, `hit: ${fractionWords(exact.hit)}`));
  if (exact.mean) list.append(el("li", {}, `mean damage: ${fractionWords(exact.mean)}`));
  if (o.down !== undefined && exact.down) list.append(el("li", {}, `down: ${fractionWords(exact.down)}`));
  for (const b of buckets) if (b.exact) list.append(el("li", { "data-label": b.label }, `${b.label}: ${fractionWords(b.exact)}`));
  box.append(list);
  return box;
}

// An exact fraction "a/b" as people read it: itself where short, else (more than
// FRACTION_DIGITS digits in all) its decimal to 6 places, "≈ 0.100309".
const FRACTION_DIGITS = 12;
export function fractionWords(f) {
  const [a, b] = String(f).split("/");
  if (b === undefined || a.replace("-", "").length + b.length <= FRACTION_DIGITS) return String(f);
  let n = BigInt(a);
  const d = BigInt(b);
  const sign = n < 0n ? "-" : "";
  if (n < 0n) n = -n;
  const scaled = (n * 2000000n + d) / (2n * d); // n/d to 6 places, rounded half up
  const whole = scaled / 1000000n;
  const frac = String(scaled % 1000000n).padStart(6, "0");
  return `≈ ${sign}${whole}.${frac}`;
}

// The damage values in order, the first BUCKETS - 1 each, the rest one "≥ N" bucket.
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

// "a/b" + "c/d", reduced, in BigInt (the tail bucket's exact mass).
function addFractions(x, y) {
  const [a, b] = x.split("/").map(BigInt), [c, d] = (y || "0/1").split("/").map(BigInt);
  let [n, m] = [a * d + c * b, b * d];
  const gcd = (u, v) => (v === 0n ? (u < 0n ? -u : u) : gcd(v, u % v));
  const g = gcd(n, m) || 1n;
  [n, m] = [n / g, m / g];
  return `${n}/${m}`;
}

export function hideOdds() {
  clearTimeout(tileTimer);
  closePreview(); // preview.js
  asked = null;
  $("odds").hidden = true;
}

// A tile's odds not asked after all (a preview asks at once).
export function stopTileOdds() { clearTimeout(tileTimer); }

// The odds asked are of a record gone: the next question is asked again (preview.js).
export function forgetAsked() { asked = null; }

// The server's answer to an odds question (app.js's handler): kept, and shown where it
// is the one asked last.
export function heardOdds(m) {
  const key = askedKeys.get(m.id);
  askedKeys.delete(m.id);
  if (key) oddsCache.set(`${m.seq}|${key}`, m.odds);
  if (asked && m.id === asked.id) asked.show(m.odds);
}

// A refusal of change `id`: the odds box closes where it was that question's.
export function refusedOdds(id) {
  if (asked && id === asked.id) hideOdds();
}

