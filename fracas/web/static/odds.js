// fracas serve: the exact odds before a roll, asked of the server over the page's socket
// (app.js's send) and shown as numbers and a bar chart: a target's when it is hovered or
// focused, every creature's in the blast when an explosive is aimed at a tile.
"use strict";

let asked = null; // the odds question in flight or shown: {id, at: "seq|question", show}
const oddsCache = new Map(); // "seq|question" -> odds
const askedKeys = new Map(); // odds question id -> its key (for the cache)

// An odds question already answered on this record (drawn from the cache) or in flight:
// nothing to send.
function answered(action, show) {
  const key = JSON.stringify(action);
  const at = `${seq}|${key}`;
  if (asked && asked.at === at) return true;
  const cached = oddsCache.get(at);
  if (!cached) return false;
  asked = { id: null, at, show };
  show(cached);
  return true;
}

// Ask the server the odds of `action`, with a spinner saying `what`; `show` draws them
// when they come (app.js's handler calls it).
function ask(action, what, show) {
  if (answered(action, show)) return;
  const key = JSON.stringify(action);
  const box = $("odds");
  box.hidden = false;
  box.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), el("span", {}, ` working out the odds of ${what}…`));
  asked = { id: send({ type: "odds", action }), at: `${seq}|${key}`, show };
  askedKeys.set(asked.id, key);
}

function askOdds(t) {
  if (!chosen || !chosen.option.targets || !chosen.option.targets.includes(t)) return;
  ask(actionFor(t), `${title(chosen.do)} ${name(t)}`, (odds) => showOdds(odds, t));
}

// An explosive aimed at a tile: hovering (or the tile cursor on) a tile asks the odds of
// the throw there, and shows every creature it may reach (the scatter's too).
let tileTimer = null;
function askTileOdds(tile) {
  clearTimeout(tileTimer);
  if (!aiming() || !tile) return;
  const action = actionFor(null, tile);
  const show = (odds) => showBlastOdds(odds, tile);
  if (answered(action, show)) return;
  const what = `${title(chosen.do).toLowerCase()} at ${tile[0]}, ${tile[1]}`;
  tileTimer = setTimeout(() => { if (aiming()) ask(action, what, show); }, 120);
}

// Several targets ticked (app.js's severalBox): the odds of the action on all of them,
// in the order ticked.
function askSeveralOdds() {
  if (!chosen || !chosen.several || chosen.several.length < 2) return;
  const several = [...chosen.several];
  const heading = `${title(chosen.do)} ${several.map(name).join(", ")}`;
  ask(severalAction(), heading, (odds) => showEachOdds(odds, heading, several));
}

function showBlastOdds(odds, tile) {
  showEachOdds(odds, `${title(chosen ? chosen.do : "")} at ${tile[0]}, ${tile[1]}`);
}

// Every creature's odds of one action, a block each (a blast, several targets: in the
// order they were ticked).
function showEachOdds(odds, heading, order = []) {
  const box = $("odds");
  box.hidden = false;
  box.replaceChildren(el("strong", {}, `${heading}: ${oddsKind(odds)}`));
  const listed = order.filter((cid) => cid in odds.combatants);
  const ids = [...listed, ...Object.keys(odds.combatants).filter((cid) => !listed.includes(cid))];
  if (!ids.length) { box.append(el("p", {}, "no creature it may reach")); return; }
  for (const cid of ids) {
    const block = el("div", { class: "blast-odds", "data-id": cid });
    block.append(el("strong", {}, name(cid)));
    oddsBody(block, odds.combatants[cid]);
    box.append(block);
  }
  box.append(el("p", { class: "small" }, oddsFoot(odds)));
}

function pct(p) { return `${(100 * p).toFixed(1)}%`; }

// Exact, or (past the time budget) an estimate from seeded samples, said as such.
function oddsKind(odds) { return odds.estimate ? "estimated odds" : "exact odds"; }
function oddsFoot(odds) {
  return odds.estimate
    ? `an estimate from ${odds.estimate.samples} seeded samples: too many dice paths to count in time`
    : `${odds.paths} dice paths, exact`;
}

function showOdds(odds, t) {
  const box = $("odds");
  box.hidden = false;
  box.replaceChildren();
  const o = odds.combatants[t];
  box.append(el("strong", {}, `${title(chosen ? chosen.do : "")} ${name(t)}: ${oddsKind(odds)}`));
  if (!o) { box.append(el("p", {}, "it cannot affect them")); return; }
  oddsBody(box, o);
  box.append(el("p", { class: "small" }, oddsFoot(odds)));
}

// One creature's odds: hit, mean, down (where this page sees its HP), damage bars.
function oddsBody(box, o) {
  const parts = [];
  if (o.hit !== null) parts.push(`hit ${pct(o.hit)}`);
  parts.push(`mean damage ${o.mean.toFixed(2)}`);
  if (o.down !== undefined) parts.push(`down ${pct(o.down)}`);
  box.append(el("p", { class: "odds-line" }, parts.join(" · ")));
  const dmg = Object.entries(o.damage).map(([d, p]) => [Number(d), p]).sort((a, b) => a[0] - b[0]).slice(0, 16);
  const top = Math.max(...dmg.map(([, p]) => p));
  const bars = el("div", { class: "bars", role: "img", "aria-label": "damage: " + dmg.map(([d, p]) => `${d} ${pct(p)}`).join(", ") });
  const labels = el("div", { class: "bars-labels", "aria-hidden": "true" });
  for (const [d, p] of dmg) {
    bars.append(el("span", { style: `height:${Math.max(1, Math.round(40 * p / top))}px`, title: `${d} damage: ${pct(p)}` }));
    labels.append(el("span", {}, String(d)));
  }
  box.append(bars, labels);
}

function hideOdds() {
  clearTimeout(tileTimer);
  asked = null;
  $("odds").hidden = true;
}

