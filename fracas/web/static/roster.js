// fracas serve: the roster, for the game master (issue 22, item 2): the turn order,
// reordered by dragging a name or by keys (Alt+arrows), a delay, a removal; quick HP on the token
// picked (type -5 or +3, Enter); conditions from the ruleset's statuses with their
// turns, a mark of the game master's own for N of its turns, until removed, or until the
// start or the end of a named combatant's next turn (issue 35); initiative rolled again
// where the ruleset keeps a rolled one; each combatant's tactics preset (default, naive, random: what the win bar and
// the advisor play it by); a copy of a combatant added mid-fight; and a dice roller (the table rolls,
// shown to all or secret to the game master). Every control is an action the table
// checks (state.js's send); nothing here decides.
import { $, el, keepFocus } from "./dom.js";
import { store, send, notice, name, hpText } from "./state.js";

let picked = null; // the combatant the quick HP and the conditions are for
let dragged = null; // the id of the row being dragged

const byId = (cid) => store.state.combatants.find((c) => c.id === cid);
const gmAct2 = (actor, what, params = {}) => send({ type: "act", action: { actor, do: what, ...params } });

export function pick(cid) {
  if (!byId(cid)) return;
  picked = cid;
  const who = $("gm-who");
  if (who && who.value !== cid) { who.value = cid; who.dispatchEvent(new Event("change")); }
  keepFocus(draw);
}

function reorder(order) {
  const { state } = store;
  if (order.join() !== state.order.join()) gmAct2(state.order[0], "initiative", { order });
}

function moved(cid, by) {
  const order = [...store.state.order];
  const i = order.indexOf(cid), j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  reorder(order);
}

function small(text, label, key, onClick) {
  const b = el("button", { type: "button", class: "roster-btn", "aria-label": label, title: label, "data-key": key }, text);
  b.addEventListener("click", onClick);
  return b;
}

// the tactics preset the win bar and the advisor play this combatant by: a change is
// the game master's `tactics` action (the table checks it, logs it, undoes it)
function tactics(c) {
  const label = `Tactics of ${c.name}`;
  const sel = el("select", { class: "roster-tactics", "aria-label": label, title: label, "data-key": `tactics:${c.id}` });
  sel.append(...(store.state.presets || []).map((p) => el("option", { value: p, selected: p === c.tactics }, p)));
  sel.addEventListener("change", () => gmAct2(c.id, "tactics", { preset: sel.value }));
  return sel;
}

function row(cid, i) {
  const { state } = store;
  const c = byId(cid);
  const li = el("li", { tabindex: "0", "data-id": cid, "data-key": `roster:${cid}`,
    class: `${picked === cid ? "picked" : ""}${c && c.acting ? " acting" : ""}`,
    "aria-label": `${name(cid)}, ${i + 1} in the order; Alt and the arrow keys move it` });
  li.append(el("span", { class: "roster-name" }, `${i + 1}. ${name(cid)}${c && c.hidden ? " (hidden)" : ""}`));
  if (c && c.initiative !== undefined) li.append(el("span", { class: "small" }, `${c.initiative_word} ${c.initiative}`));
  if (c) li.append(el("span", { class: "small" }, `HP ${hpText(c)}`), tactics(c));
  const next = state.order[(i + 1) % state.order.length];
  li.append(
    small("↑", `Move ${name(cid)} earlier`, `roster:${cid}:up`, () => moved(cid, -1)),
    small("↓", `Move ${name(cid)} later`, `roster:${cid}:down`, () => moved(cid, 1)),
    small("Delay", `Delay ${name(cid)} to after ${name(next)}`, `roster:${cid}:delay`, () => gmAct2(cid, "delay", { after: next })),
    small("Pick", `Pick ${name(cid)} for quick HP and conditions`, `roster:${cid}:pick`, () => pick(cid)),
    small("Remove", `Remove ${name(cid)} from the fight`, `roster:${cid}:remove`, () => gmAct2(cid, "remove")));
  li.addEventListener("keydown", (e) => {
    if (e.target !== li || !e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
    e.preventDefault();
    moved(cid, e.key === "ArrowUp" ? -1 : 1);
  });
  // drag by the name (a finger or a mouse): dropped on another row, it takes that place
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
    const now = store.state.order;
    const order = now.filter((x) => x !== from);
    order.splice(order.indexOf(to) + (now.indexOf(from) < now.indexOf(to) ? 1 : 0), 0, from);
    reorder(order);
  });
  grip.addEventListener("pointercancel", () => { dragged = null; li.classList.remove("dragging"); });
  return li;
}

function drawConditions() {
  const { state } = store;
  const sel = $("cond-name");
  // the game master's choice kept through every redraw, "another (a free mark)" too;
  // before any choice, the ruleset's first status
  const was = sel.options.length ? sel.value : null;
  const list = state.status_list || [];
  sel.replaceChildren(...list.map((s) => el("option", { value: s.name, selected: s.name === was }, s.name.replace(/_/g, " "))),
    el("option", { value: "", selected: was === "" || (was === null && list.length === 0) }, "another (a free mark)"));
  const spec = list.find((s) => s.name === sel.value);
  $("cond-free").closest("label").hidden = Boolean(spec);
  // how long a mark of the game master's own lasts (a ruleset's status: by its rules)
  const lasts = $("cond-lasts");
  const kept = lasts.options.length ? lasts.value : "turns";
  const kinds = [["turns", "for N of its own turns (Turns; none: until removed)"], ["removed", "until removed"]];
  for (const cid of state.order) {
    kinds.push([`start:${cid}`, `until the start of ${name(cid)}'s next turn`], [`end:${cid}`, `until the end of ${name(cid)}'s next turn`]);
  }
  lasts.replaceChildren(...kinds.map(([v, text]) => el("option", { value: v, selected: v === kept }, text)));
  lasts.closest("label").hidden = Boolean(spec);
  // turns where the status counts them (a free mark may): escalation's conditions do not
  $("cond-turns").closest("label").hidden = spec ? !spec.details.some((d) => d.name === "turns") : lasts.value !== "turns";
  $("cond-help").textContent = spec ? `${spec.summary}${spec.details.length ? "; details: " + spec.details.map((d) => `${d.name}${d.default !== null ? ` (default ${d.default})` : ""}`).join(", ") : ""}` : "A mark of the game master's own: any name; it lasts N of its bearer's turns, until removed, or until the start or the end of someone's next turn.";
}

function draw() {
  const { state } = store;
  const box = $("roster-box");
  if (!box) return;
  box.hidden = !state || state.you.role !== "gm";
  if (box.hidden) return;
  if (picked && !byId(picked)) picked = null;
  if (!picked) picked = state.turn;
  $("roster").replaceChildren(...state.order.map(row));
  const c = byId(picked);
  $("quick-who").textContent = c ? `${c.name}: HP ${hpText(c)}` : "pick a token";
  $("quick-hp").setAttribute("aria-label", c ? `HP change for ${c.name}: -5 or +3, then Enter` : "HP change");
  $("init-row").hidden = !state.initiative_roll;
  $("init-each").checked = Boolean(state.initiative_each_round);
  const copy = $("add-copy");
  const was = copy.value;
  copy.replaceChildren(...state.combatants.map((x) => el("option", { value: x.id, selected: x.id === was }, x.name)));
  drawConditions();
  for (const t of document.querySelectorAll("#tokens .token")) t.classList.toggle("picked", t.getAttribute("data-id") === picked);
}

function quickHp(e) {
  e.preventDefault();
  const v = $("quick-hp").value.trim();
  const m = /^([+-])\s*(\d{1,6})$/.exec(v);
  if (!picked || !m || Number(m[2]) < 1) { notice(`${v || "nothing"}: type -5 to take 5 HP off, +3 to give 3 back`); return; }
  gmAct2(picked, m[1] === "+" ? "heal" : "damage", { amount: Number(m[2]) });
  $("quick-hp").value = "";
}

function addCondition(e) {
  const { state } = store;
  e.preventDefault();
  if (!picked) return;
  const spec = (state.status_list || []).find((s) => s.name === $("cond-name").value);
  const status = spec ? spec.name : $("cond-free").value.trim();
  if (!status) { notice("name the mark"); return; }
  const turns = $("cond-turns").value.trim();
  const lasts = spec ? "turns" : $("cond-lasts").value;
  const details = {};
  if (lasts === "turns" && /^\d+$/.test(turns) && (!spec || spec.details.some((d) => d.name === "turns"))) details.turns = Number(turns);
  const to = lasts.indexOf(":"); // until the start or the end of that one's next turn
  if (to > 0) Object.assign(details, { until: lasts.slice(0, to), of: lasts.slice(to + 1) });
  gmAct2(picked, "status", { add: { [status]: details } });
}

function addCopy(e) {
  const { state } = store;
  e.preventDefault();
  const from = $("add-copy").value;
  const who = $("add-name").value.trim();
  if (!from || !who) { notice("give the new combatant a name"); return; }
  let id = who.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "new";
  for (let n = 2; byId(id); n++) id = id.replace(/-\d+$/, "") + `-${n}`;
  const at = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec($("add-at").value);
  const combatant = { id, name: who };
  if (at) combatant.at = [Number(at[1]), Number(at[2])];
  const action = { copy: from, combatant };
  if (state.turn) action.after = state.order[state.order.length - 1];
  gmAct2(from, "add", action);
  $("add-name").value = "";
}

// A free roll: the game master's own (no actor: the log says "The game master rolls"),
// a player's as the combatant it plays (whose turn it is, else its first); the table
// checks whose it may be.
function roll(e) {
  const { state } = store;
  e.preventDefault();
  const notation = $("roll-notation").value.trim();
  if (!notation) { notice("type a roll: 2d6+1"); return; }
  const params = { notation };
  if (state.you.role === "gm") {
    if ($("roll-secret").checked) params.secret = true;
    send({ type: "act", action: { do: "roll", ...params } });
    return;
  }
  const owns = state.you.owns;
  gmAct2(owns.includes(state.turn) ? state.turn : owns[0], "roll", params);
}

export function setup() {
  $("quick-form").addEventListener("submit", quickHp);
  $("cond-form").addEventListener("submit", addCondition);
  $("cond-name").addEventListener("change", drawConditions);
  $("cond-lasts").addEventListener("change", drawConditions);
  // initiative rolled again by the ruleset's own rule (the table rolls, logs, undoes)
  $("init-roll").addEventListener("click", () => gmAct2(store.state.order[0], "initiative", { roll: true }));
  // ... or at the start of every round, by the same rule (a table option: logged, undone)
  $("init-each").addEventListener("change", (e) => gmAct2(store.state.order[0], "initiative", { each_round: e.target.checked }));
  $("add-form").addEventListener("submit", addCopy);
  // a new combatant from the sheet form, the kept list: gmsheet.js, loaded when needed
  $("sheet-box").addEventListener("toggle", () => { if ($("sheet-box").open) sheetModule().then((m) => m.setup()); });
  $("add-keep").addEventListener("click", () => sheetModule().then((m) => m.keepCopy()));
  $("roll-form").addEventListener("submit", roll);
  $("cond-clear").addEventListener("click", () => {
    const c = byId(picked);
    const name = $("cond-name").value || $("cond-free").value.trim();
    if (c && name) gmAct2(picked, "status", { remove: name });
  });
  // a token clicked with no action chosen: the game master picks it
  $("tokens").addEventListener("click", (e) => {
    const t = e.target.closest(".token");
    if (t && store.state && store.state.you.role === "gm" && !store.chosen) { pick(t.getAttribute("data-id")); $("quick-hp").focus({ preventScroll: true }); }
  });
}

// gmsheet.js (and sheetform.js with it), loaded the first time the game master opens the
// sheet panel or keeps a sheet: no player's page and no first load fetches them.
let sheetLoading = null;
export let sheetLoaded = null; // the module, once loaded (app.js hands it the answers)
export function sheetModule() {
  if (!sheetLoading) {
    sheetLoading = import("./gmsheet.js").then(async (m) => { await m.setup(); sheetLoaded = m; return m; });
  }
  return sheetLoading;
}

// The table moved on (app.js, at each sync).
export function follow(state) {
  draw();
  $("sheet-box").hidden = state.you.role !== "gm";
  $("roll-box").hidden = !(state.you.role === "gm" || state.you.owns.length);
  $("roll-secret").closest("label").hidden = state.you.role !== "gm";
}
