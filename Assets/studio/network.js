// Actions: the event stream, edits sent one request at a time, saves, exports; each answer goes
// to the handlers the page's entry module connects (what shows a state, what shows a new
// version), so that this module knows no view. Every response is checked before it is read.

import { $, setStatus, showError, studio } from "./state.js";
import { api, post, stateFrom } from "./api.js";

// What shows the server's answers, given by the entry module (studio.js).
const shown = { state: () => {}, version: () => {}, settled: () => {} };

// Connects the views that show a state, a new version's frames and a change's timings.
export function connect({ state, version, settled }) {
  Object.assign(shown, { state, version, settled });
}

// Posts a change of view (storyboard or scale) and applies the state that comes back.
export async function postView(body) {
  try {
    shown.state(await stateFrom(await post("view", body)));
  } catch (e) {
    showError(String(e.message || e), { render: false });
  }
}

// Posts the recording's timing (its frame interval and start, null for the file's own and the
// found one) and applies the state that comes back; each version is scored again.
export async function postTiming(body) {
  try {
    const state = await stateFrom(await post("timing", body));
    studio.network.scoreVersion = null;
    shown.state(state);
  } catch (e) {
    showError(String(e.message || e), { render: false });
  }
}

export async function loadState(again = true) {
  const seen = studio.network.errors;
  const response = await fetch(api("state"));
  if (!response.ok) {
    showError(await response.text());
    return;
  }
  const state = await response.json();
  // An error that came while this was on its way (a file saved broken just after) makes this
  // state stale: ask once more rather than clear the error it does not know of.
  if (again && studio.network.errors !== seen) return loadState(false);
  shown.state(state);
}

export function listen() {
  const events = new EventSource(api("events"));
  // The stream breaks when the studio stops: the page says so at once, rather than at the next
  // save, and the browser keeps trying; when it is back, its state is read again.
  events.onerror = () => {
    studio.network.disconnected = true;
    showError("the studio is not answering: has it stopped? Edits here are not saved; "
      + "start it again and open the address it prints", { render: false });
    setStatus("");
  };
  events.onopen = () => {
    if (!studio.network.disconnected) return;
    studio.network.disconnected = false;
    loadState().catch(() => {});
  };
  events.onmessage = async (e) => {
    const event = JSON.parse(e.data);
    // A change made here brings its own state back; the event is for changes from elsewhere.
    if (event.type === "version" && event.version !== studio.playback.version && !studio.network.inFlight) {
      await loadState();
    } else if (event.type === "disk") {
      await loadState();
    } else if (event.type === "against") {
      studio.network.scoreVersion = null;
      await loadState();
    } else if (event.type === "error") {
      studio.network.errors += 1;
      showError(event.message);
    }
  };
}

// Sends edits; while one request is in flight, later edits wait and merge (the latest wins).
export function sendEdit(values) {
  studio.telemetry.changedAt = performance.now();
  studio.network.pending = { ...(studio.network.pending || {}), ...values };
  if (!studio.network.inFlight) flush();
}

export async function flush() {
  if (!studio.network.pending) return;
  const values = studio.network.pending;
  studio.network.pending = null;
  studio.network.inFlight = true;
  const started = studio.telemetry.changedAt;
  try {
    const response = await post("edit", { values, t: Number(studio.playback.time.toFixed(4)) });
    const state = await stateFrom(response);
    if (response.ok && !studio.network.pending) {
      studio.telemetry.awaiting = { version: state.version, started };
      shown.settled();
    }
    // The frame first: the rest of the page can follow it.
    if (state.version !== studio.playback.version) {
      studio.playback.version = state.version;
      shown.version(state.version);
    }
    shown.state(state);
  } catch (e) {
    showError(String(e.message || e));
  } finally {
    studio.network.inFlight = false;
    if (studio.network.pending) flush();
  }
}

export async function simplePost(path, doneText, params, body = {}) {
  setStatus(`${path}…`);
  let response;
  try {
    response = await post(path, body, params);
  } catch (e) {
    showError(e.message, { render: false });
    setStatus(`not done (${path}): the studio is not answering`);
    return;
  }
  if (response.status === 409) {
    // The file changed on disk under these edits: nothing was written; the state says what.
    shown.state(await stateFrom(response));
    setStatus(`not saved: ${studio.server.savesTo} changed on disk`);
    return;
  }
  if (!response.ok) {
    showError(await response.text(), { render: false });
    setStatus("");
    return;
  }
  shown.state(await stateFrom(response));
  setStatus(doneText);
}

// The export options given in the export row, by the keys the server takes.
function exportOptions() {
  const given = {};
  for (const { name } of studio.server.exportControls) {
    const value = $(`export-${name}`)?.value.trim();
    if (value) given[name] = value;
  }
  return given;
}

// The "same with the CLI" box: the command of the export the row's options ask for, as the
// server spells it (GET /api/command); the state's own while none is given. An answer that a
// later one has overtaken is dropped.
let commandAsked = 0;

export async function showCommand() {
  const given = exportOptions(), asked = ++commandAsked;
  if (Object.keys(given).length === 0) {
    $("command").textContent = studio.server.command;
    return;
  }
  try {
    const response = await fetch(api("command", given));
    const text = await response.text();
    if (asked !== commandAsked) return;
    if (response.ok) $("command").textContent = text.trim();
    else setStatus(`export options: ${text.trim()}`);
  } catch {
    // The studio is not answering: the event stream says so.
  }
}

// Exports as the studio shows it, with the export options given (width, fps, a size budget,
// quality, colours), which the server takes as `flipbook render` takes them. The file is made
// first and its size shown; it is written to the downloads only when Download is pressed.
let ready = null;

export async function exportAs(format) {
  discardExport();
  setStatus(`exporting ${format.toUpperCase()}…`);
  const params = { format, ...exportOptions() };
  let response;
  try {
    response = await post("export", {}, params);
  } catch (e) {
    showError(e.message, { render: false });
    setStatus("not exported: the studio is not answering");
    return;
  }
  if (!response.ok) {
    showError(await response.text(), { render: false });
    setStatus("");
    return;
  }
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1] || `export.${format}`;
  ready = { blob, name, command: response.headers.get("X-Flipbook-Command") };
  const budget = params["max-size"] ? `, within ${params["max-size"]}` : "";
  $("export-size").textContent = `${name}: ${(blob.size / 1e6).toFixed(2)} MB${budget}`;
  $("export-ready").hidden = false;
  setStatus(`made ${name} (${(blob.size / 1e6).toFixed(2)} MB), not written yet: ${ready.command}`);
}

// Writes the export made last to the downloads.
export function saveExport() {
  if (!ready) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(ready.blob);
  a.download = ready.name;
  a.click();
  // The download has its bytes once it starts; the export's blob is let go after.
  const url = a.href;
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  setStatus(`exported ${ready.name} (${(ready.blob.size / 1e6).toFixed(2)} MB): ${ready.command}`);
  discardExport();
}

export function discardExport() {
  ready = null;
  $("export-ready").hidden = true;
}
