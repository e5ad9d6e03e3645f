// Named snapshots: the value of every field at a moment, to flip back to. A snapshot holds
// concrete values, so it means the same after a save; choosing one edits each field that
// differs (one undo entry). They are kept in the browser's storage, per file saved into.

import { $, setStatus, shownValue, studio } from "./state.js";
import { edit } from "./history.js";

const storageKey = () => `flipbook-studio-snapshots:${studio.server.savesTo}`;

function fields() {
  return studio.server.params.flatMap((p) => p.fields).filter((f) => f.editable);
}

function load() {
  try {
    return JSON.parse(localStorage.getItem(storageKey()) || "[]");
  } catch {
    return [];
  }
}

export function showSnapshots() {
  const select = $("snapshots");
  const list = load();
  select.replaceChildren(new Option(list.length ? "snapshots…" : "no snapshots", ""),
    ...list.map((s, i) => new Option(s.name, String(i))));
  select.disabled = list.length === 0;
}

export function takeSnapshot() {
  const list = load();
  const time = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const name = `snapshot ${list.length + 1} (${time})`;
  list.push({ name, values: Object.fromEntries(fields().map((f) => [f.key, shownValue(f)])) });
  localStorage.setItem(storageKey(), JSON.stringify(list));
  showSnapshots();
  setStatus(`took ${name}`);
}

export function applySnapshot(index) {
  const snapshot = load()[Number(index)];
  if (!snapshot) return;
  const changes = {};
  for (const f of fields()) {
    if (!(f.key in snapshot.values) || snapshot.values[f.key] === shownValue(f)) continue;
    changes[f.key] = snapshot.values[f.key] === f.saved ? null : snapshot.values[f.key];
  }
  if (Object.keys(changes).length) edit(changes);
  setStatus(`${snapshot.name}: ${Object.keys(changes).length} values changed`);
  $("snapshots").value = "";
}
