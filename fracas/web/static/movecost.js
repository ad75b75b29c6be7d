// fracas serve: what a dragged token's move would cost, before the drop (issue 22 item
// 3). The table answers it (a "cost" question: the actor's own move as its rules take
// it, planned and never stored: wasteland's MAP then AP, WL-2; elsewhere the table's
// walk); this page only asks, once per tile and one question at a time, and shows the
// rules' own words, or their refusal, on the tile counter. No cost is worked out here.
import { store, send, placed, playerMove } from "./state.js";
import { showTile } from "./app.js";

export const moveCosts = (() => {
  const known = new Map(); // `${seq}|${actor}|${x},${y}` -> the table's answer
  let asked = null; // {id, key} of the question in flight
  let wanted = null; // [actor, tile]: the latest tile pointed at while one was in flight

  const keyOf = (actor, tile) => `${store.seq}|${actor}|${tile[0]},${tile[1]}`;

  function ask(actor, tile) {
    const key = keyOf(actor, tile);
    if (known.has(key)) return;
    if (asked) { wanted = [actor, tile]; return; }
    const id = send({ type: "cost", action: { actor, do: "move", to: tile } });
    if (id !== null) asked = { id, key };
  }

  function next() {
    asked = null;
    const w = wanted;
    wanted = null;
    if (w) ask(...w);
  }

  // The server's answer (app.js's handle): kept, and the counter shown again.
  function heard(m) {
    const c = m.cost;
    known.set(`${m.seq}|${c.actor}|${c.to[0]},${c.to[1]}`, c);
    if (asked && asked.id === m.id) next();
    showTile();
  }

  // A refused question: its words stand for the tile (no notice pinned by a drag).
  function refused(m) {
    if (!asked || asked.id !== m.id) return false;
    known.set(asked.key, { allowed: false, own: true, code: m.code, message: m.words || m.message, words: [], free: false });
    next();
    showTile();
    return true;
  }

  // Whose drag asks: a player's own acting token (its drop is its own move), the game
  // master's drag of the acting combatant (its drop is free: the line says what the
  // combatant's own move would pay).
  function asks(cid) {
    const { state } = store;
    if (!state || !placed(cid)) return false;
    return state.you.role === "gm" ? cid === state.turn : Boolean(playerMove(cid));
  }

  // The counter's words for `actor` dragged to `tile`, and whether the tile is refused.
  function line(actor, tile) {
    const c = placed(actor);
    if (!c || !asks(actor) || (c.at[0] === tile[0] && c.at[1] === tile[1])) return null;
    const cost = known.get(keyOf(actor, tile));
    if (!cost) { ask(actor, tile); return { text: ` · moving ${c.name}: asking the table what it costs`, refused: false }; }
    if (!cost.own) return { text: " · the game master's move: free", refused: false };
    const pays = cost.words.length ? cost.words.join("; ") : "no cost";
    if (cost.allowed) {
      return { text: ` · move ${c.name} here: ${pays}` + (cost.free ? " (its own move; your drop puts it here free)" : ""), refused: false };
    }
    return { text: ` · ${c.name} cannot move here: ${cost.refusal_words || cost.message}` + // people's words, no code
      (cost.free ? "; your drop puts it here anyway (the game master's move)" : ""), refused: true };
  }

  return { heard, refused, line };
})();
