// The params list: a control per field, its curve, and its changed and error marks.

import { $, shownValue, studio } from "./state.js";
import { edit } from "./history.js";
import { drawCurve } from "./curves.js";

export function renderParams(old) {
  const state = studio.server;
  const host = $("params");
  const byMoves = $("param-group").value === "moves" && !!studio.timeline;
  // Keep the control being dragged: rebuild only when the list's shape changed.
  const shape = JSON.stringify([state.params.map((p) => [p.key, p.isRead, p.fields.map((f) => f.key)]),
    byMoves ? studio.timeline.moves : null]);
  if (host.dataset.shape === shape && old) {
    for (const p of state.params) updateParam(p);
    return;
  }
  host.dataset.shape = shape;
  host.replaceChildren();
  for (const group of byMoves ? groupsByMoves(state) : groupsBySection(state)) {
    const container = document.createElement("div");
    container.className = "section";
    if (group.title) {
      const h = document.createElement("h2");
      h.textContent = group.title;
      const doc = document.createElement("div");
      doc.className = "doc";
      doc.textContent = group.doc || "";
      container.append(h, doc);
    }
    // What cannot be changed here (the images a scene reads) is folded away in its group.
    let images = null;
    for (const p of group.params) {
      if (p.fields.length && p.fields.every((f) => !f.editable)) {
        if (!images) {
          images = document.createElement("details");
          images.className = "images";
          images.append(document.createElement("summary"));
          container.append(images);
        }
        images.append(paramElement(p));
        images.querySelector("summary").textContent = `images and fixed paths (${images.querySelectorAll(".param").length})`;
      } else {
        container.append(paramElement(p));
      }
    }
    host.append(container);
  }
  for (const p of state.params) updateParam(p);
  showMoves();
  filterParams();
  fitLabels();
}

// The fields' label column as wide as its longest label, up to 45 % of the panel: a label
// cut short ("statusBarH…") names nothing; past that, the control needs the room more.
export function fitLabels() {
  const host = $("params");
  host.style.removeProperty("--label-width");
  const labels = [...host.querySelectorAll(".field label")];
  // A text's own width, to the fraction of a pixel that decides an ellipsis.
  const range = document.createRange();
  const widest = Math.max(84, ...labels.map((l) => {
    range.selectNodeContents(l);
    return range.getBoundingClientRect().width + 1;
  }));
  host.style.setProperty("--label-width", `${Math.ceil(Math.min(widest, Math.max(84, host.clientWidth * 0.45)))}px`);
}

// The file's sections, in the file's order.
function groupsBySection(state) {
  const docs = new Map(state.sections.map((s) => [s.key, s.doc]));
  const groups = [];
  for (const p of state.params) {
    if (!groups.length || groups[groups.length - 1].key !== p.section) {
      groups.push({ key: p.section, title: p.section, doc: docs.get(p.section), params: [] });
    }
    groups[groups.length - 1].params.push(p);
  }
  return groups;
}

// One group per set of layers moved, in the order the layers are drawn; then the params that
// only set when phases end (holds); then what changes nothing in this storyboard.
function groupsByMoves(state) {
  const order = [...new Set(studio.timeline.tracks.map((t) => t.layer))];
  const rank = (layers) => Math.min(...layers.map((l) => (order.includes(l) ? order.indexOf(l) : order.length)));
  const timing = new Set(studio.timeline.phases.map((p) => p.lengthKey).filter(Boolean));
  const groups = new Map();
  for (const p of state.params) {
    const layers = studio.timeline.moves[p.key] || [];
    const sets = p.fields.some((f) => timing.has(f.key));
    const key = layers.length ? layers.join(", ") : sets ? " timing" : " nothing";
    if (!groups.has(key)) {
      const title = layers.length
        ? `moves ${layers.length > 3 ? `${layers.slice(0, 3).join(", ")} +${layers.length - 3}` : key}`
        : sets ? "timing: when phases end" : `changes nothing in ${state.storyboard}`;
      groups.set(key, { title, doc: layers.length > 3 ? key : "",
        rank: layers.length ? rank(layers) : sets ? order.length + 1 : Infinity, params: [] });
    }
    groups.get(key).params.push(p);
  }
  return [...groups.values()].sort((a, b) => a.rank - b.rank);
}

// Under each param, the layers it moves in this storyboard (from the timeline).
export function showMoves() {
  const moves = studio.timeline?.moves;
  for (const el of document.querySelectorAll("#params .param")) {
    const line = el.querySelector(".moves");
    const layers = moves?.[el.dataset.key];
    line.hidden = !layers || layers.length === 0;
    if (layers) line.textContent = `moves ${layers.join(", ")}`;
  }
}

// Shows only the params whose key, doc, moved layers, shaped phases or the server's terms for
// them (kind, fields, curve, what its handles set) hold the search's words; a folded group with
// a match opens.
export function filterParams() {
  const words = $("param-search").value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const el of document.querySelectorAll("#params .param")) {
    const key = el.dataset.key;
    const moves = studio.timeline?.moves?.[key] ?? [];
    const shapes = studio.timeline?.shapes?.[key] ?? [];
    const terms = studio.server.params.find((p) => p.key === key)?.terms ?? [];
    const text = [key, el.querySelector(".doc")?.textContent || "", ...moves, ...shapes, ...terms].join(" ")
      .toLowerCase();
    el.classList.toggle("filtered", !words.every((w) => text.includes(w)));
  }
  for (const group of document.querySelectorAll("#params .images")) {
    if (words.length) group.open = !!group.querySelector(".param:not(.filtered)");
  }
  for (const section of document.querySelectorAll("#params .section")) {
    section.classList.toggle("filtered", !section.querySelector(".param:not(.filtered)"));
  }
}

export function paramElement(p) {
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
  reset.title = "every field of it back to the file's value";
  reset.addEventListener("click", () => edit(Object.fromEntries(p.fields.map((f) => [f.key, null]))));
  head.append(key, type, changed, reset);
  const doc = document.createElement("div");
  doc.className = "doc";
  doc.textContent = p.doc;
  const moves = document.createElement("div");
  moves.className = "moves";
  moves.hidden = true;
  el.append(head, doc, moves);
  if (!p.isRead) {
    const note = document.createElement("div");
    note.className = "unread-note";
    note.textContent = `not read by the ${studio.server.storyboard} storyboard: changing it changes nothing here`;
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
export function sliderRange(f) {
  const v = Number(f.saved);
  if (f.declaresRange && f.range) return f.range;
  const lo = f.range ? f.range[0] : -1e9, hi = f.range ? f.range[1] : 1e9;
  const span = Math.max(1, Math.abs(v) * (f.kind === "seconds" ? 3 : 2));
  const symmetric = v < 0 || f.label === "velocity";
  return [Math.max(lo, symmetric ? -Math.max(span, 5) : 0), Math.min(hi, symmetric ? Math.max(span, 5) : span)];
}

export function fieldElement(f) {
  const row = document.createElement("div");
  row.className = "field";
  row.dataset.key = f.key;
  const label = document.createElement("label");
  label.textContent = f.label;
  label.title = f.key;
  row.append(label);
  const send = (value) => edit({ [f.key]: value });
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
  const reset = document.createElement("button");
  reset.className = "field-reset";
  reset.type = "button";
  reset.textContent = "↺";
  reset.title = `${f.key} back to the file's value`;
  reset.setAttribute("aria-label", reset.title);
  reset.addEventListener("click", () => edit({ [f.key]: null }));
  row.append(reset);
  return row;
}

export function trimNumber(x) {
  const r = Math.round(x * 1e4) / 1e4;
  return String(r);
}

// Shows a param's current values, changed marks and curve without rebuilding its controls.
export function updateParam(p) {
  const el = document.getElementById(`param-${p.key}`);
  if (!el) return;
  const changed = p.fields.some((f) => f.value !== f.saved || f.key in studio.server.edits);
  el.querySelector(".changed").hidden = !changed;
  el.querySelector(".reset").hidden = !changed;
  el.classList.toggle("error", studio.server.errorKey != null && p.fields.some((f) => f.key === studio.server.errorKey));
  for (const f of p.fields) {
    const row = el.querySelector(`.field[data-key="${CSS.escape(f.key)}"]`);
    if (!row) continue;
    const fieldReset = row.querySelector(".field-reset");
    if (fieldReset) fieldReset.hidden = !(f.key in studio.server.edits);
    const value = f.key in studio.server.edits ? studio.server.edits[f.key] : f.value;
    for (const input of row.querySelectorAll("input, select")) {
      if (document.activeElement === input && input.type !== "range") continue;
      if (input.type === "range") {
        if (document.activeElement !== input) input.value = value;
      } else if (input.type === "checkbox") input.checked = value === "true";
      else if (input.type === "color") input.value = value.slice(0, 7).toLowerCase();
      else input.value = value;
    }
  }
  // An animation shows only the fields its curve reads, as the server says (a Bézier has no
  // damping ratio; a spec that gives its own duration reads no duration field).
  if (p.controls) {
    const applies = p.controls.reads;
    for (const f of p.fields) {
      const row = el.querySelector(`.field[data-key="${CSS.escape(f.key)}"]`);
      if (row) row.hidden = !applies.includes(f.key.slice(p.key.length + 1));
    }
  }
  const motion = el.querySelector(".motion");
  const changedMotion = p.fields.some((f) => f.value !== f.saved);
  const drawn = JSON.stringify([p.motion?.spec, changedMotion ? p.savedMotion?.spec : "", p.fields.map((f) => f.value),
    p.fields.map((f) => studio.server.edits[f.key])]);
  if (motion && p.motion && motion.dataset.drawn !== drawn) {
    motion.dataset.drawn = drawn;
    drawCurve(motion, p, changedMotion);
  }
}
