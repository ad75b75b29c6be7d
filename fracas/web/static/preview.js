// fracas serve: phone-first odds. A finger's tap on a target, a token or a tile opens a
// preview (the exact odds, asked of the server as a hover asks them: odds.js) and a
// separate Confirm; only the Confirm sends the action. A mouse's click and a key's
// Enter act at once, as before (their hover and focus already showed the odds).
// Changing a parameter, or the table moving on, asks the open preview's odds again.
"use strict";

let touching = false; // the latest press was a finger's
let preview = null; // {what}: what the Confirm would do ({target} | {at} | {several})

document.addEventListener("pointerdown", (e) => { touching = e.pointerType === "touch"; }, true);
document.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") touching = false; }, true);

// A target button, a token or a tile was pressed: a finger previews, the rest act.
function pick(what) {
  if (!chosen) return;
  if (touching) openPreview(what);
  else commit(what);
}

function actionOf(what) {
  if (what.several) return severalAction();
  if (what.at) return actionFor(null, what.at);
  return actionFor(what.target);
}

function pickWords(what) {
  if (what.several) return `${title(chosen.do)} ${chosen.several.map(name).join(", ")}`;
  if (what.at) return `${title(chosen.do)} at ${what.at[0]}, ${what.at[1]}`;
  return `${title(chosen.do)} ${name(what.target)}`;
}

function commit(what) {
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
  if (!preview || !chosen) return;
  const w = preview.what;
  if (w.several) askSeveralOdds();
  else if (w.at) { clearTimeout(tileTimer); ask(actionOf(w), pickWords(w).toLowerCase(), (odds) => showBlastOdds(odds, w.at)); }
  else askOdds(w.target);
}

function closePreview() {
  preview = null;
  const box = $("confirm-box");
  if (box) box.hidden = true;
}

// A parameter changed (a select, a switch, a number): the open preview follows it; a
// hover's box closes until the next hover, as before.
function paramsChanged() {
  if (preview) askPreview();
  else hideOdds();
}

// The pointer left a target: a hover's odds close, a preview's stay until Confirm or Cancel.
function leaveOdds() {
  if (!preview) hideOdds();
}

window.addEventListener("fracas:state", () => {
  if (!preview) return;
  const w = preview.what;
  const gone = !chosen || (w.target !== undefined && !(chosen.option.targets || []).includes(w.target));
  if (gone) { hideOdds(); return; }
  asked = null; // a new seq: the odds of the table as it is now
  askPreview();
});

document.addEventListener("DOMContentLoaded", () => {
  $("confirm-go").addEventListener("click", () => { if (preview) commit(preview.what); });
  $("confirm-cancel").addEventListener("click", () => hideOdds());
});
