// fracas serve: the table page's socket, opened as soon as this module arrives
// (issue 35, "speed and weight"). index.html runs it async, before the page's other
// modules are fetched and run: the socket's handshake, the hello and the table's first
// sync travel while they load, and what the socket hears waits here. state.js's
// connect takes the socket once (then opens its own, as it always did, on a reconnect).
// No import: nothing holds it back.

export function socketUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const token = location.pathname.split("/").pop();
  return `${proto}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}

// The first hello: the page holds no record yet (state.js's store.seq, 0).
export const HELLO = { type: "hello", seq: 0, winbar: true }; // winbar.js draws the bar

const early = { ws: null, opened: false, heard: [], closed: null };

if (location.pathname.startsWith("/t/")) {
  const ws = new WebSocket(socketUrl());
  early.ws = ws;
  ws.onopen = () => { early.opened = true; ws.send(JSON.stringify(HELLO)); };
  ws.onmessage = (e) => { early.heard.push(e); };
  ws.onclose = (e) => { early.closed = e; };
}

// The early socket, once: {ws, opened (its hello sent), heard (its messages, in order),
// closed (its close event, or null)}; null after, or where none was opened.
export function takeEarly() {
  if (!early.ws) return null;
  const taken = { ...early };
  early.ws = null;
  return taken;
}
