// fracas serve: the page. Everything it shows comes projected from the server for
// this page's link; everything it does goes back as a message the server checks.
// No rule and no permission is decided here: the options say what may be done.
"use strict";

const TILE = 40;
const SIDE_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];
// the initials' ink on each side colour: the one of white and black with the higher
// contrast (white on the blue 5.2:1; black on the others 5.4:1 to 9.3:1)
const SIDE_INKS = ["#fff", "#000", "#000", "#000", "#000", "#000"];
const token = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);

let state = null;
let seq = 0;
let options = {};
let chosen = null; // {actor, do, option, params}
let moving = false; // the game master's move: the next tile clicked
let ws = null;
let nextId = 1;
let showRanges = false; // the "Ranges" toggle: rings around the measuring combatant
let cursor = null; // the tile the tile counter reads: [x, y]
let dragged = null; // the combatant whose token is being dragged (movecost.js: its cost)
let mapSize = [8, 6]; // tiles drawn: [width, height]
const sides = [];

function sideColour(side) {
  if (!sides.includes(side)) sides.push(side);
  return SIDE_COLOURS[sides.indexOf(side) % SIDE_COLOURS.length];
}

function sideInk(side) {
  sideColour(side);
  return SIDE_INKS[sides.indexOf(side) % SIDE_INKS.length];
}

function name(cid) {
  if (cid === null || cid === undefined) return "someone";
  const c = state && state.combatants.find((x) => x.id === cid);
  return c ? c.name : cid;
}

function hpText(c) {
  if (c.hp_shown === "exact") return `${c.hp}/${c.max_hp}`;
  if (c.hp_shown === "label") return c.hp_label;
  return "HP hidden";
}

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

function distance(a, b) { return (METRICS[state.metric] || METRICS.chebyshev)(a, b); }

function notice(text) {
  const n = $("notice");
  n.textContent = text;
  n.hidden = !text;
}

// --- the socket -------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws.onopen = () => {
    $("conn").textContent = "live";
    ws.send(JSON.stringify({ type: "hello", seq, winbar: true })); // winbar.js draws it
  };
  ws.onmessage = (e) => handle(JSON.parse(e.data));
  ws.onclose = (e) => {
    if (e.code === 4403) {
      $("conn").textContent = "this link no longer opens the table";
      return;
    }
    $("conn").textContent = "reconnecting…";
    setTimeout(connect, 1000);
  };
}

const RETRIES = 5; // a change refused because the store is down is sent again, this often
const changes = new Map(); // id -> [message, tries] of each change not yet answered

function send(message, tries = 0) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    notice("not connected; reconnecting");
    return null;
  }
  const id = nextId++;
  if (["act", "undo", "redo", "die"].includes(message.type)) changes.set(id, [message, tries]);
  ws.send(JSON.stringify({ ...message, id, seq }));
  return id;
}

function handle(m) {
  if (m.type === "sync") {
    const first = state === null;
    if (!first && m.seq !== seq && !changes.size) notice(""); // a refusal is not pinned through later turns
    state = m.state;
    seq = m.seq;
    document.body.dataset.seq = String(seq); // the record this page shows (tests wait on it)
    options = m.options;
    appendLog(m.lines);
    if (chosen && !findOption(chosen.actor, chosen.do)) chosen = null;
    render();
    window.dispatchEvent(new CustomEvent("fracas:state", { detail: state })); // table.js
    if (first && state.you.role === "gm") loadLinks();
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
    notice(`${m.code}: ${m.message}`);
    window.dispatchEvent(new CustomEvent("fracas:refused", { detail: m })); // advisor.js
    if (asked && m.id === asked.id) hideOdds();
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
  } else if (m.type === "odds") {
    const key = askedKeys.get(m.id);
    askedKeys.delete(m.id);
    if (key) oddsCache.set(`${m.seq}|${key}`, m.odds);
    if (asked && m.id === asked.id) asked.show(m.odds);
  } else if (m.type === "winbar") {
    window.dispatchEvent(new CustomEvent("fracas:winbar", { detail: m })); // winbar.js
  } else if (m.type === "advice") {
    window.dispatchEvent(new CustomEvent("fracas:advice", { detail: m })); // advisor.js
  }
}

// --- drawing ----------------------------------------------------------------------

// Focus survives a re-render: the focused control is found again by its id, its
// combatant or target, or its label (a keyboard user keeps their place).
function focusMark() {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  return { id: a.id, dataId: a.getAttribute("data-id"), target: a.getAttribute("data-target"),
    tag: a.tagName, text: a.getAttribute("aria-label") || a.textContent };
}
function refocus(m) {
  if (!m || (document.activeElement && document.activeElement !== document.body)) return;
  let found = m.id ? document.getElementById(m.id) : null;
  if (!found) {
    found = [...document.querySelectorAll(m.tag)].find((e) =>
      (m.dataId && e.getAttribute("data-id") === m.dataId) ||
      (m.target && e.getAttribute("data-target") === m.target) ||
      (!m.dataId && !m.target && (e.getAttribute("aria-label") || e.textContent) === m.text));
  }
  if (found && !found.disabled && found.checkVisibility()) found.focus({ preventScroll: true });
}

function render() {
  if (!state) return;
  const mark = focusMark();
  try { draw(); } finally { refocus(mark); }
}

function draw() {
  $("title").textContent = `${state.encounter} · ${state.title}`;
  document.title = `fracas · ${state.encounter}`;
  const you = state.you.role === "gm" ? "game master" : state.you.name;
  const whose = state.turn_words || (state.turn === null ? "a turn this page does not see" : `${name(state.turn)}'s turn`); // the server's words first
  $("turn").textContent = `Round ${state.round}: ${whose}; next ${name(state.next)} (you: ${you})`;
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
  const p = state.pending;
  const box = $("dice-box");
  box.hidden = !p;
  if (!p) { dieAsked = null; return; }
  const who = p.waiting || "the game master"; // the server's words
  $("die-question").textContent = p.label
    ? (p.yours ? `${p.action}: ${p.question}` : `${p.action}: waiting for ${who}: ${p.question}`)
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
  const c = state.combatants.find((x) => x.id === $("gm-who").value);
  if (!c) return;
  $("gm-hide").textContent = c.hidden ? "Show to players" : "Hide from players";
  $("gm-hide").setAttribute("aria-pressed", String(Boolean(c.hidden)));
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
  mapSize = [w, h];
  const g = $("tokens");
  g.replaceChildren();
  for (const c of placed) g.append(tokenOf(c));
  mapLayout.place(w * TILE, h * TILE); // layout.js: no label over another
  phoneZoom();
  renderRings();
  showTile();
}

// --- range rings and the tile counter ---------------------------------------------

function placed(cid) {
  const c = cid && state.combatants.find((x) => x.id === cid);
  return c && c.at ? c : null;
}

// Whom the tile counter measures from: the token dragged, the chosen action's actor,
// else the acting one.
function origin() {
  return placed(dragged) || placed(chosen && chosen.actor) || placed(state.turn);
}

// Whose rings are drawn: the counter's combatant when this page is sent its ranges (the
// game master: every combatant's; a player: its own), else the player's first own one.
function ringsOrigin() {
  const o = origin();
  if (o && o.ranges) return o;
  return state.combatants.find((c) => c.mine && c.at && c.ranges) || null;
}

// --- the rings the rules name beside the hand's ranges (issue 22 item 6: DC-A5's throw
// range, 15 and 20 tiles): drawn with the ranges, and the map grows to show them all
function allRings(c) { return [...(c.ranges || []), ...(c.rings || []).map((r) => ({ ...r, mark: true }))]; }

function ringsFit(w, h) {
  const c = showRanges && state ? ringsOrigin() : null;
  if (!c) return [w, h];
  const far = Math.max(0, ...allRings(c).map((r) => r.tiles));
  return [Math.max(w, c.at[0] + far + 1), Math.max(h, c.at[1] + far + 1)];
}

function renderRings() {
  const g = $("rings");
  const legend = $("ranges-legend");
  g.replaceChildren();
  const c = showRanges ? ringsOrigin() : null;
  g.setAttribute("display", c ? "inline" : "none");
  legend.hidden = !showRanges;
  if (!showRanges) return;
  const rings = c ? allRings(c) : [];
  if (!c || !rings.length) {
    legend.textContent = "No ranges to show for " + (c ? c.name : "this page");
    return;
  }
  legend.textContent = `Ranges of ${c.name} (${state.metric}): ` + c.ranges.map((r) => `${r.label} ${r.tiles}`).join(", ") + " tiles" +
    (c.rings && c.rings.length ? `; rings: ${c.rings.map((r) => `${r.label} ${r.tiles}`).join(", ")}` : "");
  const [X, Y] = [c.at[0] * TILE + TILE / 2, c.at[1] * TILE + TILE / 2];
  const [W, H] = [mapSize[0] * TILE, mapSize[1] * TILE];
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

function aiming() {
  return Boolean(chosen && chosen.option.target_kind === "combatant_or_tile" && chosen.option.tile);
}

function showTile() {
  const box = $("cursor");
  $("map").classList.toggle("aiming", aiming());
  if (!cursor) { box.setAttribute("display", "none"); return; }
  box.setAttribute("display", "inline");
  box.setAttribute("x", cursor[0] * TILE);
  box.setAttribute("y", cursor[1] * TILE);
  const o = origin();
  let text = `Tile ${cursor[0]}, ${cursor[1]}`;
  if (o) {
    const d = distance(o.at, cursor);
    text += `: ${d} ${d === 1 ? "tile" : "tiles"} from ${o.name}`;
    if (o.ranges && o.ranges.length && d > 0) {
      const band = o.ranges.find((r) => d <= r.tiles);
      text += band ? `, within ${band.label} (${band.tiles})` : ", beyond every range";
    }
  }
  if (aiming()) {
    text += ` · click or press Enter to ${title(chosen.do).toLowerCase()} here`;
    askTileOdds(cursor);
  }
  const cost = dragged ? moveCosts.line(dragged, cursor) : null; // the table's figure
  if (cost) text += cost.text;
  box.classList.toggle("refused", Boolean(cost && cost.refused)); // a tile it cannot pay
  drawRuler(o, cursor);
  const info = $("tile-info");
  if (info.textContent !== text) info.textContent = text;
}

function pointAt(t) {
  if (!t || t[0] < 0 || t[1] < 0 || t[0] >= mapSize[0] || t[1] >= mapSize[1]) return;
  if (cursor && cursor[0] === t[0] && cursor[1] === t[1]) return;
  cursor = t;
  showTile();
}

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function mapKey(e) {
  if (!state) return;
  const step = ARROWS[e.key];
  if (step && e.shiftKey) {
    e.preventDefault();
    mapView.panBy(step[0] * TILE, step[1] * TILE);
  } else if (step) {
    e.preventDefault();
    const from = cursor || (origin() ? origin().at : [0, 0]);
    const t = [Math.min(mapSize[0] - 1, Math.max(0, from[0] + step[0])), Math.min(mapSize[1] - 1, Math.max(0, from[1] + step[1]))];
    cursor = null;
    pointAt(t);
  } else if ((e.key === "Enter" || e.key === " ") && e.target === $("map") && cursor && aiming()) {
    e.preventDefault();
    actAt(cursor);
  }
}

function tokenOf(c) {
  const [x, y] = [c.at[0] * TILE + TILE / 2, c.at[1] * TILE + TILE / 2];
  const statuses = c.statuses.map((s) => s.label + (s.value ? ` (${s.value})` : "")).join(", ");
  const label = `${c.name}, ${c.side}, HP ${hpText(c)}${c.down ? ", down" : ""}${c.acting ? ", acting now" : ""}${c.hidden ? ", hidden from players" : ""}` +
    (statuses ? `, ${statuses}` : "") + ` at ${c.at[0]}, ${c.at[1]}`;
  const t = el("svg:g", {
    class: `token${c.acting ? " acting" : ""}${c.down ? " down" : ""}${c.hidden ? " hidden" : ""}`,
    tabindex: "0", role: "button", "aria-label": label, "data-id": c.id, "data-cx": x, "data-cy": y,
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
  for (const c of state.combatants) {
    const li = el("li", { class: `${c.acting ? "acting" : ""} ${c.down ? "down" : ""}`, "aria-current": c.acting ? "true" : null });
    const card = el("div", { class: "card" });
    card.append(el("strong", {}, c.name));
    card.append(el("span", { class: "small" }, c.side + (c.mine ? " (yours)" : "")));
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
  for (const v of state.values) { dl.append(el("dt", {}, v.label)); dl.append(el("dd", { title: v.detail || null }, v.value)); }
}

// The weapon on a card; where a rule changes what it does (dice-combat's scrap), a
// button on it opens that line on a tap, a click or a key (no hover-only tooltip).
function gearOf(c) {
  if (!c.gear_note) return el("span", { class: "small" }, c.gear);
  const wrap = el("span", { class: "gear" });
  const b = el("button", { type: "button", class: "gear-tip", "aria-expanded": "false", "data-id": c.id }, `${c.gear} ⓘ`);
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
function choiceTip(said, value) {
  const node = el("span", { class: "gear choice-tip" });
  const b = el("button", { type: "button", class: "gear-tip", "aria-expanded": "false" });
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

function findOption(actor, what) {
  return (options[actor] || []).find((o) => o.do === what && o.allowed);
}

function title(text) { return text.replace(/_/g, " ").replace(/^./, (x) => x.toUpperCase()); }

// --- words a game master reads (issue 22 item 8): a parameter's name as words, and a
// value that names a combatant as its name
function words(text) { return String(text).replace(/_/g, " "); }
function valueWords(p, v) {
  const c = state && state.combatants.find((x) => x.id === v);
  return c ? c.name : words(v);
}

// The action buttons are built again only when what they show changes (a new record, a
// new choice or parameter): a redundant redraw (a change's answer after the table's news
// of it) replaced the button under a finger between its touchstart and its click, and
// the phone's tap was lost.
let actionsShown = null;

function renderActions() {
  const box = $("actions");
  const key = JSON.stringify([seq, options, chosen && [chosen.actor, chosen.do, chosen.params, chosen.several || null]]);
  if (key === actionsShown && box.childElementCount) { renderTurnButtons(); return; }
  actionsShown = key;
  box.replaceChildren();
  const actors = Object.keys(options);
  if (!actors.length) box.append(el("p", { class: "why" }, "You watch this table."));
  for (const actor of actors) {
    box.append(el("h3", { class: "small" }, `${name(actor)}'s actions`));
    const row = el("div", { class: "row", role: "group", "aria-label": `${name(actor)}'s actions` });
    for (const o of options[actor]) {
      const pressed = chosen && chosen.actor === actor && chosen.do === o.do;
      const b = el("button", { type: "button", "aria-pressed": String(Boolean(pressed)), disabled: !o.allowed,
        title: o.allowed ? o.summary : o.refusal.message }, title(o.do));
      b.addEventListener("click", () => choose(actor, o));
      row.append(b);
    }
    box.append(row);
    for (const o of options[actor]) {
      if (!o.allowed) box.append(el("p", { class: "why" }, `${title(o.do)}: ${o.refusal.message}`));
    }
  }
  if (chosen) box.append(chosenPanel());
  renderTurnButtons();
}

function renderTurnButtons() {
  const acting = state.turn;
  const mayEnd = state.you.role === "gm" || state.you.owns.includes(acting);
  $("end-turn").disabled = !mayEnd;
  $("undo").disabled = !state.you.undo; // the table's policy says (players: by default not)
  $("redo").disabled = !state.you.redo;
}

// A judgement call (advantage, a modifier, cover) the table's policy keeps for the game
// master: a player who makes it asks the game master, who accepts or refuses.
function asks(o, p) { return (o.ask || []).includes(p) ? " (asks the game master)" : ""; }

function chosenPanel() {
  const o = chosen.option;
  const panel = el("div", { role: "group", "aria-label": `${title(o.do)}: choose` });
  for (const [p, values] of Object.entries(o.choices)) {
    const said = (o.choice_words || {})[p] || {}; // the ruleset's words: "knife (scrap)"
    const sel = el("select", { "aria-label": `${words(p)}${asks(o, p)}` });
    if (!o.required.includes(p)) sel.append(el("option", { value: "" }, `${words(p)}: not given`));
    for (const v of values) sel.append(el("option", { value: v, selected: chosen.params[p] === v }, `${words(p)}: ${said[v] ? said[v].words : valueWords(p, v)}`));
    const tip = choiceTip(said, () => chosen.params[p]);
    sel.addEventListener("change", () => { if (sel.value) chosen.params[p] = sel.value; else delete chosen.params[p]; tip.update(); paramsChanged(); });
    if (!o.required.includes(p) || values.length) {
      if (o.required.includes(p) && !chosen.params[p]) chosen.params[p] = values[0];
      panel.append(sel, tip.node);
      tip.update();
    }
  }
  for (const f of o.flags || []) {  // a yes-or-no parameter: a burst, advantage
    const input = el("input", { type: "checkbox", checked: chosen.params[f] === true });
    input.addEventListener("change", () => {
      if (input.checked) chosen.params[f] = true; else delete chosen.params[f];
      paramsChanged();
    });
    const label = el("label", { class: "flag" });
    label.append(input, document.createTextNode(` ${title(f)}${asks(o, f)}`));
    panel.append(label);
  }
  for (const n of o.numbers || []) {  // a whole number: a modifier, a distance
    const input = el("input", { type: "number", step: "1", inputmode: "numeric", class: "number",
      value: chosen.params[n] === undefined ? "" : String(chosen.params[n]), placeholder: "not given" });
    input.addEventListener("change", () => {
      const v = input.value.trim();
      if (/^-?\d+$/.test(v)) chosen.params[n] = Number(v); else { delete chosen.params[n]; input.value = ""; }
      paramsChanged();
    });
    const label = el("label", { class: "flag" });
    label.append(document.createTextNode(`${title(n)}${asks(o, n)} `), input);
    panel.append(label);
  }
  const row = el("div", { class: "row targets" });
  if (o.targets === null) {
    const b = el("button", { type: "button", class: "go" }, `${title(o.do)} now`);
    b.addEventListener("click", () => act(null));
    row.append(b);
  } else {
    for (const t of o.targets) {
      const b = el("button", { type: "button", "data-target": t }, `${title(o.do)} ${name(t)}`);
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
  chosen.several = (chosen.several || []).filter((t) => o.targets.includes(t));
  const go = el("button", { type: "button", id: "act-several" });
  const update = () => {
    const n = chosen.several.length;
    go.disabled = n < 2;
    go.textContent = n < 2 ? `${title(o.do)}: tick two or more` : `${title(o.do)} ${chosen.several.map(name).join(", ")}`;
  };
  for (const t of o.targets) {
    const input = el("input", { type: "checkbox", value: t, checked: chosen.several.includes(t) });
    input.addEventListener("change", () => {
      chosen.several = chosen.several.filter((x) => x !== t);  // in the order ticked
      if (input.checked) chosen.several.push(t);
      update();
      paramsChanged();
    });
    const label = el("label", {});
    label.append(input, document.createTextNode(` ${name(t)}`));
    box.append(label);
  }
  go.addEventListener("click", () => { if (chosen.several.length > 1) pick({ several: true }); });
  go.addEventListener("mouseenter", () => askSeveralOdds());
  go.addEventListener("focus", () => askSeveralOdds());
  go.addEventListener("mouseleave", leaveOdds);
  update();
  box.append(go);
  return box;
}

function severalAction() {
  return { ...actionFor(null), targets: [...chosen.several] };
}

function choose(actor, o) {
  chosen = chosen && chosen.actor === actor && chosen.do === o.do ? null : { actor, do: o.do, option: o, params: {} };
  hideOdds();
  const mark = focusMark();
  renderActions();
  refocus(mark);
  renderRings();
  showTile();
}

function actionFor(t, at = null) {
  const a = { actor: chosen.actor, do: chosen.do, ...chosen.params };
  if (t !== null) a.target = t;
  if (at !== null) a.at = at;
  return a;
}

function actAt(tile) {
  if (!aiming()) return;
  pick({ at: tile });
}

function target(cid) {
  if (chosen && chosen.option.targets && chosen.option.targets.includes(cid)) pick({ target: cid });
}

function act(t) {
  if (!chosen) return;
  chosen.sent = send({ type: "act", action: actionFor(t) }); // its answer ends this choice
}

// The answer to change ``id``: the choice that sent it is over (a choice made since, as
// a drag's answer comes after the table's news of it, stays open with its odds).
function changeAnswered(id) {
  if (!chosen || chosen.sent !== id) return; // nothing of this page's changes
  chosen = null;
  hideOdds();
  render();
}

// --- the log ------------------------------------------------------------------------

function appendLog(lines) {
  const ol = $("log");
  for (const line of lines) ol.append(el("li", { class: line.tone || null }, line.text));
  ol.scrollTop = ol.scrollHeight;
}

// --- the game master's links ------------------------------------------------------

async function api(path, method = "GET", body = undefined) {
  const r = await fetch(path, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body && JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(`${data.code}: ${data.message}`);
  return data;
}

function ownsBoxes(box, owns, onChange) {
  for (const c of state.combatants) {
    const input = el("input", { type: "checkbox", value: c.id, checked: owns.includes(c.id) });
    if (onChange) input.addEventListener("change", onChange);
    const label = el("label", {});
    label.append(input, document.createTextNode(` ${c.name}`));
    box.append(label);
  }
}

function checked(box) { return [...box.querySelectorAll("input:checked")].map((i) => i.value); }

async function loadLinks() {
  $("links-box").hidden = false;
  const ul = $("links");
  ul.replaceChildren();
  let links;
  try { links = await api("/api/links"); } catch (e) { notice(e.message); return; }
  for (const link of links) {
    const li = el("li", {});
    li.append(el("strong", {}, link.name), document.createTextNode(link.revoked ? " (revoked)" : ""));
    if (!link.revoked) {
      const box = el("span", { role: "group", "aria-label": `${link.name} plays` });
      ownsBoxes(box, link.owns, async () => {
        try { await api(`/api/links/${link.id}`, "POST", { owns: checked(box) }); } catch (e) { notice(e.message); }
      });
      const revoke = el("button", { type: "button" }, `Revoke ${link.name}'s link`);
      revoke.addEventListener("click", async () => {
        try { await api(`/api/links/${link.id}`, "DELETE"); loadLinks(); } catch (e) { notice(e.message); }
      });
      li.append(" ", box, " ", revoke, ...window.fracasLinks.row(link));
    }
    ul.append(li);
  }
  const owns = $("link-owns");
  owns.replaceChildren(el("legend", {}, "Plays"));
  ownsBoxes(owns, [], null);
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
  $("gm-who").addEventListener("change", () => { notePicked = null; gmPicked(); });
  $("gm-hide").addEventListener("click", () => {
    const c = state.combatants.find((x) => x.id === $("gm-who").value);
    if (c) gmAct(c.hidden ? "show" : "hide");
  });
  $("gm-dice").addEventListener("click", () => send({ type: "dice", physical: state.dice !== "physical" }));
  $("dice-box").addEventListener("submit", (e) => {
    e.preventDefault();
    const face = $("die-face").value.trim();
    if (!/^\d+$/.test(face)) { notice(`${face || "nothing"} is not a face: give a whole number`); return; }
    send({ type: "die", face: Number(face) });
  });
  $("die-cancel").addEventListener("click", () => send({ type: "cancel" }));
  $("gm-note-save").addEventListener("click", () => gmAct("note", { text: $("gm-note").value }));
  $("gm-move").addEventListener("click", () => {
    moving = !moving;
    $("gm-move").setAttribute("aria-pressed", String(moving));
  });
  $("ranges-toggle").addEventListener("click", () => {
    showRanges = !showRanges;
    $("ranges-toggle").setAttribute("aria-pressed", String(showRanges));
    if (state) { renderMap(); mapView.reset(); } // the map grows to show the rings
  });
  $("map").addEventListener("mousemove", (e) => { if (state) pointAt(tileAt(e)); });
  mapView.attach({
    canDrag: (cid) => Boolean(state && (state.you.role === "gm" || playerMove(cid))),
    hover: (e, cid) => {
      const was = dragged;
      dragged = cid || null;
      if (was !== dragged) cursor = null; // the counter reads the dragged token's move
      pointAt(tileAt(e));
    },
    dragEnd: () => { dragged = null; if (state) showTile(); },
    drop: (cid, e) => {
      // the game master's move: `move` with only `to` takes no turn and costs nothing
      const [x, y] = tileAt(e);
      const c = placed(cid);
      if (!c || x < 0 || y < 0 || x >= mapSize[0] || y >= mapSize[1]) return;
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
    if (x < 0 || y < 0 || x >= mapSize[0] || y >= mapSize[1]) return;
    if (!moving) { actAt([x, y]); return; }
    moving = false;
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
    const a = el("a", { href: URL.createObjectURL(await r.blob()), download: `${state.encounter}.yaml` });
    a.click();
  });
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if (typing) return;
    if (e.key === "n" && !e.ctrlKey && !e.metaKey) endTurn();
    else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); send({ type: e.shiftKey ? "redo" : "undo" }); }
    else if ((e.key === "+" || e.key === "=") && !e.ctrlKey && !e.metaKey) mapView.zoomBy(mapView.STEP);
    else if (e.key === "-" && !e.ctrlKey && !e.metaKey) mapView.zoomBy(1 / mapView.STEP);
    else if (e.key === "0" && !e.ctrlKey && !e.metaKey) mapView.reset();
    else if (e.key === "Escape") { chosen = null; hideOdds(); renderActions(); renderRings(); showTile(); }
  });
  connect();
}

// --- a phone opens the map zoomed so a tile takes a 44 px tap (layout.js); once, and
// "Fit" shows the whole map again
let phoneZoomed = false;
function phoneZoom() {
  if (phoneZoomed) return;
  phoneZoomed = true;
  const z = mapLayout.touchZoom(TILE);
  if (z <= 1) return;
  const o = placed(state.turn) || state.combatants.find((c) => c.mine && c.at) || null;
  mapView.zoomBy(z);
  if (o) {
    const b = mapView.box();
    mapView.panBy(o.at[0] * TILE + TILE / 2 - (b[0] + b[2] / 2), o.at[1] * TILE + TILE / 2 - (b[1] + b[3] / 2));
  }
}

// --- a player's own move (issue 22 item 3): its token dragged where the table's policy
// and the rules offer it a move; the rules' own movement (wasteland: MAP then AP) or a
// walk (`walk: true`). The server checks the distance and the cost.
function playerMove(cid) {
  if (!state || state.you.role === "gm" || !state.policy.player_move) return null;
  const c = placed(cid);
  if (!c || !c.mine || !c.acting) return null; // in its turn (the server says what else)
  return (state.move_params || []).includes("walk") ? { walk: true } : {};
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
  if (!state) return;
  const actor = state.turn;
  if (state.you.role !== "gm" && !state.you.owns.includes(actor)) return;
  send({ type: "act", action: { actor, do: "end_turn" } });
}

// Connected once every script has run and set its listeners (table.js, roster.js,
// links.js listen for "fracas:state" from DOMContentLoaded): a first sync that came
// earlier would be drawn by app.js alone, the table's rules and the links left blank.
document.addEventListener("DOMContentLoaded", setup);
