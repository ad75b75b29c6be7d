// fracas serve: the table page's socket, as index.html's inline script opened it at the
// top of the page (issue 35, "speed and weight"): the socket's handshake, the hello and
// the table's first sync travel while the page's style and script load, and what the
// socket hears waits there. The script hands it over in window.fracasSocket, taken here
// and gone from window at once; state.js's connect takes the socket once (then opens its
// own, as it always did, on a reconnect).

const early = window.fracasSocket;
delete window.fracasSocket;

// The socket's address, with this page's token.
export function socketUrl() {
  return early.url;
}

// The first hello: the page holds no record yet (state.js's store.seq, 0).
export const HELLO = early.hello; // { type: "hello", seq: 0, winbar: true }: winbar.js draws the bar

// The early socket, once: {ws, opened (its hello sent), heard (its messages, in order),
// closed (its close event, or null)}; null after.
export function takeEarly() {
  if (!early.ws) return null;
  const taken = { ws: early.ws, opened: early.opened, heard: early.heard, closed: early.closed };
  early.ws = null;
  return taken;
}
