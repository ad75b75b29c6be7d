// fracas serve: the page. Everything it shows comes projected from the server for
// this page's link; everything it does goes back as a message the server checks.
// No rule and no permission is decided here: the options say what may be done.
//
// The page's one entry (index.html loads it as a module): it imports every panel, keeps
// the one state (state.js) from the socket's messages, and draws every panel at each
// sync inside keepFocus (dom.js): a control drawn again keeps the focus by its data-key.

import { $, el, keepFocus } from "./dom.js";
import {
  TILE, token, store, link, connect, send, changes, RETRIES, notice, name, hpText, title, words, valueWords, api,
  placed, findOption, actionFor, aiming, playerMove,
} from "./state.js";
import { sideColour, sideInk } from "./sides.js";
import { mapView } from "./mapview.js";
import { mapLayout } from "./layout.js";
import { askOdds, askTileOdds, askSeveralOdds, hideOdds, heardOdds, refusedOdds, costLines } from "./odds.js";
import * as preview from "./preview.js";
import { pick, paramsChanged, leaveOdds } from "./preview.js";
import { moveCosts } from "./movecost.js";
import * as winbar from "./winbar.js";
import * as advisor from "./advisor.js";
import * as tableRules from "./table.js";
import * as roster from "./roster.js";
import * as links from "./links.js";
import * as folds from "./folds.js";

export { store, link, connect, send, notice }; // the page's parts, for a test's import()

function hpColour(c) {
  // blue: above half; yellow: a quarter to half; vermillion: below a quarter
  const f = c.max_hp ? c.hp / c.max_hp : 0;
  return f > 0.5 ? "#0072b2" : f > 0.25 ? "#f0e442" : "#d55e00";
}

// Tiles between a and b by the ruleset's metric (the state's "metric"); mirrors
// fracas/grid.py's chebyshev and manhattan, the only metrics a ruleset may name.
const METRICS = {
  chebyshev: (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])),
  manhattan: (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]),
};

function distance(a, b) { return (METRICS[store.state.metric] || METRICS.chebyshev)(a, b); }

function handle(m) {
  if (m.type === "sync") {
    const first = store.state === null;
    if (!first && m.seq !== store.seq && !changes.size) notice(""); // a refusal is not pinned through later turns
    store.state = m.state;
    store.seq = m.seq;
    store.options = m.options;
    document.body.dataset.seq = String(store.seq); // the record this page shows (tests wait on it)
    appendLog(m.lines);
    if (store.chosen && !findOption(store.chosen.actor, store.chosen.do)) store.chosen = null;
    keepFocus(() => {
      folds.follow(store.state); // folds.js: a player's phone folds all but her turn
      render();
      // every panel follows the table, in one redraw (the focus kept by key)
      preview.follow();
      advisor.follow(store.state);
      links.follow(store.state);
      tableRules.follow(store.state);
      roster.follow(store.state);
      folds.follow(store.state); // the panels made since (the advisor's) folded too
    });
    if (first && store.state.you.role === "gm") loadLinks();
    if (store.state.you.role === "gm" && (store.state.outcome || $("party-box"))) import("./party.js").then((m) => m.follow(store.state)); // issue 36: the party, once the fight is over
  } else if (m.type === "cost") {
    moveCosts.heard(m); // movecost.js: a dragged token's move, before the drop
  } else if (m.type === "refused") {
    if (moveCosts.refused(m)) return;
    const change = changes.get(m.id);
    changes.delete(m.id);
    if (change && m.code === "store_unavailable" && change[1] < RETRIES) {
      // Nothing was written: the same change again, a little later (the store restarts).
      notice(`the table's store is unavailable; trying again (${change[1] + 1} of ${RETRIES})`);
      setTimeout(() => send(change[0], change[1] + 1), 500 * (change[1] + 1));
      return;
    }
    notice(m.words || m.message); // people's words (the code and message are for tools)
    if (m.words && m.rules && m.rules.length) $("notice").append(" ", rulesInfo(m.rules));
    advisor.refused(m);
    if (roster.sheetLoaded) roster.sheetLoaded.refused(m); // an add from the sheet form: at its field
    refusedOdds(m.id);
  } else if (m.type === "asked") {
    notice("");
    changeAnswered(m.id);
  } else if (m.type === "requested") {
    changes.delete(m.id);
    notice("asked the game master: the action waits for the answer");
    changeAnswered(m.id);
  } else if (m.type === "done") {
    changes.delete(m.id);
    notice("");
    changeAnswered(m.id);
    if (roster.sheetLoaded) roster.sheetLoaded.done(m);
  } else if (m.type === "odds") {
    heardOdds(m);
  } else if (m.type === "winbar") {
    winbar.draw(m);
    folds.follow(null); // the win bar's panel, made at its first figure
  } else if (m.type === "advice") {
    advisor.heard(m);
  }
}
export { handle };

// --- drawing ----------------------------------------------------------------------

export function render() {
  if (!store.state) return;
  keepFocus(draw);
}

function draw() {
  const { state } = store;
  $("title").textContent = `${state.encounter} · ${state.title}`;
  document.title = `fracas · ${state.encounter}`;
  const you = state.you.role === "gm" ? "game master" : state.you.name;
  const whose = state.turn_words || (state.turn === null ? "a turn this page does not see" : `${name(state.turn)}'s turn`); // the server's words first
  // once the fight has an outcome, the header says it instead of the turn (issue 35)
  $("turn").textContent = state.outcome && state.outcome.words ? `${state.outcome.words} (you: ${you})`
    : `Round ${state.round}: ${whose}; next ${name(state.next)} (you: ${you})`;
  if (state.ranges_button && $("ranges-toggle").textContent !== state.ranges_button) $("ranges-toggle").textContent = state.ranges_button;
  renderMap();
  renderOrder();
  renderActions();
  renderDice();
  renderGm();
}

// --- physical dice: the table asks for each die, the page gives it -----------------

let dieAsked = null; // the label of the die the input is for
function renderDice() {
  const p = store.state.pending;
  const box = $("dice-box");
  box.hidden = !p;
  if (!p) { dieAsked = null; return; }
  const who = p.waiting || "the game master"; // the server's words
  $("die-question").textContent = p.label
    ? (p.yours ? `${p.action_words || p.action}: ${p.question}` : `${p.action_words || p.action}: waiting for ${who}: ${p.question}`)
    : p.question;
  $("die-row").hidden = !p.yours && !p.cancel;
  $("die-face").hidden = $("die-give").hidden = !p.yours;
  $("die-face").closest("label").hidden = !p.yours;
  $("die-cancel").hidden = !p.cancel;
  if (p.yours) {
    $("die-face").max = p.sides;
    $("die-face").setAttribute("aria-label", p.question);
    if (dieAsked !== `${p.label}|${JSON.stringify(p.given)}`) {
      dieAsked = `${p.label}|${JSON.stringify(p.given)}`;
      $("die-face").value = "";
      $("die-face").focus();
    }
  }
}

function renderGm() {
  const { state } = store;
  const box = $("gm-box");
  box.hidden = state.you.role !== "gm";
  if (box.hidden) return;
  $("gm-dice").setAttribute("aria-pressed", String(state.dice === "physical"));
  const sel = $("gm-who");
  const was = sel.value || state.turn;
  sel.replaceChildren(...state.combatants.map((c) => el("option", { value: c.id, selected: c.id === was }, c.name + (c.hidden ? " (hidden)" : ""))));
  gmPicked();
}

// The game master's controls follow the combatant picked: hide or show, its note.
let notePicked = null;
function gmPicked() {
  const c = store.state.combatants.find((x) => x.id === $("gm-who").value);
  if (!c) return;
  $("gm-hide").textContent = c.hidden ? "Show to players" : "Hide from players";
  $("gm-hide").setAttribute("aria-pressed", String(Boolean(c.hidden)));
  // a hidden one may be marked to show itself as its turn begins (the mark is the GM's only)
  $("gm-reveal-row").hidden = !c.hidden;
  $("gm-reveal").checked = Boolean(c.reveal_on_turn);
  const note = $("gm-note");
  if (notePicked !== c.id || document.activeElement !== note) note.value = c.note || "";
  notePicked = c.id;
}

function gmAct(what, params = {}) {
  send({ type: "act", action: { actor: $("gm-who").value, do: what, ...params } });
}

function tileAt(e) {
  const svg = $("map");
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  return [Math.floor(p.x / TILE), Math.floor(p.y / TILE)];
}

function renderMap() {
  const { state } = store;
  const placed = state.combatants.filter((c) => c.at);
  let w = 8, h = 6;
  if (state.bounds) [w, h] = state.bounds;
  for (const c of placed) { w = Math.max(w, c.at[0] + 2); h = Math.max(h, c.at[1] + 2); }
  [w, h] = ringsFit(w, h);
  const svg = $("map");
  mapView.setFull([-4, -4, w * TILE + 8, h * TILE + 8]); // labels stay on the grid (layout.js)
  const grid = $("grid-rect");
  grid.setAttribute("width", w * TILE);
  grid.setAttribute("height", h * TILE);
  $("clip-rect").setAttribute("width", w * TILE); // the rings are drawn on the grid only
  $("clip-rect").setAttribute("height", h * TILE);
  store.mapSize = [w, h];
  const g = $("tokens");
  g.replaceChildren();
  for (const c of placed) g.append(tokenOf(c));
  // folded (folds.js), the map is measured and placed when it is unfolded
  if (!folds.folded("map-box")) {
    mapLayout.place(w * TILE, h * TILE); // layout.js: no label over another
    phoneZoom();
  }
  renderRings();
  showTile();
}

// --- range rings and the tile counter ---------------------------------------------

// Whom the tile counter measures from: the token dragged, the chosen action's actor,
// else the acting one.
function origin() {
  return placed(store.dragged) || placed(store.chosen && store.chosen.actor) || placed(store.state.turn);
}

// Whose rings are drawn: the counter's combatant when this page is sent its ranges (the
// game master: every combatant's; a player: its own), else the player's first own one.
function ringsOrigin() {
  const o = origin();
  if (o && o.ranges) return o;
  return store.state.combatants.find((c) => c.mine && c.at && c.ranges) || null;
}

// --- the rings the rules name beside the hand's ranges (issue 22 item 6: DC-A5's throw
// range, 15 and 20 tiles): drawn with the ranges, and the map grows to show them all
function allRings(c) { return [...(c.ranges || []), ...(c.rings || []).map((r) => ({ ...r, mark: true }))]; }

function ringsFit(w, h) {
  const c = store.showRanges && store.state ? ringsOrigin() : null;
  if (!c) return [w, h];
  const far = Math.max(0, ...allRings(c).map((r) => r.tiles));
  return [Math.max(w, c.at[0] + far + 1), Math.max(h, c.at[1] + far + 1)];
}

function renderRings() {
  const { state } = store;
  const g = $("rings");
  const legend = $("ranges-legend");
  g.replaceChildren();
  const c = store.showRanges ? ringsOrigin() : null;
  g.setAttribute("display", c ? "inline" : "none");
  legend.hidden = !store.showRanges;
  if (!store.showRanges) return;
  const rings = c ? allRings(c) : [];
  if (!c || !rings.length) {
    legend.textContent = "No ranges to show for " + (c ? c.name : "this page");
    return;
  }
  legend.textContent = `Ranges of ${c.name} (${state.metric}): ` + c.ranges.map((r) => `${r.label} ${r.tiles}`).join(", ") + " tiles" +
    (c.rings && c.rings.length ? `; rings: ${c.rings.map((r) => `${r.label} ${r.tiles}`).join(", ")}` : "");
  const [X, Y] = [c.at[0] * TILE + TILE / 2, c.at[1] * TILE + TILE / 2];
  const [W, H] = [store.mapSize[0] * TILE, store.mapSize[1] * TILE];
  const labelled = new Map(); // tiles -> the label already drawn at that ring's edge
  for (const r of rings) {
    const half = (r.tiles + 0.5) * TILE; // to the outer edge of the farthest tile
    const attrs = { class: r.mark ? "range-ring mark" : "range-ring", "data-label": r.label, "data-tiles": r.tiles };
    const ring = state.metric === "manhattan"
      ? el("svg:polygon", { ...attrs, points: `${X},${Y - half} ${X + half},${Y} ${X},${Y + half} ${X - half},${Y}` })
      : el("svg:rect", { ...attrs, x: X - half, y: Y - half, width: 2 * half, height: 2 * half });
    ring.append(el("svg:title", {}, `${r.label}: ${r.tiles} tiles`));
    g.append(ring);
    // the label on the first side of the ring inside the map (the legend lists them all)
    const left = Math.max(4, X - half + 4); // a square's edge (a diamond's: its centre)
    const edge = state.metric === "manhattan" ? X : left;
    const spots = [[edge, Y - half + 11, edge === X ? "middle" : "start"], [edge, Y + half - 4, edge === X ? "middle" : "start"],
      [X + half - 4, Y + 3, "end"], [X - half + 4, Y + 3, "start"]];
    const spot = spots.find(([x, y]) => x >= 0 && x <= W && y >= 8 && y <= H);
    if (spot && labelled.has(r.tiles)) {
      labelled.get(r.tiles).textContent += ` · ${r.mark && /\d/.test(r.label) ? r.label : `${r.label} ${r.tiles}`}`; // one edge, one label
    } else if (spot) {
      const text = el("svg:text", { class: "range-label", x: spot[0], y: spot[1], "text-anchor": spot[2] },
        r.mark && /\d/.test(r.label) ? r.label : `${r.label} ${r.tiles}`);
      labelled.set(r.tiles, text);
      g.append(text);
    }
  }
}

export function showTile() {
  const box = $("cursor");
  $("map").classList.toggle("aiming", aiming());
  if (!store.cursor) { box.setAttribute("display", "none"); return; }
  box.setAttribute("display", "inline");
  box.setAttribute("x", store.cursor[0] * TILE);
  box.setAttribute("y", store.cursor[1] * TILE);
  const o = origin();
  let text = `Tile ${store.cursor[0]}, ${store.cursor[1]}`;
  if (o) {
    const d = distance(o.at, store.cursor);
    text += `: ${d} ${d === 1 ? "tile" : "tiles"} from ${o.name}`;
    if (o.ranges && o.ranges.length && d > 0) {
      const band = o.ranges.find((r) => d <= r.tiles);
      text += band ? `, within ${band.label} (${band.tiles})` : ", beyond every range";
    }
  }
  if (aiming()) {
    text += ` · click or press Enter to ${title(store.chosen.do).toLowerCase()} here`;
    askTileOdds(store.cursor);
  }
  const cost = store.dragged ? moveCosts.line(store.dragged, store.cursor) : null; // the table's figure
  if (cost) text += cost.text;
  box.classList.toggle("refused", Boolean(cost && cost.refused)); // a tile it cannot pay
  drawRuler(o, store.cursor);
  const info = $("tile-info");
  if (info.textContent !== text) info.textContent = text;
}

function pointAt(t) {
  if (!t || t[0] < 0 || t[1] < 0 || t[0] >= store.mapSize[0] || t[1] >= store.mapSize[1]) return;
  if (store.cursor && store.cursor[0] === t[0] && store.cursor[1] === t[1]) return;
  store.cursor = t;
  showTile();
}

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function mapKey(e) {
  if (!store.state) return;
  const step = ARROWS[e.key];
  if (step && e.shiftKey) {
    e.preventDefault();
    mapView.panBy(step[0] * TILE, step[1] * TILE);
  } else if (step) {
    e.preventDefault();
    const from = store.cursor || (origin() ? origin().at : [0, 0]);
    const t = [Math.min(store.mapSize[0] - 1, Math.max(0, from[0] + step[0])), Math.min(store.mapSize[1] - 1, Math.max(0, from[1] + step[1]))];
    store.cursor = null;
    pointAt(t);
  } else if ((e.key === "Enter" || e.key === " ") && e.target === $("map") && store.cursor && aiming()) {
    e.preventDefault();
    actAt(store.cursor);
  }
}

function tokenOf(c) {
  const [x, y] = [c.at[0] * TILE + TILE / 2, c.at[1] * TILE + TILE / 2];
  const statuses = c.statuses.map((s) => s.label + (s.value ? ` (${s.value})` : "")).join(", ");
  const label = `${c.name}, ${c.side}, HP ${hpText(c)}${c.down ? ", down" : ""}${c.acting ? ", acting now" : ""}${c.hidden ? ", hidden from players" : ""}` +
    (statuses ? `, ${statuses}` : "") + ` at ${c.at[0]}, ${c.at[1]}`;
  const t = el("svg:g", {
    class: `token${c.acting ? " acting" : ""}${c.down ? " down" : ""}${c.hidden ? " hidden" : ""}`,
    tabindex: "0", role: "button", "aria-label": label, "data-id": c.id, "data-key": `token:${c.id}`, "data-cx": x, "data-cy": y,
  });
  t.append(el("svg:title", {}, label));
  t.append(el("svg:circle", { class: "hit", cx: x, cy: y, r: TILE / 2 })); // the whole tile takes a tap
  if (c.acting) t.append(el("svg:circle", { class: "ring", cx: x, cy: y, r: 18 }));
  t.append(el("svg:circle", { class: "disc", cx: x, cy: y, r: 14, fill: sideColour(c.side) }));
  t.append(el("svg:text", { x, y: y + 4, fill: sideInk(c.side), class: "name" }, c.name.slice(0, 2)));
  // HP bar and its number or label, under the token
  const bw = 34, bx = x - bw / 2, by = y + 12;
  t.append(el("svg:rect", { x: bx, y: by, width: bw, height: 5, fill: "#eee", stroke: "#555", "stroke-width": 0.5 }));
  if (c.hp_shown === "exact" && c.max_hp) {
    t.append(el("svg:rect", { x: bx, y: by, width: Math.max(0, bw * c.hp / c.max_hp), height: 5, fill: hpColour(c) }));
  }
  t.append(el("svg:text", { x, y: by + 13, class: "label" }, `${c.name} ${hpText(c)}`));
  c.statuses.forEach((s, i) => {
    t.append(el("svg:text", { x: x + 16, y: y - 10 + i * 9, class: "badge", "text-anchor": "start" },
      s.label + (s.value.match(/turns=(\d+)/) ? ` ${s.value.match(/turns=(\d+)/)[1]}` : "")));
  });
  t.addEventListener("click", () => target(c.id));
  t.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); target(c.id); } });
  t.addEventListener("mouseenter", () => askOdds(c.id));
  t.addEventListener("focus", () => askOdds(c.id));
  return t;
}

function renderOrder() {
  const ol = $("order");
  ol.replaceChildren();
  for (const c of store.state.combatants) {
    const li = el("li", { class: `${c.acting ? "acting" : ""} ${c.down ? "down" : ""}`, "aria-current": c.acting ? "true" : null });
    const card = el("div", { class: "card" });
    card.append(el("strong", {}, c.name));
    card.append(el("span", { class: "small" }, c.side + (c.mine ? " (yours)" : "")));
    if (c.initiative !== undefined) card.append(el("span", { class: "small initiative" }, `${c.initiative_word} ${c.initiative}`));
    if (c.hp_shown === "exact") {
      const m = el("meter", { min: 0, max: c.max_hp, value: c.hp, low: Math.ceil(c.max_hp / 4) + 0.5, high: c.max_hp / 2 + 0.5, optimum: c.max_hp, "aria-label": `${c.name}'s HP` });
      card.append(m);
    }
    card.append(el("span", {}, `HP ${hpText(c)}`));
    if (c.down) card.append(el("span", {}, "down"));
    if (c.gear) card.append(gearOf(c));
    if (c.hidden) card.append(el("span", { class: "tag" }, "hidden from players"));
    if (c.note) card.append(el("span", { class: "note", title: "your note (players never see it)" }, `Note: ${c.note}`));
    for (const s of c.statuses) card.append(el("span", { class: "small" }, `${s.label}${s.value ? " " + s.value : ""}`));
    for (const f of c.fields || []) card.append(el("span", { class: "small", title: f.detail || null }, `${f.label} ${f.value}`));
    li.append(card);
    ol.append(li);
  }
  const dl = $("values");
  dl.replaceChildren();
  for (const v of store.state.values) { dl.append(el("dt", {}, v.label)); dl.append(el("dd", { title: v.detail || null }, v.value)); }
}

// The weapon on a card; where a rule changes what it does (dice-combat's scrap), a
// button on it opens that line on a tap, a click or a key (no hover-only tooltip).
function gearOf(c) {
  if (!c.gear_note) return el("span", { class: "small" }, c.gear);
  const wrap = el("span", { class: "gear" });
  const b = el("button", { type: "button", class: "gear-tip", "aria-expanded": "false", "data-id": c.id, "data-key": `gear:${c.id}` }, `${c.gear} ⓘ`);
  const note = el("span", { class: "gear-note", role: "note", hidden: true }, c.gear_note);
  b.addEventListener("click", () => {
    const open = b.getAttribute("aria-expanded") !== "true";
    b.setAttribute("aria-expanded", String(open));
    note.hidden = !open;
  });
  wrap.append(b, note);
  return wrap;
}

// The rule's line on the value chosen (an equip choice's scrap gun, DC-11/DC-26), as on
// the card's weapon: a button opens it on a tap, a click or a key; none where no rule
// changes what the item does (a scrap knife swung in melee).
function choiceTip(said, value, key) {
  const node = el("span", { class: "gear choice-tip" });
  const b = el("button", { type: "button", class: "gear-tip", "aria-expanded": "false", "data-key": key });
  const note = el("span", { class: "gear-note", role: "note", hidden: true });
  b.addEventListener("click", () => {
    const open = b.getAttribute("aria-expanded") !== "true";
    b.setAttribute("aria-expanded", String(open));
    note.hidden = !open;
  });
  node.append(b, note);
  const update = () => {
    const v = value();
    const line = v && said[v] ? said[v].note : "";
    node.hidden = !line;
    b.textContent = line ? `${said[v].words} ⓘ` : "";
    b.setAttribute("aria-expanded", "false");
    note.hidden = true;
    note.textContent = line;
  };
  return { node, update };
}

// The action buttons are built again only when what they show changes (a new record, a
// new choice or parameter): a redundant redraw (a change's answer after the table's news
// of it) replaced the button under a finger between its touchstart and its click, and
// the phone's tap was lost.
let actionsShown = null;

// The rule IDs a line cites, behind a small "Rules" control (a <details>: a tap, a
// click or a key opens it); the line itself reads in people's words.
function rulesInfo(rules) {
  const box = el("details", { class: "rules small" });
  box.style.display = "inline-block"; // beside the line's words (CSSOM: the CSP allows no style attribute)
  box.append(el("summary", {}, "Rules"), document.createTextNode(` ${rules.join(", ")}`));
  return box;
}

function renderActions() {
  const box = $("actions");
  const key = JSON.stringify([store.seq, store.options, store.chosen && [store.chosen.actor, store.chosen.do, store.chosen.params, store.chosen.several || null]]);
  if (key === actionsShown && box.childElementCount) { renderTurnButtons(); return; }
  actionsShown = key;
  box.replaceChildren();
  const actors = Object.keys(store.options);
  if (!actors.length) box.append(el("p", { class: "why" }, "You watch this table."));
  for (const actor of actors) box.append(...reactPrompts(actor));
  for (const actor of actors) {
    box.append(el("h3", { class: "small" }, `${name(actor)}'s actions`));
    const row = el("div", { class: "row", role: "group", "aria-label": `${name(actor)}'s actions` });
    for (const o of store.options[actor]) {
      const pressed = store.chosen && store.chosen.actor === actor && store.chosen.do === o.do;
      const b = el("button", { type: "button", "aria-pressed": String(Boolean(pressed)), disabled: !o.allowed,
        title: o.allowed ? (o.summary_words || o.summary) : (o.refusal.words || o.refusal.message), "data-key": `act:${actor}:${o.do}` }, title(o.do));
      b.addEventListener("click", () => choose(actor, o));
      row.append(b);
    }
    box.append(row);
    if (store.state.outcome) { // the fight is over: one line, not the same reason per action
      box.append(el("p", { class: "why" }, "The fight is over: no more actions. The game master can reopen it by undoing the last action."));
      continue;
    }
    for (const o of store.options[actor]) {
      if (o.allowed) continue;
      const why = el("p", { class: "why" }, `${title(o.do)}: ${o.refusal.words || o.refusal.message}`);
      if (o.refusal.words && o.refusal.rules && o.refusal.rules.length) why.append(" ", rulesInfo(o.refusal.rules));
      box.append(why);
    }
  }
  if (store.chosen) box.append(chosenPanel());
  renderTurnButtons();
}

// A reaction its owner may take now, in another's turn (issue 35): a prompt on the
// owner's page, "Vera can react: Overwatch attack on the raider", with the action's
// button (a tap previews its odds and cost, a second tap confirms; a click acts). The
// table says when (`react`: the rules allow it now, on that enemy).
function reactPrompts(actor) {
  const out = [];
  for (const o of store.options[actor]) {
    for (const t of o.react || []) {
      const said = `${name(actor)} can react: ${title(o.do)} on ${name(t)}`.replace(/^./, (x) => x.toUpperCase());
      const box = el("div", { class: "react-prompt", role: "group", "aria-label": said });
      box.style.border = "2px solid #d55e00"; // CSSOM: the CSP allows no style attribute
      box.style.padding = "0.3rem";
      box.style.margin = "0.3rem 0";
      const b = el("button", { type: "button", "data-key": `react:${actor}:${o.do}:${t}` }, `${title(o.do)} ${name(t)}`);
      b.addEventListener("click", () => {
        store.chosen = { actor, do: o.do, option: o, params: {} };
        keepFocus(renderActions);
        pick({ target: t }); // preview.js: a tap previews, a click acts
      });
      box.append(el("strong", {}, said), " ", b);
      out.push(box);
    }
  }
  return out;
}

function renderTurnButtons() {
  const { state } = store;
  $("end-turn").disabled = !state.you.end_turn; // the table says (its turn, the fight not over)
  $("undo").disabled = !state.you.undo; // the table's policy says (players: by default not)
  $("redo").disabled = !state.you.redo;
}

// A judgement call (advantage, a modifier, cover) the table's policy keeps for the game
// master: a player who makes it asks the game master, who accepts or refuses.
function asks(o, p) { return (o.ask || []).includes(p) ? " (asks the game master)" : ""; }

// What a target is to the actor, as the table marks it (issue 35): enemies unmarked,
// "(ally)", "(self)", and "(down)" for one the rules let be hit while down (offered last).
function targetMark(o, t) {
  const m = (o.marks || {})[t];
  if (!m) return "";
  const said = [m.relation === "ally" ? "ally" : m.relation === "self" ? "self" : "", m.down ? "down" : ""].filter(Boolean);
  return said.length ? ` (${said.join(", ")})` : "";
}
function targetClass(o, t) {
  const m = (o.marks || {})[t];
  return m ? `target-${m.relation}${m.down ? " target-down" : ""}` : null;
}

function chosenPanel() {
  const o = store.chosen.option;
  const panel = el("div", { role: "group", "aria-label": `${title(o.do)}: choose` });
  for (const [p, values] of Object.entries(o.choices)) {
    const said = (o.choice_words || {})[p] || {}; // the ruleset's words: "knife (scrap)"
    const sel = el("select", { "aria-label": `${words(p)}${asks(o, p)}`, "data-key": `param:${p}` });
    if (!o.required.includes(p)) sel.append(el("option", { value: "" }, `${words(p)}: not given`));
    for (const v of values) sel.append(el("option", { value: v, selected: store.chosen.params[p] === v }, `${words(p)}: ${said[v] ? said[v].words : valueWords(p, v)}`));
    const tip = choiceTip(said, () => store.chosen.params[p], `tip:${p}`);
    sel.addEventListener("change", () => { if (sel.value) store.chosen.params[p] = sel.value; else delete store.chosen.params[p]; tip.update(); paramsChanged(); });
    if (!o.required.includes(p) || values.length) {
      if (o.required.includes(p) && !store.chosen.params[p]) store.chosen.params[p] = values[0];
      panel.append(sel, tip.node);
      tip.update();
    }
  }
  for (const f of o.flags || []) {  // a yes-or-no parameter: a burst, advantage
    const input = el("input", { type: "checkbox", checked: store.chosen.params[f] === true, "data-key": `flag:${f}` });
    input.addEventListener("change", () => {
      if (input.checked) store.chosen.params[f] = true; else delete store.chosen.params[f];
      paramsChanged();
    });
    const label = el("label", { class: "flag" });
    label.append(input, document.createTextNode(` ${title(f)}${asks(o, f)}`));
    panel.append(label);
  }
  for (const n of o.numbers || []) {  // a whole number: a modifier, a distance
    const input = el("input", { type: "number", step: "1", inputmode: "numeric", class: "number", "data-key": `number:${n}`,
      value: store.chosen.params[n] === undefined ? "" : String(store.chosen.params[n]), placeholder: "not given" });
    input.addEventListener("change", () => {
      const v = input.value.trim();
      if (/^-?\d+$/.test(v)) store.chosen.params[n] = Number(v); else { delete store.chosen.params[n]; input.value = ""; }
      paramsChanged();
    });
    const label = el("label", { class: "flag" });
    label.append(document.createTextNode(`${title(n)}${asks(o, n)} `), input);
    panel.append(label);
  }
  const row = el("div", { class: "row targets" });
  if (o.targets === null) panel.append(...costLines(o.costs)); // no odds to ask: the cost here
  if (o.targets === null) {
    const b = el("button", { type: "button", class: "go", "data-key": "go" }, `${title(o.do)} now`);
    b.addEventListener("click", () => act(null));
    row.append(b);
  } else {
    for (const t of o.targets) {
      const b = el("button", { type: "button", "data-target": t, "data-key": `target:${t}`, class: targetClass(o, t) }, `${title(o.do)} ${name(t)}${targetMark(o, t)}`);
      b.addEventListener("click", () => pick({ target: t })); // preview.js: a tap previews
      b.addEventListener("mouseenter", () => askOdds(t));
      b.addEventListener("focus", () => askOdds(t));
      b.addEventListener("mouseleave", leaveOdds);
      row.append(b);
    }
    if (!o.targets.length) row.append(el("p", { class: "why" }, "no target now"));
  }
  panel.append(el("p", { class: "small" }, o.targets === null ? "" : "Pick a target (or its token on the map); hover or focus it for the exact odds, or tap it to read them and then confirm."));
  if (aiming()) panel.append(el("p", { class: "small" }, "Or aim at a tile: click it on the map (or focus the map, move with the arrow keys, press Enter)."));
  panel.append(row);
  if (o.target_kind === "combatants" && o.targets.length > 1) panel.append(severalBox(o));
  return panel;
}

// An action that takes several targets (`targets: [ids]`, a Whelm): tick them, hover or
// focus the button for every target's odds, press it to act on all. The weapon decides
// how many it may take; the server says so where it may not.
function severalBox(o) {
  const box = el("fieldset", { class: "several" });
  box.append(el("legend", {}, "Or several targets at once, each with its own roll"));
  store.chosen.several = (store.chosen.several || []).filter((t) => o.targets.includes(t));
  const go = el("button", { type: "button", id: "act-several", "data-key": "several" });
  const update = () => {
    const n = store.chosen.several.length;
    go.disabled = n < 2;
    go.textContent = n < 2 ? `${title(o.do)}: tick two or more` : `${title(o.do)} ${store.chosen.several.map(name).join(", ")}`;
  };
  for (const t of o.targets) {
    const input = el("input", { type: "checkbox", value: t, checked: store.chosen.several.includes(t), "data-key": `several:${t}` });
    input.addEventListener("change", () => {
      store.chosen.several = store.chosen.several.filter((x) => x !== t);  // in the order ticked
      if (input.checked) store.chosen.several.push(t);
      update();
      paramsChanged();
    });
    const label = el("label", {});
    label.append(input, document.createTextNode(` ${name(t)}${targetMark(o, t)}`));
    box.append(label);
  }
  go.addEventListener("click", () => { if (store.chosen.several.length > 1) pick({ several: true }); });
  go.addEventListener("mouseenter", () => askSeveralOdds());
  go.addEventListener("focus", () => askSeveralOdds());
  go.addEventListener("mouseleave", leaveOdds);
  update();
  box.append(go);
  return box;
}

function choose(actor, o) {
  store.chosen = store.chosen && store.chosen.actor === actor && store.chosen.do === o.do ? null : { actor, do: o.do, option: o, params: {} };
  hideOdds();
  if (aiming()) folds.open("map-box"); // a tile to aim at: the map unfolded (folds.js)
  keepFocus(renderActions);
  renderRings();
  showTile();
}

function actAt(tile) {
  if (!aiming()) return;
  pick({ at: tile });
}

function target(cid) {
  if (store.chosen && store.chosen.option.targets && store.chosen.option.targets.includes(cid)) pick({ target: cid });
}

function act(t) {
  if (!store.chosen) return;
  store.chosen.sent = send({ type: "act", action: actionFor(t) }); // its answer ends this choice
}

// The answer to change ``id``: the choice that sent it is over (a choice made since, as
// a drag's answer comes after the table's news of it, stays open with its odds).
function changeAnswered(id) {
  if (!store.chosen || store.chosen.sent !== id) return; // nothing of this page's changes
  store.chosen = null;
  hideOdds();
  render();
}

// --- the log ------------------------------------------------------------------------

function appendLog(lines) {
  const ol = $("log");
  for (const line of lines) {
    const li = el("li", { class: line.tone || null, "data-seq": line.seq }, line.text); // its record
    if (line.rules && line.rules.length) li.append(" ", rulesInfo(line.rules)); // behind "Rules"
    ol.append(li);
  }
  scrollLog();
}

// The log kept scrolled to its latest line, at the next frame: read at once, its height
// laid the whole page out before the map and the panels were drawn (issue 35, "speed").
let logScroll = 0;
function scrollLog() {
  if (logScroll) return;
  logScroll = requestAnimationFrame(() => {
    logScroll = 0;
    const ol = $("log");
    ol.scrollTop = ol.scrollHeight;
  });
}

// --- the game master's links ------------------------------------------------------

function ownsBoxes(box, owns, onChange, key) {
  for (const c of store.state.combatants) {
    const input = el("input", { type: "checkbox", value: c.id, checked: owns.includes(c.id), "data-key": `${key}:${c.id}` });
    if (onChange) input.addEventListener("change", onChange);
    const label = el("label", {});
    label.append(input, document.createTextNode(` ${c.name}`));
    box.append(label);
  }
}

function checked(box) { return [...box.querySelectorAll("input:checked")].map((i) => i.value); }

// The game master's links, listed again once fetched (the focus kept by key).
async function loadLinks() {
  $("links-box").hidden = false;
  let list;
  try { list = await api("/api/links"); } catch (e) { $("links").replaceChildren(); notice(e.message); return; }
  keepFocus(() => drawLinks(list));
}

function drawLinks(list) {
  const ul = $("links");
  ul.replaceChildren();
  for (const link of list) {
    const li = el("li", {});
    li.append(el("strong", {}, link.name), document.createTextNode(link.revoked ? " (revoked)" : ""));
    if (!link.revoked) {
      const box = el("span", { role: "group", "aria-label": `${link.name} plays` });
      ownsBoxes(box, link.owns, async () => {
        try { await api(`/api/links/${link.id}`, "POST", { owns: checked(box) }); } catch (e) { notice(e.message); }
      }, `link:${link.id}:owns`);
      const revoke = el("button", { type: "button", "data-key": `link:${link.id}:revoke` }, `Revoke ${link.name}'s link`);
      revoke.addEventListener("click", async () => {
        try { await api(`/api/links/${link.id}`, "DELETE"); loadLinks(); } catch (e) { notice(e.message); }
      });
      li.append(" ", box, " ", revoke, ...links.row(link));
    }
    ul.append(li);
  }
  const owns = $("link-owns");
  owns.replaceChildren(el("legend", {}, "Plays"));
  ownsBoxes(owns, [], null, "owns");
}

function setup() {
  $("end-turn").addEventListener("click", endTurn);
  // the amount as typed: a whole number, else the text itself, which the table refuses
  // quoting it (never a silent 0)
  const amount = () => {
    const typed = $("gm-amount").value.trim();
    return { amount: /^\d+$/.test(typed) ? Number(typed) : typed };
  };
  $("gm-heal").addEventListener("click", () => gmAct("heal", amount()));
  $("gm-damage").addEventListener("click", () => gmAct("damage", amount()));
  $("gm-status-add").addEventListener("click", () => gmAct("status", { add: $("gm-status").value }));
  $("gm-status-remove").addEventListener("click", () => gmAct("status", { remove: $("gm-status").value }));
  $("gm-remove").addEventListener("click", () => gmAct("remove"));
  // one selection (issue 35): the select, the roster's Pick and a token's click choose
  // the same combatant for every game-master tool (roster.js keeps it)
  $("gm-who").addEventListener("change", () => { notePicked = null; gmPicked(); roster.pick($("gm-who").value); });
  $("gm-hide").addEventListener("click", () => {
    const c = store.state.combatants.find((x) => x.id === $("gm-who").value);
    if (c) gmAct(c.hidden ? "show" : "hide");
  });
  $("gm-reveal").addEventListener("change", (e) => gmAct("reveal", { on: e.target.checked }));
  $("gm-dice").addEventListener("click", () => send({ type: "dice", physical: store.state.dice !== "physical" }));
  $("dice-box").addEventListener("submit", (e) => {
    e.preventDefault();
    const face = $("die-face").value.trim();
    if (!/^\d+$/.test(face)) { notice(`${face || "nothing"} is not a face: give a whole number`); return; }
    send({ type: "die", face: Number(face) });
  });
  $("die-cancel").addEventListener("click", () => send({ type: "cancel" }));
  $("gm-note-save").addEventListener("click", () => gmAct("note", { text: $("gm-note").value }));
  $("gm-move").addEventListener("click", () => {
    store.moving = !store.moving;
    $("gm-move").setAttribute("aria-pressed", String(store.moving));
  });
  $("ranges-toggle").addEventListener("click", () => {
    store.showRanges = !store.showRanges;
    $("ranges-toggle").setAttribute("aria-pressed", String(store.showRanges));
    // the map grows to hold the rings, its tiles kept at their size (pan, or Fit, to
    // see the rings past them)
    if (store.state) { const was = mapView.box(); renderMap(); mapView.keep(was); }
  });
  $("map").addEventListener("mousemove", (e) => { if (store.state) pointAt(tileAt(e)); });
  mapView.attach({
    canDrag: (cid) => Boolean(store.state && (store.state.you.role === "gm" || playerMove(cid))),
    hover: (e, cid) => {
      const was = store.dragged;
      store.dragged = cid || null;
      if (was !== store.dragged) store.cursor = null; // the counter reads the dragged token's move
      pointAt(tileAt(e));
    },
    dragEnd: () => { store.dragged = null; if (store.state) showTile(); },
    drop: (cid, e) => {
      // the game master's move: `move` with only `to` takes no turn and costs nothing
      const [x, y] = tileAt(e);
      const c = placed(cid);
      if (!c) return;
      if (x < 0 || y < 0 || x >= store.mapSize[0] || y >= store.mapSize[1]) { notice("Off the map: drop on a tile"); return; }
      if (c.at[0] === x && c.at[1] === y) return;
      const own = playerMove(cid);
      if (own) { send({ type: "act", action: { actor: cid, do: "move", to: [x, y], ...own } }); return; }
      send({ type: "act", action: { actor: cid, do: "move", to: [x, y] } });
    },
  });
  $("map").addEventListener("keydown", mapKey);
  $("map").addEventListener("click", (e) => {
    if (e.target.closest(".token")) return;
    const [x, y] = tileAt(e);
    if (x < 0 || y < 0 || x >= store.mapSize[0] || y >= store.mapSize[1]) return;
    if (!store.moving) { actAt([x, y]); return; }
    store.moving = false;
    $("gm-move").setAttribute("aria-pressed", "false");
    gmAct("move", { to: [x, y] });
  });
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("redo").addEventListener("click", () => send({ type: "redo" }));
  $("new-link").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api("/api/links", "POST", { name: $("link-name").value, owns: checked($("link-owns")) });
      await loadLinks(); // every link listed with its address, the new one too
      $("link-name").value = "";
    } catch (err) { notice(err.message); }
  });
  $("export").addEventListener("click", async (e) => {
    e.preventDefault();
    const r = await fetch("/api/export", { headers: { Authorization: `Bearer ${token}` } });
    const a = el("a", { href: URL.createObjectURL(await r.blob()), download: `${store.state.encounter}.yaml` });
    a.click();
  });
  for (const id of ["log-md", "log-md-gm"]) { // issue 36: the log as Markdown, behind the page's token
    $(id).addEventListener("click", async (e) => {
      e.preventDefault();
      const r = await fetch($(id).getAttribute("href"), { headers: { Authorization: `Bearer ${token}` } });
      if (!r.ok) { notice((await r.json()).message); return; }
      const name = (r.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
      el("a", { href: URL.createObjectURL(await r.blob()), download: name ? name[1] : "log.md" }).click();
    });
  }
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if (typing) return;
    if (e.key === "n" && !e.ctrlKey && !e.metaKey) endTurn();
    else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); send({ type: e.shiftKey ? "redo" : "undo" }); }
    else if ((e.key === "+" || e.key === "=") && !e.ctrlKey && !e.metaKey) mapView.zoomBy(mapView.STEP);
    else if (e.key === "-" && !e.ctrlKey && !e.metaKey) mapView.zoomBy(1 / mapView.STEP);
    else if (e.key === "0" && !e.ctrlKey && !e.metaKey) mapView.reset();
    else if (e.key === "Escape") { store.chosen = null; hideOdds(); renderActions(); renderRings(); showTile(); }
  });
}

// --- a phone opens the map zoomed so a tile takes a 44 px tap (layout.js); once, and
// "Fit" shows the whole map again
let phoneZoomed = false;
function phoneZoom() {
  if (phoneZoomed) return;
  phoneZoomed = true;
  const z = mapLayout.touchZoom(TILE);
  if (z <= 1) return;
  const o = placed(store.state.turn) || store.state.combatants.find((c) => c.mine && c.at) || null;
  mapView.zoomBy(z);
  if (o) {
    const b = mapView.box();
    mapView.panBy(o.at[0] * TILE + TILE / 2 - (b[0] + b[2] / 2), o.at[1] * TILE + TILE / 2 - (b[1] + b[3] / 2));
  }
}

// --- the ruler: a line from whom the counter measures to the tile pointed at
function drawRuler(o, tile) {
  const line = $("ruler");
  if (!line) return;
  if (!o || !tile || (o.at[0] === tile[0] && o.at[1] === tile[1])) { line.setAttribute("display", "none"); return; }
  const c = (v) => v * TILE + TILE / 2;
  line.setAttribute("x1", c(o.at[0])); line.setAttribute("y1", c(o.at[1]));
  line.setAttribute("x2", c(tile[0])); line.setAttribute("y2", c(tile[1]));
  line.setAttribute("display", "inline");
}

function endTurn() {
  const { state } = store;
  if (!state) return;
  const actor = state.turn;
  if (state.you.role !== "gm" && !state.you.owns.includes(actor)) return;
  send({ type: "act", action: { actor, do: "end_turn" } });
}

// A module runs once the document is parsed and every module it imports has run: the
// panels set their listeners, then the socket opens.
preview.setup();
setup();
tableRules.setup();
roster.setup();
folds.setup((id) => { // a panel unfolded: the map measured and placed, the log at its end
  if (id === "map-box") render();
  if (id === "log-box") scrollLog();
});
connect(handle);
