// Flipbook studio, the entry module: applies the server's state to the page, wires the controls
// and connects the modules; every other module imports only those below it.

import { $, compareMode, setStatus, showError, studio } from "./state.js";
import {
  connect, discardExport, exportAs, listen, loadState, postTiming, postView, saveExport, sendEdit, showCommand, simplePost,
} from "./network.js";
import {
  draw, drawPhases, loadFrames, setAfterDraw, setPlaying, settleTimings, showInstantFrame, step, tick,
} from "./player.js";
import { requestRecordingFrame, showAgainstTiming, timingAsked, updateCompare } from "./compare.js";
import { filterParams, fitLabels, renderParams } from "./params.js";
import { fitPreviews, setUpLayout } from "./layout.js";
import { applySnapshot, showSnapshots, takeSnapshot } from "./snapshots.js";
import { redo, showButtons, undo } from "./history.js";
import { onKey, showKeys } from "./keys.js";
import { drawTimeline, loadTimeline } from "./timeline.js";

let timelineTimer = 0;

// One button per format the server exports, named and labelled as it says.
function showExportFormats(formats) {
  $("export-formats").replaceChildren(...formats.map(({ name, label }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `export-${name}`;
    button.textContent = label;
    button.addEventListener("click", () => exportAs(name));
    return button;
  }));
}

// One input per export option the server offers a control for: its label, what it shows
// empty, and for a number its range and step, as the server's table gives them.
function showExportControls(controls) {
  $("export-options").append(...controls.map(({ name, label, placeholder, doc, min, max, step }) => {
    const input = document.createElement("input");
    input.id = `export-${name}`;
    input.placeholder = placeholder;
    input.title = doc;
    input.addEventListener("input", showCommand);
    if (min != null) Object.assign(input, { type: "number", min, max, step: step ?? "any" });
    else Object.assign(input, { type: "text", size: 7 });
    const wrap = document.createElement("label");
    wrap.append(`${label} `, input);
    return wrap;
  }));
}

export function applyState(state) {
  const first = !studio.server;
  const old = studio.server;
  studio.server = state;
  $("scene-name").textContent = state.scene;
  document.title = `${state.scene} · Flipbook studio`;
  fillSelect($("storyboard"), state.storyboards, state.storyboard);
  $("scale").value = String(state.scale);
  showCommand();
  $("save").disabled = Object.keys(state.edits).length === 0;
  $("revert").disabled = Object.keys(state.edits).length === 0;
  $("save").title = `writes the changed values into ${state.savesTo}`;
  if (first) showExportFormats(state.exportFormats);
  if (first) showExportControls(state.exportControls);
  const againstOption = $("compare").querySelector('option[value="against"]');
  againstOption.hidden = !state.against;
  showAgainstTiming(state.against);
  if (first && state.against) $("compare").value = "against";
  showError(state.error);
  showDiskChange(state.diskChange, state.savesTo);
  drawPhases();
  renderParams(old);
  if (first) showSnapshots();
  // Setting a canvas's size clears it, even to the same size: only a new size may, so that the
  // picture on screen stays until the next one is drawn over it (no blank between versions,
  // and the last good render stays under an error).
  for (const c of [$("canvas"), $("canvas-other")]) {
    if (c.width !== state.width) c.width = state.width;
    if (c.height !== state.height) c.height = state.height;
  }
  fitPreviews(state.width, state.height);
  if (state.version !== studio.playback.version || first) {
    studio.playback.version = state.version;
    showInstantFrame(state.version);
    loadFrames(state.version, "frames");
  }
  // The timeline once the versions stop coming (a drag makes one after another): the server
  // plans the storyboard again for each param to make it, which the frames should not wait on.
  clearTimeout(timelineTimer);
  timelineTimer = setTimeout(() => loadTimeline(state.version), first ? 0 : 250);
  if (compareMode() === "side" || compareMode() === "onion") {
    if (!studio.playback.saved || studio.playback.saved.version !== state.savedVersion) loadFrames(state.savedVersion, "saved");
  }
  updateCompare();
}

export function fillSelect(select, names, chosen) {
  if (select.options.length !== names.length || [...select.options].some((o, i) => o.value !== names[i])) {
    select.replaceChildren(...names.map((n) => new Option(n, n)));
  }
  select.value = chosen;
}

// The file changed on disk under unsaved edits: which keys, and for each conflict the file's
// value and the page's, with a tick to keep the page's. Nothing is saved until one is chosen.
export function showDiskChange(change, file) {
  const box = $("disk");
  box.hidden = !change;
  if (!change) return;
  const others = change.keys.filter((k) => !change.conflicts.includes(k));
  $("disk-title").textContent = `${file} changed on disk since the studio read it` +
    (others.length ? ` (also ${others.join(", ")}, taken from the file)` : "") +
    (change.conflicts.length ? ". Changed there and here:" : ". Nothing you changed was changed there.");
  const list = $("disk-conflicts");
  list.replaceChildren(...change.conflicts.map((key) => {
    const item = document.createElement("li");
    const label = document.createElement("label");
    const tick = document.createElement("input");
    tick.type = "checkbox";
    tick.checked = true;
    tick.dataset.key = key;
    label.append(tick, ` ${key}: keep mine (${change.mine[key]}) over the file's (${change.disk[key]})`);
    item.append(label);
    return item;
  }));
  $("disk-merge").hidden = change.conflicts.length === 0;
}

export function settle(choice) {
  const keep = choice === "keep"
    ? studio.server.diskChange.conflicts
    : [...$("disk-conflicts").querySelectorAll("input:checked")].map((t) => t.dataset.key);
  const body = choice === "reload" ? { choice: "reload" } : { choice: "merge", keep };
  return simplePost("settle", choice === "reload" ? "reloaded the file" : "merged; Save writes the result", {}, body);
}

export function wire() {
  $("play").addEventListener("click", () => setPlaying(!studio.playback.playing));
  $("step-back").addEventListener("click", () => step(-1));
  $("step-forward").addEventListener("click", () => step(1));
  $("speed").addEventListener("change", () => { studio.playback.speed = Number($("speed").value); });
  $("scrub").addEventListener("input", () => {
    setPlaying(false);
    studio.playback.time = Number($("scrub").value) * (studio.server?.duration || 0);
    draw();
  });
  $("storyboard").onchange = () => postView({ storyboard: $("storyboard").value });
  $("scale").onchange = () => postView({ scale: Number($("scale").value) });
  $("compare").addEventListener("change", updateCompare);
  $("against-interval").addEventListener("change", () => postTiming(timingAsked()));
  $("against-start").addEventListener("change", () => postTiming(timingAsked()));
  $("onion").addEventListener("input", draw);
  $("save").addEventListener("click", () => simplePost("save", `saved to ${studio.server.savesTo}`));
  $("revert").addEventListener("click", () => simplePost("revert", "reverted to the file on disk"));
  $("disk-reload").addEventListener("click", () => settle("reload"));
  $("disk-keep").addEventListener("click", () => settle("keep"));
  $("disk-merge").addEventListener("click", () => settle("merge"));
  $("export-save").addEventListener("click", saveExport);
  $("export-discard").addEventListener("click", () => { discardExport(); setStatus("export discarded"); });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  document.addEventListener("keydown", onKey);
  $("keys-close").addEventListener("click", () => showKeys(false));
  $("keys-open").addEventListener("click", () => showKeys(true));
  $("param-search").addEventListener("input", filterParams);
  $("param-group").addEventListener("change", () => renderParams(true));
  // The timeline and the line across it follow the window's width.
  window.addEventListener("resize", () => {
    if (studio.server) fitPreviews(studio.server.width, studio.server.height);
    fitLabels();
    drawTimeline();
    draw();
  });
  $("snapshot").addEventListener("click", takeSnapshot);
  $("snapshots").addEventListener("change", () => applySnapshot($("snapshots").value));
  setUpLayout();
}

// For the browser test: the state, and the actions it drives directly.
window.flipbook = studio;
window.flipbookActions = { setPlaying, draw, requestRecordingFrame, sendEdit, undo, redo };

// The one place the modules meet: the actions' answers go to the views, and a drawn frame
// asks for the recording's frame beside it.
connect({
  state: applyState,
  version: (version) => { showInstantFrame(version); loadFrames(version, "frames"); },
  settled: settleTimings,
});
setAfterDraw((mode) => { if (mode === "against") requestRecordingFrame(); });
wire();
showButtons();
loadState().then(() => { listen(); setPlaying(true); });
requestAnimationFrame(tick);
