// fracas serve: phone-first odds. A finger's tap on a target, a token or a tile opens a
// preview (the exact odds, asked of the server as a hover asks them: odds.js) and a
// separate Confirm; only the Confirm sends the action. A mouse's click and a key's
// Enter act at once, as before (their hover and focus already showed the odds).
// Changing a parameter, or the table moving on, asks the open preview's odds again.
import { $ } from "./dom.js";
import { store, send, name, title, actionFor, severalAction } from "./state.js";
import { ask, askOdds, askSeveralOdds, showBlastOdds, hideOdds, stopTileOdds, forgetAsked } from "./odds.js";

let touching = false; // the latest press was a finger's
let preview = null; // {what}: what the Confirm would do ({target} | {at} | {several})

document.addEventListener("pointerdown", (e) => { touching = e.pointerType === "touch"; }, true);
document.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") touching = false; }, true);

// A target button, a token or a tile was pressed: a finger previews, the rest act.
export function pick(what) {
  if (!store.chosen) return;
  if (touching) openPreview(what);
  else commit(what);
}

function actionOf(what) {
  if (what.several) return severalAction();
  if (what.at) return actionFor(null, what.at);
  return actionFor(what.target);
}

function pickWords(what) {
  const { chosen } = store;
  if (what.several) return `${title(chosen.do)} ${chosen.several.map(name).join(", ")}`;
  if (what.at) return `${title(chosen.do)} at ${what.at[0]}, ${what.at[1]}`;
  return `${title(chosen.do)} ${name(what.target)}`;
}

function commit(what) {
  const { chosen } = store;
  if (!chosen) return;
  const action = actionOf(what);
  closePreview();
  chosen.sent = send({ type: "act", action }); // its answer ends this choice (app.js)
}

function openPreview(what) {
  preview = { what };
  $("confirm-go").textContent = `Confirm: ${pickWords(what)}`;
  $("confirm-box").hidden = false;
  askPreview();
  $("confirm-box").scrollIntoView({ block: "nearest" });
}

// The open preview's odds now (the cache answers a question already asked on this seq).
function askPreview() {
  if (!preview || !store.chosen) return;
  const w = preview.what;
  if (w.several) askSeveralOdds();
  else if (w.at) { stopTileOdds(); ask(actionOf(w), pickWords(w).toLowerCase(), (odds) => showBlastOdds(odds, w.at)); }
  else askOdds(w.target);
}

export function closePreview() {
  preview = null;
  const box = $("confirm-box");
  if (box) box.hidden = true;
}

// A parameter changed (a select, a switch, a number): the open preview follows it; a
// hover's box closes until the next hover, as before.
export function paramsChanged() {
  if (preview) askPreview();
  else hideOdds();
}

// The pointer left a target: a hover's odds close, a preview's stay until Confirm or Cancel.
export function leaveOdds() {
  if (!preview) hideOdds();
}

// The table moved on (app.js, at each sync): the open preview's odds asked again, or
// the preview closed where its target is gone.
export function follow() {
  const { chosen } = store;
  if (!preview) return;
  const w = preview.what;
  const gone = !chosen || (w.target !== undefined && !(chosen.option.targets || []).includes(w.target));
  if (gone) { hideOdds(); return; }
  forgetAsked(); // a new seq: the odds of the table as it is now
  askPreview();
}

export function setup() {
  $("confirm-go").addEventListener("click", () => { if (preview) commit(preview.what); });
  $("confirm-cancel").addEventListener("click", () => hideOdds());
}
