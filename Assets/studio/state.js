// The studio page's one state object, and the two things every part of the page shows.
// Plain JavaScript modules, no build step. The server is the only source of frames: every
// picture here is one the Flipbook library rendered for the values on screen.

export const $ = (id) => document.getElementById(id);

// The page's state, in one object: what the server said, what plays, what is in flight, and
// what the browser test reads (telemetry).
export const studio = {
  server: null,       // the server's state (GET /api/state)
  playback: {
    version: 0,       // the version whose frames play
    frames: null,     // {version, times, frames: [picture index], images}
    saved: null,      // the same, for the saved version (compare)
    time: 0,
    playing: false,
    speed: 1,
    lastTick: 0,
  },
  timeline: null,     // the version's phases, tracks and what each param moves (GET /api/timeline)
  network: {
    pending: null,    // edits waiting for the request in flight
    inFlight: false,
    errors: 0,        // error events received, to tell a state answer made stale by one
    recordingBusy: false, // a recording frame and its difference on their way (one at a time)
    scoreVersion: 0,  // the version whose score was last asked for
    disconnected: false, // the event stream broke: the studio stopped, or is unreachable
  },
  telemetry: {
    changedAt: 0,     // when the last change was made (performance.now())
    shown: { version: 0, at: 0 },     // the newest version with a frame on screen, and when
    playable: { version: 0, at: 0 },  // the newest version whose every frame has loaded, and when
    awaiting: null,   // {version, started}: a change whose frame is not on screen yet
    latencies: [],    // change → frame on screen, in ms
    playableLatencies: [], // change → whole storyboard playable, in ms
    loads: 0,
    scored: null,     // {version, features}: the last score shown
  },
};

// Which comparison the page shows: off, the saved version, onion skin, side by side, or the
// recording.
export function compareMode() { return $("compare").value; }

// The index of the frame of `seq` showing at time `t`.
export function frameIndex(seq, t) {
  let lo = 0, hi = seq.times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (seq.times[mid] <= t + 1e-9) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// The field (a param, or one part of an animation param) with this key, from the server's state.
export function fieldOf(key) {
  return studio.server.params.flatMap((p) => p.fields).find((f) => f.key === key);
}

// A field's value as the page shows it: its edit, else the value the server has for it.
export function shownValue(field) {
  const e = studio.server.edits;
  return field.key in e && e[field.key] != null ? e[field.key] : field.value;
}

export function setStatus(text) { $("status").textContent = text; }

// A render's error keeps the last good render on screen; any other (a save refused) says
// only what happened.
export function showError(message, { render = true } = {}) {
  const banner = $("banner");
  if (message) {
    banner.textContent = message + (render ? "\n(the last good render stays on screen)" : "");
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
}
