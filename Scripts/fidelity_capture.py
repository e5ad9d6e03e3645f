"""When each frame of a recording was drawn: a screen capture samples a 60 Hz display.

A device draws a new frame at each vsync, 60 times a second; a capture at another rate keeps,
at each of its instants, the last frame drawn. At 25 fps that is every 2.4th display frame:
2 or 3 apart by turns (33 or 50 ms), so a fast move steps unevenly in the recording, long
and short steps by turns, where a render sampled at even instants cannot follow. Sampling
ours where the capture sampled the display puts the two at the same instants again.

The display's phase against the capture (`phase`, in display frames, 0 to 1) is unknown, and
so is where our timeline sits on it (`lag`): both are fitted per stretch of motion, since a
recording cut from a longer video may drift between its stretches. Where the capture rate
divides 60 (30 fps, 10 fps) the phase is only a constant shift, which the lag already finds.
"""
import math

from fidelity_track import interpolate

DISPLAY_HZ = 60
# The rate ours is rendered and tracked at between the display's instants, interpolated
# linearly (twice the display's, so a sample is never more than 4 ms from a rendered frame).
FINE_FPS = 120
PHASES = 10


def steps_unevenly(dt, hz=DISPLAY_HZ):
    """Whether a capture every `dt` seconds keeps display frames an uneven number apart."""
    ratio = dt * hz
    return abs(ratio - round(ratio)) > 1e-6


def drawn_at(i, dt, phase, hz=DISPLAY_HZ):
    """When the display frame that recorded frame `i` (captured at i * dt) shows was drawn:
    the last vsync at or before the capture, vsyncs falling at (k - phase) / hz."""
    return (math.floor(i * dt * hz + phase + 1e-9) - phase) / hz


def errors_as_captured(promo, fine, fps, dt, frames, phase, lag, hz=DISPLAY_HZ):
    """Ours (tracked at `fps`) at each recorded frame's display instant plus `lag` seconds,
    less the recording, over `frames`."""
    out = []
    for i in frames:
        o = interpolate(fine, (drawn_at(i, dt, phase, hz) + lag) * fps)
        if promo[i] is not None and o is not None:
            out.append(o - promo[i])
    return out


def best_capture_fit(promo, fine, fps, dt, frames, reach=0.16, hz=DISPLAY_HZ):
    """The display phase and lag (seconds, ours later: positive) that best align ours with
    the recording over `frames`, as (phase, lag, RMS px, worst px); None where too few frames
    are measured in both. With `reach` 0 the lag is held at half a display frame, where
    ours sits on the capture's own instants on average: only the phase is fitted, so a
    timing that is off still counts (as `--grid` needs)."""
    best = None
    lags = [ms / 1000 for ms in range(-round(reach * 1000), round(reach * 1000) + 1)] if reach else [0.5 / hz]
    for p in range(PHASES):
        phase = p / PHASES
        for lag in lags:
            errors = errors_as_captured(promo, fine, fps, dt, frames, phase, lag, hz)
            if len(errors) < max(3, len(frames) // 2):
                continue
            rms = (sum(e * e for e in errors) / len(errors)) ** 0.5
            key = (rms, abs(lag - lags[len(lags) // 2]))
            if best is None or key < best[0]:
                best = (key, (phase, lag, rms, max(errors, key=abs)))
    return best and best[1]
