// The timeline: the storyboard's phases, and a track per layer and property showing when each
// animates and in which phase. A phase's end is a handle when a param sets its length (a
// hold's seconds, an animation's duration): dragging it, or its arrow keys, edit that param.
// The server finds which param that is, and what each param moves (GET /api/timeline), from
// plans alone; the page asks once the versions stop coming (studio.js).

import { $, fieldOf as field, shownValue, studio } from "./state.js";
import { api } from "./api.js";
import { current, edit } from "./history.js";
import { filterParams, renderParams, showMoves, trimNumber } from "./params.js";

let asked = 0;       // the version whose timeline was last asked for
let drag = null;     // the edge being dragged: its param, its value and place when taken

export async function loadTimeline(version) {
  if (asked === version) return;
  asked = version;
  let response;
  try {
    response = await fetch(api("timeline", { v: version }));
  } catch {
    return;
  }
  // A version replaced on the way (410) leaves the timeline to its successor.
  if (!response.ok) return;
  const timeline = await response.json();
  if (timeline.version !== studio.playback.version) return;
  studio.timeline = timeline;
  if (!drag) drawTimeline();
  if ($("param-group").value === "moves") renderParams(true);
  else {
    showMoves();
    filterParams();
  }
}

// The phase containing `t`, for a track's colour.
function phaseAt(t) {
  const phases = studio.timeline.phases.filter((p) => p.end > p.start);
  const i = phases.findIndex((p) => t >= p.start - 1e-9 && t < p.end - 1e-9);
  return i >= 0 ? i : Math.max(0, phases.length - 1);
}

function row(label, title) {
  const r = document.createElement("div");
  r.className = "tl-row";
  const name = document.createElement("span");
  name.className = "tl-label";
  name.textContent = label;
  name.title = title || label;
  const lane = document.createElement("div");
  lane.className = "tl-lane";
  r.append(name, lane);
  return [r, lane];
}

// A time as a share of the storyboard, for a left or a width.
const duration = () => Math.max(studio.server.duration, 1e-6);
const percent = (t) => `${(t / duration()) * 100}%`;

export function drawTimeline() {
  const host = $("timeline-rows");
  const tl = studio.timeline;
  if (!tl || !studio.server) return;
  // A handle focused for the arrow keys stays focused when it is drawn anew.
  const focused = document.activeElement?.classList.contains("tl-edge") ? document.activeElement.dataset.key : null;
  const rows = [];
  const [phaseRow, phaseLane] = row("phases", "the storyboard's steps; drag a phase's end to change its length");
  phaseRow.classList.add("tl-phases");
  tl.phases.forEach((p, i) => {
    if (p.end - p.start <= 0 && !p.lengthKey) return;
    const seg = document.createElement("div");
    seg.className = `tl-phase tl-c${i % 6}` + (p.name === "hold" ? " hold" : "");
    seg.style.left = percent(p.start);
    seg.style.width = percent(p.end - p.start);
    seg.append(Object.assign(document.createElement("span"), { textContent: p.name }));
    seg.title = `${p.name}: ${p.start.toFixed(2)}–${p.end.toFixed(2)} s` + (p.lengthKey ? `; its end sets ${p.lengthKey}` : "");
    seg.dataset.phase = String(i);
    phaseLane.append(seg);
    if (p.lengthKey && field(p.lengthKey)) phaseLane.append(edgeHandle(p, seg));
  });
  rows.push(phaseRow);
  let lastLayer = null;
  for (const track of tl.tracks) {
    const [r, lane] = row(track.layer === lastLayer ? `· ${track.property}` : `${track.layer} · ${track.property}`,
      `${track.layer} · ${track.property}`);
    r.dataset.layer = track.layer;
    lastLayer = track.layer;
    for (const [start, end] of track.spans) {
      const bar = document.createElement("div");
      bar.className = `tl-bar tl-c${phaseAt(start) % 6}` + (end - start <= 0 ? " instant" : "");
      bar.style.left = percent(start);
      if (end > start) bar.style.width = percent(end - start);
      bar.title = `${track.layer}.${track.property}: ${start.toFixed(2)}–${end.toFixed(2)} s (${tl.phases.filter((p) => p.end > p.start)[phaseAt(start)]?.name || ""})`;
      lane.append(bar);
    }
    rows.push(r);
  }
  host.replaceChildren(...rows);
  if (focused) host.querySelector(`.tl-edge[data-key="${CSS.escape(focused)}"]`)?.focus();
}

function edgeHandle(p, segment) {
  const handle = document.createElement("div");
  handle.className = "tl-edge";
  handle.style.left = percent(p.end);
  handle.tabIndex = 0;
  handle.setAttribute("role", "slider");
  handle.setAttribute("aria-label", `end of ${p.name}: ${p.lengthKey}`);
  handle.dataset.key = p.lengthKey;
  handle.title = `drag to change ${p.lengthKey} (${shownValue(field(p.lengthKey))} s); ← → nudge it, Shift: ten times`;
  handle.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const lane = handle.parentElement.getBoundingClientRect();
    drag = { key: p.lengthKey, base: Number(current(p.lengthKey)), x: e.clientX, width: lane.width,
      duration: duration(), handle, segment, start: p.start, end: p.end };
  });
  handle.addEventListener("pointermove", (e) => {
    if (!drag || drag.handle !== handle) return;
    const dt = ((e.clientX - drag.x) / drag.width) * drag.duration;
    const value = setLength(drag.key, drag.base + dt);
    const end = drag.end + (value - drag.base);
    handle.style.left = percent(end);
    segment.style.width = percent(Math.max(0, end - drag.start));
  });
  const stop = () => {
    if (!drag || drag.handle !== handle) return;
    drag = null;
    drawTimeline();
  };
  handle.addEventListener("pointerup", stop);
  handle.addEventListener("pointercancel", stop);
  handle.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    e.stopPropagation();
    const by = (e.key === "ArrowLeft" ? -0.01 : 0.01) * (e.shiftKey ? 10 : 1);
    setLength(p.lengthKey, Number(current(p.lengthKey)) + by);
  });
  return handle;
}

// Sets a length param to `seconds`, rounded to a hundredth and kept in its range (no edit when
// that is the value already shown); returns that value.
function setLength(key, seconds) {
  const f = field(key);
  const [lo, hi] = f.range || [0, 1e9];
  const value = Math.min(Math.max(Math.round(seconds * 100) / 100, Math.max(lo, 0)), hi);
  const text = trimNumber(value);
  if (text === current(key)) return value;
  edit({ [key]: text });
  return value;
}
