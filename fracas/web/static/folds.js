// fracas serve: the rest folded on a player's phone (issue 35, "a layout that is a
// table"). On a touch screen under 900 px (app.css's one column; a narrow window under
// a mouse folds nothing) a player's page shows her own turn first (the actions,
// targets, odds and Confirm) and folds every other panel: its heading becomes a
// disclosure button (aria-expanded; a tap, Enter or Space unfolds it) that, folded,
// says what matters in a line: whose turn it is, her HP, the latest log line. The
// panels are never drawn again (a sync redraws what is in them), so a fold stays as it
// was set through every redraw; its button keeps the focus by its data-key. A wide
// screen, and the game master's page, fold nothing.
import { $, el } from "./dom.js";
import { name, hpText } from "./state.js";

const PHONE = matchMedia("(max-width: 899px) and (pointer: coarse)"); // a phone: narrow, touched
// Every panel folds but the actions and a player's waiting request (requests-box).
const OPEN = new Set(["act-box", "requests-box"]);
const opened = new Set(); // the panels unfolded by a tap (this page's, while it lives)
let player = false;
let last = null; // the state last followed
let onOpen = () => {};

export const folded = (id) => Boolean($(id) && $(id).classList.contains("folded"));

function on() { return player && PHONE.matches; }

function fold(section, shut) {
  section.classList.toggle("folded", shut);
  const b = section.querySelector(":scope > h2 > button.fold");
  if (b) b.setAttribute("aria-expanded", String(!shut));
}

// The panel's heading as a disclosure: "Log" and, folded, its line ("Ana hits Bo").
function foldable(section) {
  const h2 = section.querySelector(":scope > h2");
  if (!h2 || h2.querySelector("button.fold")) return;
  const id = section.id;
  // the button named by the heading alone; its line describes it (and a tap on the
  // line unfolds too)
  const b = el("button", { type: "button", class: "fold", "aria-expanded": "false", "aria-controls": id,
    "aria-describedby": `${id}-sum`, "data-key": `fold:${id}` }, h2.textContent);
  const line = el("span", { class: "fold-sum", id: `${id}-sum` });
  b.addEventListener("click", () => {
    const shut = !section.classList.contains("folded");
    if (shut) opened.delete(id); else opened.add(id);
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

// Unfold a panel the player needs now (the map, when an action aims at a tile).
export function open(id) {
  const section = $(id);
  if (!section || !section.classList.contains("folded")) return;
  opened.add(id);
  fold(section, false);
  onOpen(id);
}

function sum(id, text) {
  const span = document.getElementById(`${id}-sum`);
  if (span && span.textContent !== text) span.textContent = text;
}

// What a folded panel says in its heading: whose turn, the player's own HP, the log's
// latest line.
function summaries(state) {
  if (!state) return;
  const whose = state.outcome && state.outcome.words ? state.outcome.words
    : `Round ${state.round}: ${state.turn_words || (state.turn === null ? "a turn this page does not see" : `${name(state.turn)}'s turn`)}`;
  const mine = state.combatants.filter((c) => c.mine).map((c) => `${c.name} HP ${hpText(c)}`);
  sum("order-box", [whose, ...mine].join(" · "));
  const line = $("log").lastElementChild; // its words (the rules it cites behind "Rules")
  sum("log-box", line && line.firstChild ? line.firstChild.textContent : "");
}

// At each sync (app.js), and when a panel is made (the win bar): the folds where they
// belong, their lines said again.
export function follow(state) {
  if (state) { last = state; player = state.you.role !== "gm"; }
  for (const section of document.querySelectorAll("main > section[id]")) {
    if (OPEN.has(section.id)) continue;
    if (on()) foldable(section); else plain(section);
  }
  if (on()) summaries(last);
}

export function setup(opener) {
  onOpen = opener;
  PHONE.addEventListener("change", () => follow(null)); // a phone turned, a window widened
}
