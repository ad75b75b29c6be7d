// fracas serve: the page's one state and its socket. Every panel imports what it reads
// from here (the table as this page's link sees it, its seq, the options) and sends
// through `send`; nothing here draws. The table's state, seq and options change only
// when a sync arrives (app.js); the rest is this page's own: the choice being made, the
// tile cursor, the token dragged.

import { $ } from "./dom.js";
import { socketUrl, HELLO, takeEarly } from "./socket.js";

export const TILE = 40;
export const token = location.pathname.split("/").pop();

export const store = {
  state: null, // the table, projected for this page's link
  seq: 0, // the record it shows
  options: {}, // actor -> what it may do now
  chosen: null, // {actor, do, option, params}: the action being set up
  moving: false, // the game master's move: the next tile clicked
  showRanges: false, // the "Ranges" toggle: rings around the measuring combatant
  cursor: null, // the tile the tile counter reads: [x, y]
  dragged: null, // the combatant whose token is being dragged (movecost.js: its cost)
  mapSize: [8, 6], // tiles drawn: [width, height]
};

// --- the socket -------------------------------------------------------------------

export const link = { ws: null }; // the open socket (a test closes it)
let nextId = 1;
let onMessage = () => {};

export function connect(handler = onMessage) {
  onMessage = handler;
  // the socket socket.js opened as the page loaded (its first sync perhaps heard), once
  const early = store.seq === 0 ? takeEarly() : null;
  const ws = early ? early.ws : new WebSocket(socketUrl());
  link.ws = ws;
  ws.onopen = () => {
    $("conn").textContent = "live";
    ws.send(JSON.stringify({ ...HELLO, seq: store.seq })); // winbar.js draws the bar
  };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = (e) => {
    if (e.code === 4403) {
      $("conn").textContent = "this link no longer opens the table";
      return;
    }
    $("conn").textContent = "reconnecting…";
    setTimeout(() => connect(), 1000);
  };
  if (!early) return;
  if (early.opened) $("conn").textContent = "live"; // its hello sent
  for (const e of early.heard) ws.onmessage(e);
  if (early.closed) ws.onclose(early.closed);
}

// The page's HTTP API behind its own token (the links, the sheet form, the party): the
// answer's JSON, or an Error whose message is the refusal's words (its code is for
// programs, not for the table) and whose `data` is the refusal.
export async function api(path, method = "GET", body = undefined) {
  const r = await fetch(path, {
    method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body && JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) { const e = new Error(data.message); e.data = data; throw e; }
  return data;
}

export const RETRIES = 5; // a change refused because the store is down is sent again, this often
export const changes = new Map(); // id -> [message, tries] of each change not yet answered

// A message to the table, with the seq this page saw; its id (null: not connected).
export function send(message, tries = 0) {
  const ws = link.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    notice("not connected; reconnecting");
    return null;
  }
  const id = nextId++;
  if (["act", "undo", "redo", "die"].includes(message.type)) changes.set(id, [message, tries]);
  ws.send(JSON.stringify({ ...message, id, seq: store.seq }));
  return id;
}

export function notice(text) {
  const n = $("notice");
  n.textContent = text;
  n.hidden = !text;
}

// --- words --------------------------------------------------------------------------

export function name(cid) {
  if (cid === null || cid === undefined) return "someone";
  const c = store.state && store.state.combatants.find((x) => x.id === cid);
  return c ? c.name : cid;
}

export function hpText(c) {
  if (c.hp_shown === "exact") return `${c.hp}/${c.max_hp}`;
  if (c.hp_shown === "label") return c.hp_label;
  return "HP hidden";
}

export function title(text) { return text.replace(/_/g, " ").replace(/^./, (x) => x.toUpperCase()); }

// --- words a game master reads (issue 22 item 8): a parameter's name as words, and a
// value that names a combatant as its name
export function words(text) { return String(text).replace(/_/g, " "); }
export function valueWords(p, v) {
  const c = store.state && store.state.combatants.find((x) => x.id === v);
  return c ? c.name : words(v);
}

// The combatant `cid` where it stands on the map (null: none, or off the map).
export function placed(cid) {
  const c = cid && store.state.combatants.find((x) => x.id === cid);
  return c && c.at ? c : null;
}

// --- the choice being made ------------------------------------------------------------

export function findOption(actor, what) {
  return (store.options[actor] || []).find((o) => o.do === what && o.allowed);
}

export function actionFor(t, at = null) {
  const { chosen } = store;
  const a = { actor: chosen.actor, do: chosen.do, ...chosen.params };
  if (t !== null) a.target = t;
  if (at !== null) a.at = at;
  return a;
}

export function severalAction() {
  return { ...actionFor(null), targets: [...store.chosen.several] };
}

export function aiming() {
  const { chosen } = store;
  return Boolean(chosen && chosen.option.target_kind === "combatant_or_tile" && chosen.option.tile);
}

// --- a player's own move (issue 22 item 3): its token dragged where the table's policy
// and the rules offer it a move; the rules' own movement (wasteland: MAP then AP) or a
// walk (`walk: true`). The server checks the distance and the cost.
export function playerMove(cid) {
  const { state } = store;
  if (!state || state.you.role === "gm" || !state.policy.player_move) return null;
  const c = placed(cid);
  if (!c || !c.mine || !c.acting) return null; // in its turn (the server says what else)
  return (state.move_params || []).includes("walk") ? { walk: true } : {};
}
