// Frames and playback: the frame under the scrubber first, then every picture of a version,
// played on the canvas at the scrubber's time.

import { $, compareMode, frameIndex, setStatus, studio } from "./state.js";
import { api } from "./api.js";
import { loadState } from "./network.js";

// What else a drawn frame asks for (the recording's frame at the same time, in compare), given
// by the entry module.
let afterDraw = () => {};

// Sets what runs after each frame is drawn.
export function setAfterDraw(f) { afterDraw = f; }

// The frame under the scrubber, rendered at once, before the whole storyboard.
export function showInstantFrame(version) {
  const img = new Image();
  const t = studio.playback.time;
  img.onload = () => {
    if (studio.playback.version !== version || (studio.playback.frames && studio.playback.frames.version === version)) return;
    const ctx = $("canvas").getContext("2d");
    ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, img.width, img.height);
    ctx.drawImage(img, 0, 0);
    noteShown(version, false);
  };
  img.src = api("frame", { v: version, t: t.toFixed(4) });
}

// Notes that a frame of `version` (or all of them) is on screen, and times the change that made it.
export function noteShown(version, whole) {
  const now = performance.now();
  if (version > studio.telemetry.shown.version) studio.telemetry.shown = { version, at: now };
  if (whole && version > studio.telemetry.playable.version) studio.telemetry.playable = { version, at: now };
  settleTimings();
}

export function settleTimings() {
  const a = studio.telemetry.awaiting;
  if (!a) return;
  if (!a.framed && studio.telemetry.shown.version >= a.version) {
    studio.telemetry.latencies.push(studio.telemetry.shown.at - a.started);
    a.framed = true;
  }
  if (studio.telemetry.playable.version >= a.version) {
    studio.telemetry.playableLatencies.push(studio.telemetry.playable.at - a.started);
    studio.telemetry.awaiting = null;
  }
}

// Every picture of a version, once the server has rendered them all. A few load at a time and
// a newer version cancels them, so that the browser's few connections to the server stay free
// for the next change and its frame.
const loaders = {};

// A version's pictures are let go as soon as another takes their place: each is a frame's
// worth of memory, and a slider dragged makes a version per step.
function release(images) {
  for (const picture of images ?? []) picture?.close();
}

export async function loadFrames(version, slot) {
  loaders[slot]?.abort();
  const controller = new AbortController();
  loaders[slot] = controller;
  const signal = controller.signal;
  setStatus(slot === "frames" ? "rendering…" : "rendering the saved version…");
  let manifest, images;
  try {
    const response = await fetch(api("frames", { v: version }), { signal });
    if (!response.ok) {
      // Replaced by a newer version meanwhile: ask which one is current now.
      if (slot === "frames" && studio.playback.version === version && !studio.network.inFlight) loadState();
      return;
    }
    manifest = await response.json();
    images = new Array(manifest.pictures);
    let next = 0;
    const worker = async () => {
      while (next < manifest.pictures) {
        const k = next++;
        const r = await fetch(api("picture", { v: version, k }), { signal });
        if (!r.ok) throw new Error(`picture ${k}: ${r.status}`);
        images[k] = await createImageBitmap(await r.blob());
      }
    };
    await Promise.all([worker(), worker(), worker()]);
  } catch (e) {
    release(images);
    return; // cancelled by a newer version, or the version is gone
  }
  const loaded = { version, times: manifest.times, frames: manifest.frames, images };
  if (slot === "frames") {
    if (studio.playback.version !== version) return release(images);
    release(studio.playback.frames?.images);
    studio.playback.frames = loaded;
    studio.telemetry.loads += 1;
    noteShown(version, true);
    document.dispatchEvent(new CustomEvent("flipbook:frames"));
    setStatus(`${manifest.times.length} frames, ${manifest.pictures} pictures, rendered in ${manifest.renderSeconds.toFixed(2)} s`);
  } else {
    if (!studio.server || studio.server.savedVersion !== version) return release(images);
    release(studio.playback.saved?.images);
    studio.playback.saved = loaded;
  }
  draw();
}

export function draw() {
  const state = studio.server;
  if (!state) return;
  $("scrub").value = String(state.duration > 0 ? studio.playback.time / state.duration : 0);
  // The timeline's line at the same time, over its lanes (the rows scroll, their bar may not).
  const lane = document.querySelector("#timeline-rows .tl-lane");
  if (lane) {
    const box = lane.getBoundingClientRect(), body = $("timeline-cursor").parentElement.getBoundingClientRect();
    $("timeline-cursor").style.left = `${box.left - body.left + Number($("scrub").value) * box.width}px`;
  }
  const current = studio.playback.frames;
  const k = current && current.version === studio.playback.version ? frameIndex(current, studio.playback.time) : -1;
  $("time").textContent = `${studio.playback.time.toFixed(2)} s` + (k >= 0 ? ` · frame ${k}` : "");
  if (k >= 0) {
    const ctx = $("canvas").getContext("2d");
    ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, state.width, state.height);
    ctx.drawImage(current.images[current.frames[k]], 0, 0);
    const mode = compareMode();
    if (mode === "onion" && studio.playback.saved) {
      ctx.globalAlpha = Number($("onion").value);
      ctx.drawImage(studio.playback.saved.images[studio.playback.saved.frames[frameIndex(studio.playback.saved, studio.playback.time)]], 0, 0);
      ctx.globalAlpha = 1;
    }
    if (mode === "side" && studio.playback.saved) {
      const other = $("canvas-other").getContext("2d");
      other.clearRect(0, 0, state.width, state.height);
      other.drawImage(studio.playback.saved.images[studio.playback.saved.frames[frameIndex(studio.playback.saved, studio.playback.time)]], 0, 0);
    }
    afterDraw(mode);
  }
}

export function drawPhases() {
  const state = studio.server;
  const track = $("phases");
  track.replaceChildren();
  if (!state || state.duration <= 0) return;
  for (const p of state.phases) {
    if (p.end - p.start <= 0) continue;
    const div = document.createElement("div");
    div.className = "phase" + (p.name === "hold" ? " hold" : "");
    div.style.left = `${(p.start / state.duration) * 100}%`;
    div.style.width = `${((p.end - p.start) / state.duration) * 100}%`;
    div.append(Object.assign(document.createElement("span"), { textContent: p.name }));
    div.title = `${p.name}: ${p.start.toFixed(2)}–${p.end.toFixed(2)} s`;
    track.append(div);
  }
}

export function tick(now) {
  if (studio.playback.playing && studio.server) {
    const dt = (now - studio.playback.lastTick) / 1000;
    const d = studio.server.duration;
    studio.playback.time = d > 0 ? (studio.playback.time + dt * studio.playback.speed) % d : 0;
    draw();
  }
  studio.playback.lastTick = now;
  requestAnimationFrame(tick);
}

export function setPlaying(on) {
  studio.playback.playing = on;
  $("play").textContent = on ? "Pause" : "Play";
}

export function step(by) {
  setPlaying(false);
  const seq = studio.playback.frames;
  if (!seq) return;
  const k = Math.min(Math.max(frameIndex(seq, studio.playback.time) + by, 0), seq.times.length - 1);
  studio.playback.time = seq.times[k];
  draw();
}
