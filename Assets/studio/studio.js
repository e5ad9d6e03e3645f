// Flipbook studio: plays the storyboard the server renders, edits params, saves.
// Plain JavaScript, no build step. The server is the only source of frames: every picture
// here is one the Flipbook library rendered for the values on screen.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);

const studio = {
  state: null,        // the server's state (GET /api/state)
  version: 0,         // the version whose frames play
  frames: null,       // {times, frames: [picture index], images: [HTMLImageElement]}
  saved: null,        // the same, for the saved version (compare)
  time: 0,
  playing: false,
  speed: 1,
  lastTick: 0,
  pending: null,      // edits waiting for the request in flight
  inFlight: false,
  errors: 0,          // error events received, to tell a state answer made stale by one
  changedAt: 0,       // when the last change was made (performance.now())
  shown: { version: 0, at: 0 },     // the newest version with a frame on screen, and when
  playable: { version: 0, at: 0 },  // the newest version whose every frame has loaded, and when
  awaiting: null,     // {version, started}: a change whose frame is not on screen yet
  latencies: [],      // change → frame on screen, in ms (read by the browser test)
  playableLatencies: [], // change → whole storyboard playable, in ms
  loads: 0,
};
window.flipbook = studio;

function api(path, params = {}) {
  const q = new URLSearchParams({ token, ...params });
  return `/api/${path}?${q}`;
}

async function post(path, body, params = {}) {
  const response = await fetch(api(path, params), {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Flipbook-Token": token },
    body: JSON.stringify(body || {}),
  });
  return response;
}

function setStatus(text) { $("status").textContent = text; }

// A render's error keeps the last good render on screen; any other (a save refused) says
// only what happened.
function showError(message, { render = true } = {}) {
  const banner = $("banner");
  if (message) {
    banner.textContent = message + (render ? "\n(the last good render stays on screen)" : "");
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
}

// MARK: State

async function loadState(again = true) {
  const seen = studio.errors;
  const response = await fetch(api("state"));
  if (!response.ok) {
    showError(await response.text());
    return;
  }
  const state = await response.json();
  // An error that came while this was on its way (a file saved broken just after) makes this
  // state stale: ask once more rather than clear the error it does not know of.
  if (again && studio.errors !== seen) return loadState(false);
  applyState(state);
}

function applyState(state) {
  const first = !studio.state;
  const old = studio.state;
  studio.state = state;
  $("scene-name").textContent = state.scene;
  document.title = `${state.scene} · Flipbook studio`;
  fillSelect($("storyboard"), state.storyboards, state.storyboard);
  $("scale").value = String(state.scale);
  $("command").textContent = state.command;
  $("save").disabled = Object.keys(state.edits).length === 0;
  $("revert").disabled = Object.keys(state.edits).length === 0;
  $("save").title = `writes the changed values into ${state.savesTo}`;
  for (const f of ["gif", "webp", "mp4"]) $(`export-${f}`).hidden = !state.exportFormats.includes(f);
  const againstOption = $("compare").querySelector('option[value="against"]');
  againstOption.hidden = !state.against;
  if (first && state.against) $("compare").value = "against";
  showError(state.error);
  showDiskChange(state.diskChange, state.savesTo);
  drawPhases();
  renderParams(old);
  // Setting a canvas's size clears it, even to the same size: only a new size may, so that the
  // picture on screen stays until the next one is drawn over it (no blank between versions,
  // and the last good render stays under an error).
  for (const c of [$("canvas"), $("canvas-other")]) {
    if (c.width !== state.width) c.width = state.width;
    if (c.height !== state.height) c.height = state.height;
  }
  if (state.version !== studio.version || first) {
    studio.version = state.version;
    showInstantFrame(state.version);
    loadFrames(state.version, "frames");
  }
  if (compareMode() === "side" || compareMode() === "onion") {
    if (!studio.saved || studio.saved.version !== state.savedVersion) loadFrames(state.savedVersion, "saved");
  }
  updateCompare();
}

function fillSelect(select, names, chosen) {
  if (select.options.length !== names.length || [...select.options].some((o, i) => o.value !== names[i])) {
    select.replaceChildren(...names.map((n) => new Option(n, n)));
  }
  select.value = chosen;
}

// MARK: Frames

// The frame under the scrubber, rendered at once, before the whole storyboard.
function showInstantFrame(version) {
  const img = new Image();
  const t = studio.time;
  img.onload = () => {
    if (studio.version !== version || (studio.frames && studio.frames.version === version)) return;
    const ctx = $("canvas").getContext("2d");
    ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, img.width, img.height);
    ctx.drawImage(img, 0, 0);
    noteShown(version, false);
  };
  img.src = api("frame", { v: version, t: t.toFixed(4) });
}

// Notes that a frame of `version` (or all of them) is on screen, and times the change that made it.
function noteShown(version, whole) {
  const now = performance.now();
  if (version > studio.shown.version) studio.shown = { version, at: now };
  if (whole && version > studio.playable.version) studio.playable = { version, at: now };
  settleTimings();
}

function settleTimings() {
  const a = studio.awaiting;
  if (!a) return;
  if (!a.framed && studio.shown.version >= a.version) {
    studio.latencies.push(studio.shown.at - a.started);
    a.framed = true;
  }
  if (studio.playable.version >= a.version) {
    studio.playableLatencies.push(studio.playable.at - a.started);
    studio.awaiting = null;
  }
}

// Every picture of a version, once the server has rendered them all. A few load at a time and
// a newer version cancels them, so that the browser's few connections to the server stay free
// for the next change and its frame.
const loaders = {};
async function loadFrames(version, slot) {
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
      if (slot === "frames" && studio.version === version && !studio.inFlight) loadState();
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
    return; // cancelled by a newer version, or the version is gone
  }
  const loaded = { version, times: manifest.times, frames: manifest.frames, images };
  if (slot === "frames") {
    if (studio.version !== version) return;
    studio.frames = loaded;
    studio.loads += 1;
    noteShown(version, true);
    setStatus(`${manifest.times.length} frames, ${manifest.pictures} pictures, rendered in ${manifest.renderSeconds.toFixed(2)} s`);
  } else {
    if (!studio.state || studio.state.savedVersion !== version) return;
    studio.saved = loaded;
  }
  draw();
}

function frameIndex(seq, t) {
  let lo = 0, hi = seq.times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (seq.times[mid] <= t + 1e-9) lo = mid; else hi = mid - 1;
  }
  return lo;
}

function draw() {
  const state = studio.state;
  if (!state) return;
  $("scrub").value = String(state.duration > 0 ? studio.time / state.duration : 0);
  const current = studio.frames;
  const k = current && current.version === studio.version ? frameIndex(current, studio.time) : -1;
  $("time").textContent = `${studio.time.toFixed(2)} s` + (k >= 0 ? ` · frame ${k}` : "");
  if (k >= 0) {
    const ctx = $("canvas").getContext("2d");
    ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, state.width, state.height);
    ctx.drawImage(current.images[current.frames[k]], 0, 0);
    const mode = compareMode();
    if (mode === "onion" && studio.saved) {
      ctx.globalAlpha = Number($("onion").value);
      ctx.drawImage(studio.saved.images[studio.saved.frames[frameIndex(studio.saved, studio.time)]], 0, 0);
      ctx.globalAlpha = 1;
    }
    if (mode === "side" && studio.saved) {
      const other = $("canvas-other").getContext("2d");
      other.clearRect(0, 0, state.width, state.height);
      other.drawImage(studio.saved.images[studio.saved.frames[frameIndex(studio.saved, studio.time)]], 0, 0);
    }
    if (mode === "against") requestRecordingFrame();
  }
}

// The recording and the difference at the scrubber's time; one request at a time.
let recordingBusy = false;
function requestRecordingFrame() {
  if (recordingBusy) return;
  recordingBusy = true;
  const t = studio.time, v = studio.version;
  const theirs = new Image();
  theirs.onload = () => {
    $("canvas-other").getContext("2d").drawImage(theirs, 0, 0, studio.state.width, studio.state.height);
    fetch(api("frame", { v, t: t.toFixed(4), of: "diff" })).then(async (r) => {
      const diff = r.headers.get("X-Flipbook-Difference");
      if (r.ok) {
        $("diff").src = URL.createObjectURL(await r.blob());
        $("caption-diff").textContent = `difference: ${(Number(diff) * 100).toFixed(1)} % of pixels`;
      } else {
        $("caption-diff").textContent = await r.text();
      }
    }).finally(() => { recordingBusy = false; });
  };
  theirs.onerror = () => { recordingBusy = false; };
  theirs.src = api("frame", { v, t: t.toFixed(4), of: "against" });
}

function compareMode() { return $("compare").value; }

function updateCompare() {
  const mode = compareMode();
  $("viewer-other").hidden = !(mode === "side" || mode === "against");
  $("viewer-diff").hidden = mode !== "against";
  $("onion-controls").hidden = mode !== "onion";
  $("caption-current").textContent = mode === "onion" ? "current, saved over it" : "current";
  $("caption-other").textContent = mode === "against" ? `recording: ${studio.state?.against?.path ?? ""}` : "saved";
  if ((mode === "side" || mode === "onion") && studio.state &&
      (!studio.saved || studio.saved.version !== studio.state.savedVersion)) {
    loadFrames(studio.state.savedVersion, "saved");
  }
  draw();
}

// MARK: Phases

function drawPhases() {
  const state = studio.state;
  const track = $("phases");
  track.replaceChildren();
  if (!state || state.duration <= 0) return;
  for (const p of state.phases) {
    if (p.end - p.start <= 0) continue;
    const div = document.createElement("div");
    div.className = "phase" + (p.name === "hold" ? " hold" : "");
    div.style.left = `${(p.start / state.duration) * 100}%`;
    div.style.width = `${((p.end - p.start) / state.duration) * 100}%`;
    div.textContent = p.name;
    div.title = `${p.name}: ${p.start.toFixed(2)}–${p.end.toFixed(2)} s`;
    track.append(div);
  }
}

// MARK: Playback

function tick(now) {
  if (studio.playing && studio.state) {
    const dt = (now - studio.lastTick) / 1000;
    const d = studio.state.duration;
    studio.time = d > 0 ? (studio.time + dt * studio.speed) % d : 0;
    draw();
  }
  studio.lastTick = now;
  requestAnimationFrame(tick);
}

function setPlaying(on) {
  studio.playing = on;
  $("play").textContent = on ? "Pause" : "Play";
}

function step(by) {
  setPlaying(false);
  const seq = studio.frames;
  if (!seq) return;
  const k = Math.min(Math.max(frameIndex(seq, studio.time) + by, 0), seq.times.length - 1);
  studio.time = seq.times[k];
  draw();
}

// MARK: Params

function renderParams(old) {
  const state = studio.state;
  const host = $("params");
  // Keep the control being dragged: rebuild only when the list's shape changed.
  const shape = JSON.stringify(state.params.map((p) => [p.key, p.isRead, p.fields.map((f) => f.key)]));
  if (host.dataset.shape === shape && old) {
    for (const p of state.params) updateParam(p);
    return;
  }
  host.dataset.shape = shape;
  host.replaceChildren();
  const sections = new Map(state.sections.map((s) => [s.key, s.doc]));
  let currentSection;
  let container = host;
  for (const p of state.params) {
    if (p.section !== currentSection) {
      currentSection = p.section;
      container = document.createElement("div");
      container.className = "section";
      if (p.section) {
        const h = document.createElement("h2");
        h.textContent = p.section;
        const doc = document.createElement("div");
        doc.className = "doc";
        doc.textContent = sections.get(p.section) || "";
        container.append(h, doc);
      }
      host.append(container);
    }
    container.append(paramElement(p));
  }
  for (const p of state.params) updateParam(p);
}

function paramElement(p) {
  const el = document.createElement("div");
  el.className = "param" + (p.isRead ? "" : " unread");
  el.id = `param-${p.key}`;
  el.dataset.key = p.key;
  const head = document.createElement("div");
  head.className = "head";
  const key = document.createElement("span");
  key.className = "key";
  key.textContent = p.key;
  const type = document.createElement("span");
  type.className = "type";
  type.textContent = p.kind + (p.line ? ` · line ${p.line}` : "");
  const changed = document.createElement("span");
  changed.className = "changed";
  changed.textContent = "●";
  changed.title = "changed since the file was saved";
  const reset = document.createElement("button");
  reset.className = "reset";
  reset.type = "button";
  reset.textContent = "reset";
  reset.title = "back to the file's value";
  reset.addEventListener("click", () => sendEdit(Object.fromEntries(p.fields.map((f) => [f.key, null]))));
  head.append(key, type, changed, reset);
  const doc = document.createElement("div");
  doc.className = "doc";
  doc.textContent = p.doc;
  el.append(head, doc);
  if (!p.isRead) {
    const note = document.createElement("div");
    note.className = "unread-note";
    note.textContent = `not read by the ${studio.state.storyboard} storyboard: changing it changes nothing here`;
    el.append(note);
  }
  for (const f of p.fields) el.append(fieldElement(f));
  if (p.motion) {
    const motion = document.createElement("div");
    motion.className = "motion";
    el.append(motion);
  }
  return el;
}

// The slider's range: the declared one, else one around the file's value (the text box
// takes anything the param accepts).
function sliderRange(f) {
  const v = Number(f.saved);
  if (f.declaresRange && f.range) return f.range;
  const lo = f.range ? f.range[0] : -1e9, hi = f.range ? f.range[1] : 1e9;
  const span = Math.max(1, Math.abs(v) * (f.kind === "seconds" ? 3 : 2));
  const symmetric = v < 0 || f.label === "velocity";
  return [Math.max(lo, symmetric ? -Math.max(span, 5) : 0), Math.min(hi, symmetric ? Math.max(span, 5) : span)];
}

function fieldElement(f) {
  const row = document.createElement("div");
  row.className = "field";
  row.dataset.key = f.key;
  const label = document.createElement("label");
  label.textContent = f.label;
  label.title = f.key;
  row.append(label);
  const send = (value) => sendEdit({ [f.key]: value });
  if (!f.editable) {
    row.classList.add("wide");
    const text = document.createElement("input");
    text.type = "text";
    text.readOnly = true;
    text.value = f.value;
    row.append(text);
    return row;
  }
  if (f.kind === "number" || f.kind === "seconds" || f.kind === "integer") {
    const [lo, hi] = sliderRange(f);
    const slider = document.createElement("input");
    slider.type = "range";
    slider.min = String(lo);
    slider.max = String(hi);
    // A round step, about a hundredth of the range: values read as a designer would type them.
    slider.step = f.kind === "integer" ? "1" : String(10 ** Math.floor(Math.log10((hi - lo) / 100)));
    slider.setAttribute("aria-label", f.key);
    const box = document.createElement("input");
    box.type = "number";
    box.step = f.kind === "integer" ? "1" : "any";
    box.setAttribute("aria-label", `${f.key} value`);
    slider.addEventListener("input", () => {
      const value = f.kind === "integer" ? String(Math.round(Number(slider.value))) : trimNumber(Number(slider.value));
      box.value = value;
      send(value);
    });
    box.addEventListener("change", () => send(box.value));
    row.append(slider, box);
  } else if (f.kind === "color") {
    row.classList.add("color");
    const picker = document.createElement("input");
    picker.type = "color";
    const text = document.createElement("input");
    text.type = "text";
    picker.addEventListener("input", () => {
      const alpha = text.value.length === 9 ? text.value.slice(7) : "";
      text.value = picker.value.toUpperCase() + alpha;
      send(text.value);
    });
    text.addEventListener("change", () => send(text.value));
    row.append(picker, text);
  } else if (f.kind === "flag") {
    row.classList.add("wide");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.addEventListener("change", () => send(box.checked ? "true" : "false"));
    row.append(box);
  } else if (f.kind === "choice") {
    row.classList.add("wide");
    const select = document.createElement("select");
    select.replaceChildren(...f.choices.map((c) => new Option(c, c)));
    select.addEventListener("change", () => send(select.value));
    row.append(select);
  } else {
    row.classList.add("wide");
    const text = document.createElement("input");
    text.type = "text";
    text.addEventListener("change", () => send(text.value));
    row.append(text);
  }
  return row;
}

function trimNumber(x) {
  const r = Math.round(x * 1e4) / 1e4;
  return String(r);
}

// Shows a param's current values, changed marks and curve without rebuilding its controls.
function updateParam(p) {
  const el = document.getElementById(`param-${p.key}`);
  if (!el) return;
  const changed = p.fields.some((f) => f.value !== f.saved || f.key in studio.state.edits);
  el.querySelector(".changed").hidden = !changed;
  el.querySelector(".reset").hidden = !changed;
  el.classList.toggle("error", studio.state.errorKey != null && p.fields.some((f) => f.key === studio.state.errorKey));
  for (const f of p.fields) {
    const row = el.querySelector(`.field[data-key="${CSS.escape(f.key)}"]`);
    if (!row) continue;
    const value = f.key in studio.state.edits ? studio.state.edits[f.key] : f.value;
    for (const input of row.querySelectorAll("input, select")) {
      if (document.activeElement === input && input.type !== "range") continue;
      if (input.type === "range") {
        if (document.activeElement !== input) input.value = value;
      } else if (input.type === "checkbox") input.checked = value === "true";
      else if (input.type === "color") input.value = value.slice(0, 7).toLowerCase();
      else input.value = value;
    }
  }
  const motion = el.querySelector(".motion");
  const changedMotion = p.fields.some((f) => f.value !== f.saved);
  const drawn = `${p.motion?.spec}|${changedMotion ? p.savedMotion?.spec : ""}`;
  if (motion && p.motion && motion.dataset.drawn !== drawn) {
    motion.dataset.drawn = drawn;
    drawMotion(motion, p.motion, p.savedMotion, changedMotion);
  }
}

function drawMotion(host, m, saved, changed) {
  const curves = [m].concat(changed && saved ? [saved] : []);
  const duration = Math.max(...curves.map((c) => c.duration), 1e-6);
  const values = curves.flatMap((c) => c.samples.map((s) => s[1]));
  const lo = Math.min(0, ...values), hi = Math.max(1, ...values);
  const W = 400, H = 120, pad = 8;
  const x = (t) => pad + (t / duration) * (W - 2 * pad);
  const y = (p) => H - pad - ((p - lo) / (hi - lo)) * (H - 2 * pad);
  const path = (c) => c.samples.map((s, i) => `${i ? "L" : "M"}${x(s[0]).toFixed(1)},${y(s[1]).toFixed(1)}`).join("");
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `progress over ${m.duration.toFixed(2)} s`);
  const line = (cls, d) => {
    const e = document.createElementNS(ns, "path");
    e.setAttribute("class", cls);
    e.setAttribute("d", d);
    svg.append(e);
  };
  line("grid", `M${pad},${y(0)}H${W - pad}`);
  line("grid one", `M${pad},${y(1)}H${W - pad}`);
  if (changed && saved) line("saved-curve", path(saved));
  line("curve", path(m));
  const facts = document.createElement("div");
  facts.className = "facts";
  facts.textContent = `${m.duration.toFixed(3)} s` +
    (m.overshoot > 0.0005 ? `, overshoots by ${(m.overshoot * 100).toFixed(1)} %` : ", no overshoot") +
    (changed && saved ? " · dashed: saved" : "") + ` · ${m.spec}`;
  const code = document.createElement("pre");
  code.textContent = m.code.join("\n");
  host.replaceChildren(svg, facts, code);
}

// MARK: Changes

// Sends edits; while one request is in flight, later edits wait and merge (the latest wins).
function sendEdit(values) {
  studio.changedAt = performance.now();
  studio.pending = { ...(studio.pending || {}), ...values };
  if (!studio.inFlight) flush();
}

async function flush() {
  if (!studio.pending) return;
  const values = studio.pending;
  studio.pending = null;
  studio.inFlight = true;
  const started = studio.changedAt;
  try {
    const response = await post("edit", { values, t: Number(studio.time.toFixed(4)) });
    const state = await response.json();
    if (response.ok && !studio.pending) {
      studio.awaiting = { version: state.version, started };
      settleTimings();
    }
    // The frame first: the rest of the page can follow it.
    if (state.version !== studio.version) {
      studio.version = state.version;
      showInstantFrame(state.version);
      loadFrames(state.version, "frames");
    }
    applyState(state);
  } catch (e) {
    showError(String(e));
  } finally {
    studio.inFlight = false;
    if (studio.pending) flush();
  }
}

async function simplePost(path, doneText, params, body = {}) {
  setStatus(`${path}…`);
  const response = await post(path, body, params);
  if (response.status === 409) {
    // The file changed on disk under these edits: nothing was written; the state says what.
    applyState(await response.json());
    setStatus(`not saved: ${studio.state.savesTo} changed on disk`);
    return;
  }
  if (!response.ok) {
    showError(await response.text(), { render: false });
    setStatus("");
    return;
  }
  applyState(await response.json());
  setStatus(doneText);
}

// MARK: A change on disk

// The file changed on disk under unsaved edits: which keys, and for each conflict the file's
// value and the page's, with a tick to keep the page's. Nothing is saved until one is chosen.
function showDiskChange(change, file) {
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

function settle(choice) {
  const keep = choice === "keep"
    ? studio.state.diskChange.conflicts
    : [...$("disk-conflicts").querySelectorAll("input:checked")].map((t) => t.dataset.key);
  const body = choice === "reload" ? { choice: "reload" } : { choice: "merge", keep };
  return simplePost("settle", choice === "reload" ? "reloaded the file" : "merged; Save writes the result", {}, body);
}

async function exportAs(format) {
  setStatus(`exporting ${format.toUpperCase()}…`);
  const response = await post("export", {}, { format });
  if (!response.ok) {
    showError(await response.text());
    setStatus("");
    return;
  }
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1] || `export.${format}`;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setStatus(`exported ${name} (${(blob.size / 1e6).toFixed(2)} MB): ${response.headers.get("X-Flipbook-Command")}`);
}

// MARK: Wiring

function listen() {
  const events = new EventSource(api("events"));
  events.onmessage = async (e) => {
    const event = JSON.parse(e.data);
    // A change made here brings its own state back; the event is for changes from elsewhere.
    if (event.type === "version" && event.version !== studio.version && !studio.inFlight) {
      await loadState();
    } else if (event.type === "disk") {
      await loadState();
    } else if (event.type === "error") {
      studio.errors += 1;
      showError(event.message);
    }
  };
}

function wire() {
  $("play").addEventListener("click", () => setPlaying(!studio.playing));
  $("step-back").addEventListener("click", () => step(-1));
  $("step-forward").addEventListener("click", () => step(1));
  $("speed").addEventListener("change", () => { studio.speed = Number($("speed").value); });
  $("scrub").addEventListener("input", () => {
    setPlaying(false);
    studio.time = Number($("scrub").value) * (studio.state?.duration || 0);
    draw();
  });
  $("storyboard").onchange = async () => {
    const response = await post("view", { storyboard: $("storyboard").value });
    applyState(await response.json());
  };
  $("scale").onchange = async () => {
    const response = await post("view", { scale: Number($("scale").value) });
    applyState(await response.json());
  };
  $("compare").addEventListener("change", updateCompare);
  $("onion").addEventListener("input", draw);
  $("save").addEventListener("click", () => simplePost("save", `saved to ${studio.state.savesTo}`));
  $("revert").addEventListener("click", () => simplePost("revert", "reverted to the file on disk"));
  $("disk-reload").addEventListener("click", () => settle("reload"));
  $("disk-keep").addEventListener("click", () => settle("keep"));
  $("disk-merge").addEventListener("click", () => settle("merge"));
  for (const f of ["gif", "webp", "mp4"]) $(`export-${f}`).addEventListener("click", () => exportAs(f));
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement && t.type !== "range") return;
    if (t instanceof HTMLSelectElement) return;
    if (e.key === " ") { e.preventDefault(); setPlaying(!studio.playing); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); step(-1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); step(1); }
  });
}

wire();
loadState().then(() => { listen(); setPlaying(true); });
requestAnimationFrame(tick);
