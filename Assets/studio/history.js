// Undo and redo over every edit made on the page. An entry holds the fields' values before and
// after it; a slider's drag is one entry (changes to the same fields less than a second apart
// merge). Undo sends the values before, as they were, so it restores them even after a save.

import { $, fieldOf, studio } from "./state.js";
import { sendEdit } from "./network.js";

const past = [];
const future = [];
// The value the page last sent for each key (null: back to the file's), ahead of the server.
const sent = {};
const mergeWithin = 1000;

// A field's value as the page shows it now, with what was sent and not yet answered.
export function current(key) {
  const edited = key in sent ? sent[key] : studio.server.edits[key];
  if (edited != null) return edited;
  const field = fieldOf(key);
  return field ? field.value : null;
}

function send(values) {
  Object.assign(sent, values);
  sendEdit(values);
  showButtons();
}

// An edit made by hand: remembered, then sent.
export function edit(values) {
  const keys = Object.keys(values).sort().join(",");
  const now = performance.now();
  const top = past[past.length - 1];
  if (top && top.keys === keys && now - top.at < mergeWithin) {
    Object.assign(top.after, values);
    top.at = now;
  } else {
    past.push({ keys, at: now, before: Object.fromEntries(Object.keys(values).map((k) => [k, current(k)])), after: { ...values } });
  }
  future.length = 0;
  send(values);
}

export function undo() {
  const entry = past.pop();
  if (!entry) return false;
  future.push(entry);
  send(entry.before);
  return true;
}

export function redo() {
  const entry = future.pop();
  if (!entry) return false;
  entry.at = 0;
  past.push(entry);
  send(entry.after);
  return true;
}

export function showButtons() {
  $("undo").disabled = past.length === 0;
  $("redo").disabled = future.length === 0;
  $("undo").title = past.length ? `undo ${past[past.length - 1].keys} (Ctrl+Z)` : "nothing to undo";
  $("redo").title = future.length ? `redo ${future[future.length - 1].keys} (Ctrl+Shift+Z)` : "nothing to redo";
}
