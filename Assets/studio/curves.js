// The curve editor: each animation param's graph of progress over time (and the saved curve,
// dashed), with handles to drag — a spring's duration and its bounce (a UIKit spring's duration
// and damping ratio, a response spring's response and bounce), a Bézier's two control points —
// and UIKit's and SwiftUI's curves one click away. A drag sends the values it reaches
// as edits (one undo entry per drag); the graph is the server's samples of the curve those
// values make, so what it shows is the motion the render uses.

import { shownValue, studio } from "./state.js";
import { edit } from "./history.js";

const W = 400, H = 120, pad = 8;
const ns = "http://www.w3.org/2000/svg";

// One click away: [group, [[label, the curve field's value, what it is]]]. SwiftUI's springs
// are its response/bounce springs (`spring(duration: 0.5, bounce: …)`), exactly.
export const presets = [
  ["UIKit", [
    ["spring", "spring", "UIView.animate(withDuration:usingSpringWithDamping:…), from this param's duration and damping ratio"],
    ["easeIn", "easeIn", ".curveEaseIn"],
    ["easeOut", "easeOut", ".curveEaseOut"],
    ["easeInEaseOut", "easeInEaseOut", ".curveEaseInOut"],
    ["linear", "linear", ".curveLinear"],
    ["system", "system", "the system spring: mass 3, stiffness 1000, damping 500"],
  ]],
  ["SwiftUI", [
    [".smooth", "response:response=0.5,bounce=0", ".smooth: spring(duration: 0.5, bounce: 0)"],
    [".snappy", "response:response=0.5,bounce=0.15", ".snappy: spring(duration: 0.5, bounce: 0.15)"],
    [".bouncy", "response:response=0.5,bounce=0.3", ".bouncy: spring(duration: 0.5, bounce: 0.3)"],
  ]],
];

// What a curve field's value is: a UIKit spring (its duration, damping ratio and velocity
// fields apply), a Bézier (its duration applies), or a full spec that carries its own timing.
export function curveKind(value) {
  if (value === "spring") return "spring";
  // The server names the Béziers a spec may name (UIKit's, as the library parses them).
  if (studio.server.bezierNames.includes(value.split(":")[0]) || /^bezier:/.test(value)) return "bezier";
  if (responseParts(value)) return "response";
  return "spec";
}

// A response/bounce spring's parts (`response:response=0.5,bounce=0.15`), in the spec's order,
// or null for any other curve.
export function responseParts(value) {
  const m = /^response:(.*)$/.exec(value || "");
  if (!m) return null;
  const parts = m[1].split(",").map((kv) => kv.split("=").map((x) => x.trim()));
  if (parts.some((kv) => kv.length !== 2 || !Number.isFinite(Number(kv[1])))) return null;
  const found = Object.fromEntries(parts.map(([k, v]) => [k, Number(v)]));
  return "response" in found ? { parts, response: found.response, bounce: found.bounce ?? 0 } : null;
}

// The spec with `key` set to `value`, the other parts kept in their order.
function withPart(spec, key, value) {
  const { parts } = responseParts(spec);
  const out = parts.some(([k]) => k === key) ? parts.map(([k, v]) => [k, k === key ? value : v]) : [...parts, [key, value]];
  return `response:${out.map(([k, v]) => `${k}=${v}`).join(",")}`;
}

// The fields a kind of curve reads, by their last key part.
export const fieldsFor = {
  spring: ["duration", "dampingRatio", "velocity", "curve"], bezier: ["duration", "curve"], response: ["curve"], spec: ["curve"],
};

// A Bézier curve value's control points: written in it (`bezier:x1,y1,x2,y2`), else those of
// the named curve the server sent for param `p`.
export function controlPoints(p, value) {
  const numbers = value.replace(/^bezier:/, "").split(",").slice(0, 4).map(Number);
  if (/^bezier:/.test(value) && numbers.length === 4 && numbers.every(Number.isFinite)) return numbers;
  return [...(p.motion?.controlPoints || [0, 0, 1, 1])];
}

// The damping ratio that gives a spring a first overshoot of `o`, the rest of it kept: read
// between the (overshoot, damping ratio) pairs the library sampled from the spring itself.
export function dampingFor(motion, o) {
  const table = motion?.dampingByOvershoot || [];
  if (o <= 0.0005 || !table.length) return 1;
  const above = table.findIndex(([overshoot]) => overshoot >= o);
  if (above <= 0) return above === 0 ? table[0][1] : table[table.length - 1][1];
  const [o0, z0] = table[above - 1], [o1, z1] = table[above];
  return o1 === o0 ? z1 : z0 + ((o - o0) / (o1 - o0)) * (z1 - z0);
}

const round = (x, digits) => Number(x.toFixed(digits));

// The value of each of a param's fields as the page shows it (edits first).
function valueOf(p, name) {
  const f = p.fields.find((f) => f.key === `${p.key}.${name}`);
  return f ? shownValue(f) : null;
}

// The drag in progress, if any: its host, what it moves, and the graph's scale when it began.
let drag = null;

// Draws (or updates) the graph in `host` for param `p`. The handles stay the same elements
// while a drag runs, so that the pointer stays captured as new curves come in.
export function drawCurve(host, p, changed) {
  const m = p.motion, saved = changed ? p.savedMotion : null;
  const curve = valueOf(p, "curve");
  const kind = curve == null ? "spec" : curveKind(curve);
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
    const points = kind === "bezier" ? controlPoints(p, curve) : [0, 0, 0, 0];
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
  // Where each handle sits, in graph units, and the arms of a Bézier's control points.
  const at = {};
  const duration = Number(valueOf(p, "duration")) || m.duration;
  if (kind === "bezier") {
    const [x1, y1, x2, y2] = controlPoints(p, curve);
    at.p1 = [x1 * duration, y1];
    at.p2 = [x2 * duration, y2];
    parts.push(["arm", `M${x(0)},${y(0)}L${x(at.p1[0])},${y(at.p1[1])}`]);
    parts.push(["arm", `M${x(duration)},${y(1)}L${x(at.p2[0])},${y(at.p2[1])}`]);
  } else if (kind === "spring" || kind === "response") {
    // A UIKit spring's duration is when it ends; a response spring's (SwiftUI's
    // `spring(duration:bounce:)`) is its response, the perceived duration, well before it settles.
    const end = kind === "spring" ? m.duration : responseParts(curve).response;
    at.duration = [end, 1];
    const peak = m.samples.reduce((best, s) => (s[1] > best[1] ? s : best), [0, -Infinity]);
    at.bounce = m.overshoot > 0.0005 ? peak : [end * 0.35, 1];
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
      duration: "the duration: drag it sideways", bounce: "the bounce: drag it up for more, down for none",
    }[handle.dataset.handle];
  }
  graph.dataset.kind = kind;
  host.querySelector(".facts").textContent = `${m.duration.toFixed(3)} s` +
    (m.overshoot > 0.0005 ? `, overshoots by ${(m.overshoot * 100).toFixed(1)} %` : ", no overshoot") +
    (saved ? " · dashed: saved" : "") + ` · ${m.spec}`;
  host.querySelector("pre").textContent = m.code.join("\n");
  for (const button of host.querySelectorAll(".presets button")) {
    button.classList.toggle("on", button.dataset.curve === curve);
  }
  if (drag && drag.host === host) drag.toGraph = { x, y, scale, duration };
}

// The presets' buttons, UIKit's then SwiftUI's.
function presetRow(p) {
  const row = document.createElement("div");
  row.className = "presets";
  for (const [group, items] of presets) {
    const label = document.createElement("span");
    label.textContent = group;
    row.append(label);
    for (const [name, value, what] of items) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = name;
      button.title = what;
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
  drag = { host, key, handle, scale: null, toGraph: null };
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
  const key = drag.key;
  const p = studio.server.params.find((q) => q.key === key);
  const spec = valueOf(p, "curve");
  const response = curveKind(spec) === "response";
  if (drag.handle === "duration") {
    const seconds = String(round(Math.min(10, Math.max(0.05, t)), 2));
    edit(response ? { [`${key}.curve`]: withPart(spec, "response", seconds) } : { [`${key}.duration`]: seconds });
  } else if (drag.handle === "bounce") {
    const overshoot = Math.min(0.9, Math.max(0, v - 1));
    const zeta = Math.min(1, Math.max(0.05, dampingFor(p.motion, overshoot)));
    // SwiftUI's bounce is 1 − ζ for a spring that bounces at all.
    edit(response ? { [`${key}.curve`]: withPart(spec, "bounce", String(round(1 - zeta, 2))) }
      : { [`${key}.dampingRatio`]: String(round(zeta, 2)) });
  } else {
    const points = controlPoints(p, spec);
    const i = drag.handle === "p1" ? 0 : 2;
    points[i] = round(Math.min(1, Math.max(0, t / duration)), 2);
    points[i + 1] = round(Math.min(2, Math.max(-1, v)), 2);
    edit({ [`${key}.curve`]: `bezier:${points.join(",")}` });
  }
}
