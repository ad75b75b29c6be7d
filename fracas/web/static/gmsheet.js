// fracas serve: the game master adds a new combatant mid-fight from the ruleset's sheet
// form, the setup page's (sheetform.js), and keeps sheets in a list stored with the
// encounter to add later (issue 35). The form's values become a file's combatant on the
// server (POST /api/sheet/combatant, the setup page's conversion); the add is the
// table's `add` action on the socket, which the table checks as a file's combatant; a
// refusal's field (combatant.hp, combatant.at) points at its control. The kept list is
// the game master's alone (GET/POST/DELETE /api/sheet/kept): never in a sync. Loaded
// when first needed (roster.js's sheetModule: the panel opened, a sheet kept), not with
// the page: its first load is lighter by this module and sheetform.js.
import { $, el } from "./dom.js";
import { store, send, notice, api } from "./state.js";
import { clearFieldErrors, controlOf, idFrom, sheetBox, showFieldError, values } from "./sheetform.js";

let sheet = null; // the form's controls (sheetBox), once the form is asked for
let asked = false;
let kept = [];
let sent = new Map(); // field path -> the control that sent it
const adding = new Map(); // the socket message's id -> where its refusal is shown

const said = (text) => { $("sheet-said").textContent = text; };
const actor = () => store.state.turn || store.state.order[0];

function freeId(id) {
  const taken = (x) => store.state.combatants.some((c) => c.id === x);
  let out = id;
  for (let n = 2; taken(out); n++) out = `${id}-${n}`;
  return out;
}

async function build() {
  asked = true;
  let got;
  try { got = await api("/api/sheet"); } catch (err) { asked = false; notice(err.message); return; }
  sheet = sheetBox(got.form);
  sheet.legend.textContent = `A new ${got.form.title} combatant`;
  const id = sheet.get("id").focus;
  const nameInput = sheet.get("name").focus;
  let idTouched = false;
  id.addEventListener("input", () => { idTouched = Boolean(id.value); });
  nameInput.addEventListener("input", () => { if (!idTouched) id.value = idFrom(nameInput.value); });
  $("sheet-fields").replaceChildren(sheet.box);
  drawKept(got.kept);
}

// the form's values, each path kept for an error's field
function collect() {
  clearFieldErrors($("sheet-form"));
  said("");
  sent = new Map();
  return values(sheet.controls, "combatant", sent);
}

function fieldError(data, fallback) {
  const text = data.words || data.message;
  const node = data.field ? controlOf(sent, data.field) : null;
  if (node) showFieldError(node, text);
  else fallback(text);
}

async function converted() {
  try {
    return (await api("/api/sheet/combatant", "POST", { values: collect() })).combatant;
  } catch (err) {
    if (err.data) fieldError(err.data, said); else notice(err.message);
    return null;
  }
}

async function addNew(e) {
  e.preventDefault();
  if (!sheet) return;
  const combatant = await converted();
  if (!combatant) return;
  const action = { actor: actor(), do: "add", combatant };
  if ($("sheet-hidden").checked) action.hidden = true;
  const id = send({ type: "act", action });
  if (id !== null) adding.set(id, { form: true, name: combatant.name || combatant.id });
}

async function keepNew() {
  if (!sheet) return;
  try {
    drawKept((await api("/api/sheet/kept", "POST", { values: collect() })).kept);
    said("Kept for later.");
  } catch (err) {
    if (err.data) fieldError(err.data, said); else notice(err.message);
  }
}

export async function keepCopy() {
  const from = $("add-copy").value;
  if (!from) return;
  await built; // the list as asked at loading first: this keep's answer drawn after it
  try {
    drawKept((await api("/api/sheet/kept", "POST", { from })).kept);
    $("sheet-box").open = true;
    said(`Kept ${store.state.combatants.find((c) => c.id === from).name}'s sheet for later.`);
  } catch (err) { notice(err.message); }
}

function drawKept(list) {
  kept = list;
  $("kept-none").hidden = kept.length > 0;
  $("kept").replaceChildren(...kept.map((k, n) => {
    const c = k.combatant;
    const who = c.name || c.id;
    const li = el("li", { class: "kept-row", "data-n": String(n) });
    const what = [c.side ? `side ${c.side}` : null, c.max_hp !== undefined ? `max HP ${c.max_hp}` : null].filter(Boolean).join(", ");
    li.append(el("span", { class: "grow" }, `${who}${what ? ` (${what})` : ""}`));
    const add = el("button", { type: "button", "data-key": `kept:${n}:add` }, `Add ${who}`);
    add.addEventListener("click", () => {
      for (const p of li.querySelectorAll(".field-error")) p.remove();
      const action = { actor: actor(), do: "add", combatant: { ...c, id: freeId(c.id) } };
      const id = send({ type: "act", action });
      if (id !== null) adding.set(id, { row: li, name: who });
    });
    const drop = el("button", { type: "button", "data-key": `kept:${n}:drop` }, `Drop ${who}`);
    drop.addEventListener("click", async () => {
      try { drawKept((await api(`/api/sheet/kept/${n}`, "DELETE")).kept); } catch (err) { notice(err.message); }
    });
    li.append(add, drop);
    return li;
  }));
}

// app.js: the table refused a message of this page; an add's shows at its field.
export function refused(m) {
  const where = adding.get(m.id);
  if (!where) return;
  adding.delete(m.id);
  if (where.form) fieldError(m, said);
  else where.row.append(el("p", { class: "field-error", role: "alert" }, m.words || m.message));
}

// app.js: a change of this page is made
export function done(m) {
  const where = adding.get(m.id);
  if (!where) return;
  adding.delete(m.id);
  if (where.form) said(`${where.name} added to the fight.`);
}

// Loaded (roster.js): the form's buttons; the form and the kept list asked for once.
let built = null; // the form and the kept list, asked for once (again after a failure)
export function setup() {
  if (!built) {
    $("sheet-form").addEventListener("submit", addNew);
    $("sheet-keep").addEventListener("click", keepNew);
  }
  if (!built || !asked) built = build();
  return built;
}
