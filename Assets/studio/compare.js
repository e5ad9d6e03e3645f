// Comparison: the saved version beside or under the current one, or a recording and the
// difference from it.

import { $, studio } from "./state.js";
import { api } from "./network.js";
import { draw, frameIndex, loadFrames } from "./player.js";

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
        $("diff").src = URL.createObjectURL(await r.blob());
        $("caption-diff").textContent = `difference: ${(Number(diff) * 100).toFixed(1)} % of pixels`;
      } else {
        $("caption-diff").textContent = await r.text();
      }
    }).finally(() => { studio.network.recordingBusy = false; });
  };
  theirs.onerror = () => { studio.network.recordingBusy = false; };
  theirs.src = api("frame", { v, ...at, of: "against" });
}

export function compareMode() { return $("compare").value; }

export function updateCompare() {
  const mode = compareMode();
  $("viewer-other").hidden = !(mode === "side" || mode === "against");
  $("viewer-diff").hidden = mode !== "against";
  $("onion-controls").hidden = mode !== "onion";
  $("caption-current").textContent = mode === "onion" ? "current, saved over it" : "current";
  $("caption-other").textContent = mode === "against" ? `recording: ${studio.server?.against?.path ?? ""}` : "saved";
  if ((mode === "side" || mode === "onion") && studio.server &&
      (!studio.playback.saved || studio.playback.saved.version !== studio.server.savedVersion)) {
    loadFrames(studio.server.savedVersion, "saved");
  }
  draw();
}
