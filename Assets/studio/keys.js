// The keyboard: shortcuts for play, step, save, compare, speed and undo, listed on "?"; the
// arrow keys nudge a focused param's slider (Shift: ten steps) and step frames elsewhere.

import { $, studio } from "./state.js";
import { setPlaying, step } from "./player.js";
import { updateCompare } from "./compare.js";
import { redo, undo } from "./history.js";

// Shown by "?", in the order they are listed.
export const shortcuts = [
  ["Space", "play or pause"],
  ["← →", "previous or next frame (on a param's slider or a phase's end: nudge it; Shift: ten steps)"],
  ["[ ]", "slower or faster"],
  ["C", "the next compare mode"],
  ["Ctrl+S", "save"],
  ["Ctrl+Z, Ctrl+Shift+Z", "undo, redo"],
  ["?", "this list (Escape closes it)"],
];

// Picks the option `by` away from the chosen one among a select's shown options, and says so.
function cycle(select, by, wrap) {
  const options = [...select.options].filter((o) => !o.hidden);
  let i = options.findIndex((o) => o.value === select.value) + by;
  i = wrap ? (i + options.length) % options.length : Math.min(Math.max(i, 0), options.length - 1);
  select.value = options[i].value;
  select.dispatchEvent(new Event("change"));
}

// Moves a slider by `steps` of its step, within its range, as a drag would.
function nudge(slider, steps) {
  const stepSize = Number(slider.step) || 1;
  const value = Math.min(Math.max(Number(slider.value) + steps * stepSize, Number(slider.min)), Number(slider.max));
  slider.value = String(value);
  slider.dispatchEvent(new Event("input"));
}

export function showKeys(on) {
  const box = $("keys");
  if (!box.dataset.filled) {
    box.dataset.filled = "1";
    const list = document.createElement("dl");
    for (const [key, what] of shortcuts) {
      const dt = document.createElement("dt");
      dt.textContent = key;
      const dd = document.createElement("dd");
      dd.textContent = what;
      list.append(dt, dd);
    }
    box.append(list);
  }
  box.hidden = !on;
}

export function onKey(e) {
  const t = e.target;
  const command = e.ctrlKey || e.metaKey;
  const typing = t instanceof HTMLInputElement && (t.type === "text" || t.type === "number" || t.type === "search");
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (command && key === "s") {
    e.preventDefault();
    if (!$("save").disabled) $("save").click();
    return;
  }
  if (typing || t instanceof HTMLSelectElement) return;
  if (command && (key === "z" || key === "y")) {
    e.preventDefault();
    if (key === "y" || e.shiftKey) redo(); else undo();
    return;
  }
  if (command || e.altKey) return;
  const paramSlider = t instanceof HTMLInputElement && t.type === "range" && t.closest("#params");
  if (paramSlider && e.key.startsWith("Arrow")) {
    // The browser moves a focused slider by one step; Shift moves it by ten.
    if (e.shiftKey) {
      e.preventDefault();
      nudge(t, e.key === "ArrowLeft" || e.key === "ArrowDown" ? -10 : 10);
    }
    return;
  }
  if (t instanceof HTMLInputElement && t.type !== "range") return;
  if (key === " ") { e.preventDefault(); setPlaying(!studio.playback.playing); }
  else if (key === "ArrowLeft") { e.preventDefault(); step(-1); }
  else if (key === "ArrowRight") { e.preventDefault(); step(1); }
  else if (key === "[" || key === "]") { cycle($("speed"), key === "]" ? 1 : -1, false); }
  else if (key === "c") { cycle($("compare"), 1, true); updateCompare(); }
  else if (key === "?") { showKeys($("keys").hidden); }
  else if (key === "Escape") { showKeys(false); }
}
