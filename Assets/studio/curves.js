// The curve editor: each animation param's graph of progress over time (and the saved curve,
// dashed), with the handles the server gives it (a spring's duration and its bounce, a Bézier's
// two control points: where each sits, which field it edits and the value it writes) and the
// curves the server lists one click away. A drag sends the values it reaches as edits (one undo
// entry per drag); the graph is the server's samples of the curve those values make, so what
// it shows is the motion the render uses.

import { shownValue, studio } from "./state.js";
import { edit } from "./history.js";

const W = 400, H = 120, pad = 8;
const ns = "http://www.w3.org/2000/svg";

// A handle's value as it is written: its template with each `{name}` replaced by a number.
// What the template is (a duration, a damping ratio, a spec with one part free) the server
// says; the page holds no curve grammar.
function filled(handle, numbers) {
  return handle.template.replace(/\{(\w+)\}/g, (_, name) => String(numbers[name]));
}

// The value a bounce handle writes for a first overshoot of `o`: read between the
// (overshoot, value) pairs the library sampled from the spring itself.
function valueAtOvershoot(table, o) {
  if (!table.length) return null;
  if (o <= 0.0005) return table[0][1];
  const above = table.findIndex(([overshoot]) => overshoot >= o);
  if (above <= 0) return above === 0 ? table[0][1] : table[table.length - 1][1];
  const [o0, v0] = table[above - 1], [o1, v1] = table[above];
  return o1 === o0 ? v1 : v0 + ((o - o0) / (o1 - o0)) * (v1 - v0);
}

const clamp = (x, [lo, hi]) => Math.min(hi, Math.max(lo, x));
const round = (x, digits) => Number(x.toFixed(digits));

// The drag in progress, if any: its host, what it moves, and the graph's scale when it began.
let drag = null;

// Draws (or updates) the graph in `host` for param `p`. The handles stay the same elements
// while a drag runs, so that the pointer stays captured as new curves come in.
export function drawCurve(host, p, changed) {
  const m = p.motion, saved = changed ? p.savedMotion : null;
  const controls = p.controls || { kind: "spec", handles: {} };
  const handles = controls.handles;
  const curveField = p.fields.find((f) => f.key === `${p.key}.curve`);
  const curve = curveField ? shownValue(curveField) : null;
  let graph = host.querySelector(".graph");
  if (!graph) {
    graph = document.createElement("div");
    graph.className = "graph";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("role", "img");
    graph.append(svg);
    for (const name of ["p1", "p2", "duration", "bounce"]) {
      const handle = document.createElement("div");
      handle.className = `handle ${name}`;
      handle.dataset.handle = name;
      handle.tabIndex = -1;
      handle.addEventListener("pointerdown", (e) => startDrag(e, host, p.key, name));
      graph.append(handle);
    }
    const facts = document.createElement("div");
    facts.className = "facts";
    const code = document.createElement("pre");
    host.replaceChildren(graph, facts, code, presetRow(p));
  }
  // The scale: time over the longest curve shown, progress from 0 (or below) to 1.3 (or
  // above) so there is room to pull a bounce up; frozen while a drag runs.
  const curves = [m].concat(saved ? [saved] : []);
  let scale = drag && drag.host === host ? drag.scale : null;
  if (!scale) {
    const values = curves.flatMap((c) => c.samples.map((s) => s[1]));
    const points = handles.p1 ? handles.p1.values : [0, 0, 0, 0];
    scale = {
      duration: Math.max(...curves.map((c) => c.duration), 1e-6),
      lo: Math.min(0, points[1], points[3], ...values),
      hi: Math.max(1.3, points[1], points[3], ...values),
    };
  }
  const x = (t) => pad + (t / scale.duration) * (W - 2 * pad);
  const y = (v) => H - pad - ((v - scale.lo) / (scale.hi - scale.lo)) * (H - 2 * pad);
  const path = (c) => c.samples.map((s, i) => `${i ? "L" : "M"}${x(s[0]).toFixed(1)},${y(s[1]).toFixed(1)}`).join("");
  const svg = graph.querySelector("svg");
  svg.setAttribute("aria-label", `${p.key}: progress over ${m.duration.toFixed(2)} s`);
  const parts = [["grid", `M${pad},${y(0)}H${W - pad}`], ["grid one", `M${pad},${y(1)}H${W - pad}`]];
  if (saved) parts.push(["saved-curve", path(saved)]);
  parts.push(["curve", path(m)]);
  // Where each handle sits, in graph units (as the server places it), and the arms of a
  // Bézier's control points.
  const at = Object.fromEntries(Object.entries(handles).map(([name, h]) => [name, h.at]));
  if (at.p1 && at.p2) {
    parts.push(["arm", `M${x(0)},${y(0)}L${x(at.p1[0])},${y(at.p1[1])}`]);
    parts.push(["arm", `M${x(m.duration)},${y(1)}L${x(at.p2[0])},${y(at.p2[1])}`]);
  }
  svg.replaceChildren(...parts.map(([cls, d]) => {
    const e = document.createElementNS(ns, "path");
    e.setAttribute("class", cls);
    e.setAttribute("d", d);
    return e;
  }));
  for (const handle of graph.querySelectorAll(".handle")) {
    const spot = at[handle.dataset.handle];
    handle.hidden = !spot;
    if (!spot) continue;
    handle.style.left = `${(x(spot[0]) / W) * 100}%`;
    handle.style.top = `${(y(spot[1]) / H) * 100}%`;
    handle.title = {
      p1: "the first control point: drag it", p2: "the second control point: drag it",
      duration: "the duration: drag it sideways",
      bounce: "the bounce: drag it up for more, down for none (with Shift, a hundredth a pixel)",
    }[handle.dataset.handle];
  }
  graph.dataset.kind = controls.kind;
  host.querySelector(".facts").textContent = `${m.duration.toFixed(3)} s` +
    (m.overshoot > 0.0005 ? `, overshoots by ${(m.overshoot * 100).toFixed(1)} %` : ", no overshoot") +
    (saved ? " · dashed: saved" : "") + ` · ${m.spec}`;
  host.querySelector("pre").textContent = m.code.join("\n");
  for (const button of host.querySelectorAll(".presets button")) {
    button.classList.toggle("on", button.dataset.curve === curve);
  }
  if (drag && drag.host === host) drag.toGraph = { x, y, scale, duration: m.duration };
}

// The presets' buttons, in the groups the server lists them.
function presetRow(p) {
  const row = document.createElement("div");
  row.className = "presets";
  for (const { group, presets } of studio.server.curvePresets) {
    const label = document.createElement("span");
    label.textContent = group;
    row.append(label);
    for (const { label: name, value, doc } of presets) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = name;
      button.title = doc;
      button.dataset.curve = value;
      button.addEventListener("click", () => edit({ [`${p.key}.curve`]: value }));
      row.append(button);
    }
  }
  return row;
}

function startDrag(e, host, key, handle) {
  if (e.button !== 0) return;
  e.preventDefault();
  // The event's target is gone once it has been handled: the element is kept.
  const element = e.currentTarget;
  element.setPointerCapture(e.pointerId);
  const p = studio.server.params.find((q) => q.key === key);
  // Where the drag began and the handle's value then, for a fine (Shift) drag.
  drag = { host, key, handle, scale: null, toGraph: null, startY: e.clientY, startValue: p.controls?.handles[handle]?.values[0] };
  drawCurve(host, p, p.fields.some((f) => f.value !== f.saved));
  drag.scale = drag.toGraph.scale;
  const move = (ev) => dragTo(ev, element);
  const end = () => {
    element.removeEventListener("pointermove", move);
    drag = null;
    const q = studio.server.params.find((q) => q.key === key);
    if (q) drawCurve(host, q, q.fields.some((f) => f.value !== f.saved));
  };
  element.addEventListener("pointermove", move);
  element.addEventListener("pointerup", end, { once: true });
  element.addEventListener("pointercancel", end, { once: true });
}

// The pointer at (clientX, clientY) as graph time and progress, in the frozen scale.
function dragTo(e, handle) {
  if (!drag) return;
  const box = handle.parentElement.getBoundingClientRect();
  const { scale, duration } = drag.toGraph;
  const px = ((e.clientX - box.left) / box.width) * W, py = ((e.clientY - box.top) / box.height) * H;
  const t = ((px - pad) / (W - 2 * pad)) * scale.duration;
  const v = scale.lo + ((H - pad - py) / (H - 2 * pad)) * (scale.hi - scale.lo);
  const p = studio.server.params.find((q) => q.key === drag.key);
  const h = p?.controls?.handles[drag.handle];
  if (!h) return;
  if (drag.handle === "duration") {
    edit({ [h.key]: filled(h, { value: round(clamp(t, h.range), 2) }) });
  } else if (drag.handle === "bounce") {
    // With Shift, each pixel up is a hundredth more bounce from where the drag began: the
    // values near none overshoot by less than a pixel of the graph.
    const rising = h.byOvershoot.length > 1 && h.byOvershoot[h.byOvershoot.length - 1][1] > h.byOvershoot[0][1];
    const value = e.shiftKey && drag.startValue != null
      ? drag.startValue + (rising ? 1 : -1) * (drag.startY - e.clientY) * 0.01
      : valueAtOvershoot(h.byOvershoot, clamp(v - 1, [0, 0.9]));
    if (value != null) edit({ [h.key]: filled(h, { value: round(clamp(value, h.range), 2) }) });
  } else {
    const points = [...h.values];
    const i = drag.handle === "p1" ? 0 : 2;
    points[i] = round(clamp(t / duration, [0, 1]), 2);
    points[i + 1] = round(clamp(v, [-1, 2]), 2);
    const [x1, y1, x2, y2] = points;
    edit({ [h.key]: filled(h, { x1, y1, x2, y2 }) });
  }
}
