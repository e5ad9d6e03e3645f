"""Scripts/fidelity's --grid: a storyboard rendered at every combination of some params'
values, ranked by how closely its tracked features follow the recording's.

This is how a value is fitted to a recording by its motion rather than by its pixels: the
tracked features (fidelity_features.py) are measured on each side's own pixels, so content
that is not ours (the recordings' photos and text) does not weigh on the fit, as it does on
`flipbook fit`'s whole-frame residual. A window in seconds limits the frames that count to
one stretch of motion. Where the recording steps unevenly (a 25 fps capture of a 60 Hz
display), ours is also rendered at 120 fps and each stretch compared as captured
(fidelity_capture.py): only the display's phase is fitted, never the timing.
"""
import itertools

from fidelity_capture import FINE_FPS, best_capture_fit, errors_as_captured
from fidelity_track import events, score, track


def parse_grid(items):
    """`key=v1,v2,…` strings -> [(key, [v1, v2, …])]; an error names the item."""
    grid = []
    for item in items:
        key, sep, values = item.partition("=")
        key, values = key.strip(), [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not key or not values:
            raise ValueError(f"--grid {item!r}: expected key=value,value,… (e.g. swipe.velocity=3000,3600)")
        if any(k == key for k, _ in grid):
            raise ValueError(f"--grid {item!r}: {key} is already in the grid")
        grid.append((key, values))
    return grid


def parse_window(text):
    """`t0,t1` in seconds -> (t0, t1); an error names the text."""
    try:
        t0, t1 = (float(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"--window {text!r}: expected two times in seconds, t0,t1") from None
    if not 0 <= t0 < t1:
        raise ValueError(f"--window {text!r}: expected 0 <= t0 < t1")
    return t0, t1


def combinations(grid):
    """Every assignment of the grid's values, each as a list of `key=value`, in grid order."""
    keys = [key for key, _ in grid]
    return [[f"{k}={v}" for k, v in zip(keys, combo)] for combo in itertools.product(*(vs for _, vs in grid))]


def measure(promo, ours, dt, features, window=None, fine=None):
    """Per feature (RMS, signed worst error, frames) in px over the frames measured in both
    (within `window`, seconds, if given), and the RMS over every feature's frames together
    (None where nothing was measured). With `fine` (ours at FINE_FPS), each stretch of motion
    is compared as captured, at its best display phase (fidelity_capture)."""
    rows, total, count = [], 0.0, 0
    for name, feature in features:
        a, b = track(feature, promo, dt), track(feature, ours, dt)
        if window:
            a = [v if window[0] - 1e-9 <= i * dt <= window[1] + 1e-9 else None for i, v in enumerate(a)]
        scored = score(a, b) if fine is None else _as_captured(a, b, dt, feature, fine)
        if scored is None:
            rows.append((name, None))
            continue
        rms, worst, _, n = scored
        total, count = total + rms * rms * n, count + n
        rows.append((name, (rms, worst, n)))
    return ((total / count) ** 0.5 if count else None), rows


def _as_captured(a, b, dt, feature, fine):
    """`score`'s (RMS, worst, None, frames) with each stretch of the recording's motion in
    `a` compared with ours tracked in `fine` as captured, at its best display phase; still
    frames at the same instants, from `b`."""
    stretches = events(a)
    within = [(span.start * dt - 0.05, (span.stop - 1) * dt + 0.05) for span in stretches]
    tracked = track(feature, fine, 1 / FINE_FPS, within=within) if within else []
    moving = {i for span in stretches for i in span}
    errors = [o - p for i, (p, o) in enumerate(zip(a, b)) if i not in moving and p is not None and o is not None]
    for span in stretches:
        fit = best_capture_fit(a, tracked, FINE_FPS, dt, list(span), reach=0)
        if fit is not None:
            errors += errors_as_captured(a, tracked, FINE_FPS, dt, list(span), fit[0], fit[1])
    if not errors:
        return None
    return (sum(e * e for e in errors) / len(errors)) ** 0.5, max(errors, key=abs), None, len(errors)


def print_ranking(recording, grid, results, window, out):
    """`results`: (assignments, overall RMS, rows) per combination; best first."""
    span = f" in {window[0]:.2f}-{window[1]:.2f} s" if window else ""
    out(f"{recording}: {len(results)} combinations of {', '.join(k for k, _ in grid)}, best first "
        f"(RMS over every feature's frames{span}; then each feature's RMS/worst px)")
    ranked = sorted(results, key=lambda r: (r[1] is None, r[1] if r[1] is not None else 0))
    for assignments, overall, rows in ranked:
        cells = [f"{name} {r[0]:.1f}/{abs(r[1]):.0f}" if r else f"{name} -" for name, r in rows]
        overall_text = f"{overall:6.2f}" if overall is not None else f"{'-':>6}"
        out(f"  {overall_text}  {' '.join(assignments)}  |  {'; '.join(cells)}")
