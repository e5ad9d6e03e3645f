// Comparison: the saved version beside or under the current one, or a recording and the
// difference from it.

import { $, compareMode, frameIndex, studio } from "./state.js";
import { api } from "./api.js";
import { draw, loadFrames } from "./player.js";

// The recording and the difference beside the frame on screen, which the page names: the
// storyboard's frame `k` once it has loaded, else the frame rendered at the scrubber's time.
// One request at a time.
export function requestRecordingFrame() {
  if (studio.network.recordingBusy) return;
  studio.network.recordingBusy = true;
  const t = studio.playback.time, v = studio.playback.version;
  const seq = studio.playback.frames;
  const at = seq && seq.version === v ? { k: frameIndex(seq, t) } : { t: t.toFixed(4) };
  const theirs = new Image();
  theirs.onload = () => {
    $("canvas-other").getContext("2d").drawImage(theirs, 0, 0, studio.server.width, studio.server.height);
    fetch(api("frame", { v, ...at, of: "diff" })).then(async (r) => {
      const diff = r.headers.get("X-Flipbook-Difference");
      if (r.ok) {
        // Each difference is a new picture; the one it replaces is let go.
        const shown = $("diff").src;
        $("diff").src = URL.createObjectURL(await r.blob());
        if (shown.startsWith("blob:")) URL.revokeObjectURL(shown);
        $("caption-diff").textContent = `difference: ${(Number(diff) * 100).toFixed(1)} % of pixels`;
      } else {
        $("caption-diff").textContent = await r.text();
      }
    }).catch((e) => {
      $("caption-diff").textContent = `the difference did not load: ${e}`;
    }).finally(() => { studio.network.recordingBusy = false; });
  };
  theirs.onerror = () => {
    $("caption-diff").textContent = "the recording's frame did not load";
    studio.network.recordingBusy = false;
  };
  theirs.src = api("frame", { v, ...at, of: "against" });
}

// Against a recording with features to follow: the version's score, as `flipbook score` prints
// it (each feature's RMS, worst and lag), asked for once per version, once its frames have
// loaded (the picture comes first), and shown under the difference.
export function requestScore() {
  const v = studio.playback.version;
  if (!studio.server?.against?.features || studio.network.scoreVersion === v) return;
  if (studio.playback.frames?.version !== v) {
    $("score").textContent = "scoring once the frames are in…";
    return;
  }
  studio.network.scoreVersion = v;
  $("score").textContent = "scoring…";
  fetch(api("score", { v })).then(async (r) => {
    if (studio.playback.version !== v) return;
    if (!r.ok) {
      $("score").textContent = await r.text();
      return;
    }
    const score = await r.json();
    const ms = (frames) => `${frames >= 0 ? "+" : ""}${(frames * score.interval * 1000).toFixed(0)} ms`;
    const rows = score.features.map((f) => {
      const row = document.createElement("tr");
      const cells = f.frames === 0
        ? [f.name, "not found in both", "", ""]
        : [f.name, `${f.rms.toFixed(1)} ${f.unit}`, `${f.worst >= 0 ? "+" : ""}${f.worst.toFixed(1)} ${f.unit} at ${f.worstAt.toFixed(2)} s`,
           f.lag ? `lag ${ms(f.lag.frames)}` : ""];
      row.replaceChildren(...cells.map((text) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        return cell;
      }));
      return row;
    });
    const caption = document.createElement("caption");
    // Where the recording starts in the storyboard, as the server found or was told it.
    caption.textContent = `score: ${score.comparedFrames} of ${score.motionFrames} frames of motion compared, ` +
      `recording from ${score.start.toFixed(2)} s`;
    const table = document.createElement("table");
    table.replaceChildren(caption, ...rows);
    $("score").replaceChildren(table);
    studio.telemetry.scored = { version: v, features: score.features };
  }).catch((e) => {
    if (studio.playback.version === v) $("score").textContent = `the score did not load: ${e}`;
  });
}

document.addEventListener("flipbook:frames", () => { if (!$("score").hidden) requestScore(); });


// The recording's timing as the server holds it: the frame interval and start given (empty for
// the file's own times and the found start), in the range the server sends, and what the file's
// times suggest where they look wrong.
export function showAgainstTiming(against) {
  if (!against) return;
  const [min, max] = against.intervalRange;
  Object.assign($("against-interval"), { min, max, value: against.frameInterval ?? "" });
  $("against-start").value = against.start ?? "";
  $("against-hint").textContent = against.frameInterval == null && against.suspectedInterval
    ? `its times look wrong for a capture: every ${against.suspectedInterval.toFixed(6)} s?`
    : "";
}

// The timing the two fields ask for: a number, or null where a field is empty.
export function timingAsked() {
  const value = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));
  return { frameInterval: value("against-interval"), start: value("against-start") };
}

export function updateCompare() {
  const mode = compareMode();
  $("against-controls").hidden = mode !== "against";
  $("viewer-other").hidden = !(mode === "side" || mode === "against");
  $("viewer-diff").hidden = mode !== "against";
  $("score").hidden = mode !== "against" || !studio.server?.against?.features;
  if (!$("score").hidden) requestScore();
  $("onion-controls").hidden = mode !== "onion";
  $("caption-current").textContent = mode === "onion" ? "current, saved over it" : "current";
  $("caption-other").textContent = mode === "against" ? `recording: ${studio.server?.against?.path ?? ""}` : "saved";
  if ((mode === "side" || mode === "onion") && studio.server &&
      (!studio.playback.saved || studio.playback.saved.version !== studio.server.savedVersion)) {
    loadFrames(studio.server.savedVersion, "saved");
  }
  draw();
}
