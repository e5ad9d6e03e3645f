#!/usr/bin/env python3
"""Scripts/fidelity's tracker on synthetic recordings whose answers are known: a bar's edge,
a sliding patch and a tinted card, each drawn at known positions, and a copy one frame later,
whose lag the table must find; the --grid ranking's parts on the same frames; a 25 fps
capture of a 60 Hz display, whose phase the capture fit must find; and a finger's pull of
known stroke, which --fit-pull must find again.

Usage: /usr/bin/python3 Tests/Fidelity/fidelity_track_test.py  (needs Pillow)
"""
import os, random, sys
from PIL import Image, ImageDraw

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts"))
from fidelity_capture import FINE_FPS, best_capture_fit, drawn_at, steps_unevenly  # noqa: E402
from fidelity_grid import combinations, measure, parse_grid, parse_window  # noqa: E402
from fidelity_stroke import fit_stroke, shown as stroke_shown  # noqa: E402
from fidelity_track import Edge, Extent, Shift, best_lag, events, score, track  # noqa: E402

W, H, DT = 120, 240, 0.04
BLUE, BROWN = (48, 103, 244), (163, 115, 74)
failures = []
checked = []


def check(name, ok, detail=""):
    print(("ok: " if ok else "FAILED: ") + name + (f" ({detail})" if detail and not ok else ""))
    checked.append(name)
    if not ok:
        failures.append(name)


def ease(i):
    """A position that rests, moves over frames 10-20 on a smooth curve, then rests."""
    k = min(1.0, max(0.0, (i - 10) / 10))
    return k * k * (3 - 2 * k)


rng = random.Random(7)
noise = Image.new("L", (60, 30))
noise.putdata([rng.randrange(256) for _ in range(60 * 30)])


def frame(i):
    im = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, W - 1, 20 + round(80 * ease(i)) - 1), fill=BLUE)  # bar bottom at 20..100
    im.paste(noise.convert("RGB"), (30, 120 + round(60 * ease(i))))  # patch top at 120..180
    d.rectangle((10 + round(50 * ease(i)), 205, W - 1, 230), fill=BROWN)  # card left at 10..60
    return im


promo = [frame(i) for i in range(32)]
ours = [promo[0]] + promo[:-1]  # the same, one frame later

bar = track(Extent(5, 0, H - 1, colour=BLUE), promo, DT)
check("Extent finds the bar's bottom edge at every frame",
      bar == [float(20 + round(80 * ease(i))) for i in range(32)], str(bar))
patch = track(Shift((30, 120, 60, 30), 0.0, "y", 80), promo, DT)
check("Shift finds the patch within a tenth of a pixel at every frame",
      all(p is not None and abs(p - (120 + round(60 * ease(i)))) < 0.1 for i, p in enumerate(patch)), str(patch))
card = track(Edge(218, 0, W - 1, lambda p: p[0] - p[2] > 50), promo, DT)
check("Edge finds the tinted card's left edge at every frame",
      card == [float(10 + round(50 * ease(i))) for i in range(32)], str(card))
check("Edge is None where the row starts inside the card (its edge off screen)",
      track(Edge(218, 80, W - 1, lambda p: p[0] - p[2] > 50), promo[-1:], DT) == [None])

late = track(Extent(5, 0, H - 1, colour=BLUE), ours, DT)
lag, rms_then = best_lag(bar, late, list(range(32)))
check("the lag of a copy one frame later is +1 frame, with nothing left once aligned",
      lag == 1.0 and rms_then < 1e-9, f"{lag}, {rms_then}")
# A recording that moves only in its last tracked frame, ours the same: shifting ours a frame
# later would drop that frame and leave still frames that agree, so such a lag must not count.
# (transition-2's close: the recording's screen is lost a frame before it moves and after.)
last = [30.0] * 20 + [None, 130.0, None]
track_ours = [30.0] * 21 + [129.0, 246.0, None]
frames_last = [i for i, v in enumerate(last) if v is not None]
found, rms_last = best_lag(last, track_ours, frames_last)
check("a lag that drops the recording's moving frames is not counted (the motion only at the end)",
      found == 0 and 0.2 < rms_last < 0.3, f"{found}, {rms_last}")
rms, worst, at, n = score(bar, late)
check("the score at the same instants counts the lag as error", rms > 3 and abs(worst) > 10 and n == 32,
      f"{rms}, {worst}, {at}, {n}")
spans = events(bar)
check("one stretch of motion, frames 10-20 padded by 3", len(spans) == 1 and spans[0].start <= 10 and spans[0].stop >= 21,
      str(spans))

grid = parse_grid(["a.b=1,2", "c=x,y,z"])
check("a grid's combinations are every assignment, in grid order",
      combinations(grid) == [["a.b=1", "c=x"], ["a.b=1", "c=y"], ["a.b=1", "c=z"],
                             ["a.b=2", "c=x"], ["a.b=2", "c=y"], ["a.b=2", "c=z"]], str(combinations(grid)))
for items, named in [(["a.b"], "'a.b'"), (["a.b="], "'a.b='"), (["=1,2"], "'=1,2'"), (["a=1", "a=2"], "'a=2'")]:
    try:
        parse_grid(items)
        check(f"--grid {items} is refused", False)
    except ValueError as error:
        check(f"--grid {items} is refused, naming {named}", named in str(error), str(error))
for bad in ["1", "2,1", "x,y"]:
    try:
        parse_window(bad)
        check(f"--window {bad!r} is refused", False)
    except ValueError as error:
        check(f"--window {bad!r} is refused, naming it", repr(bad) in str(error), str(error))
features = [("bar", Extent(5, 0, H - 1, colour=BLUE)), ("card", Edge(218, 0, W - 1, lambda p: p[0] - p[2] > 50))]
overall, rows = measure(promo, promo, DT, features)
check("a render that is the recording measures 0 px", overall == 0 and all(r[0] == 0 and r[2] == 32 for _, r in rows), str(rows))
overall, rows = measure(promo, ours, DT, features)
expected_bar = score(bar, late)
check("one frame late, the bar's RMS and worst are the score's",
      abs(rows[0][1][0] - expected_bar[0]) < 1e-9 and rows[0][1][1] == expected_bar[1], f"{rows[0]}, {expected_bar}")
quiet, rows = measure(promo, ours, DT, features, window=(0, 0.36))
check("a window before the motion counts only still frames: 0 px over frames 0-9",
      quiet == 0 and rows[0][1][2] == 10, f"{quiet}, {rows}")

# A capture at 25 fps of a 60 Hz display: a fast move (300 px over 0.3 s), recorded as the
# capture keeps it (display phase 0.3), and ours 10 ms later, tracked at FINE_FPS.
check("a 25 fps capture steps unevenly; 30, 10 and 1/0.3 fps do not",
      steps_unevenly(1 / 25) and not any(steps_unevenly(d) for d in (1 / 30, 0.1, 0.3)))
kept = [round(drawn_at(i, 1 / 25, p / 10) * 60 + p / 10) for p in range(10) for i in range(50)]
check("each recorded frame shows a display frame drawn within one display frame before it",
      all(-1e-9 <= i / 25 - drawn_at(i, 1 / 25, p / 10) < 1 / 60 + 1e-9 for p in range(10) for i in range(50)))
gaps = {b - a for a, b in zip(kept[:50], kept[1:50])}
check("at 25 fps the display frames kept are 2 or 3 apart, 2.4 on average",
      gaps == {2, 3} and abs((kept[49] - kept[0]) / 49 - 2.4) < 0.03, f"{gaps}, {kept[:12]}")


def move(t):
    k = min(1.0, max(0.0, (t - 0.4) / 0.3))
    return 100 + 300 * k * k * (3 - 2 * k)


captured = [move(drawn_at(i, 1 / 25, 0.3)) for i in range(30)]
fine = [move(k / FINE_FPS - 0.010) for k in range(round(1.2 * FINE_FPS))]
even = [move(i / 25 - 0.010) for i in range(30)]
phase, lag, rms, worst = best_capture_fit(captured, fine, FINE_FPS, 1 / 25, list(range(30)))
check("the capture fit finds the display's phase and ours 10 ms later, with under half a px left",
      phase == 0.3 and abs(lag - 0.010) <= 0.001 and rms < 0.5 and abs(worst) < 1, f"{phase}, {lag}, {rms}, {worst}")
_, rms_even = best_lag(captured, even, list(range(30)))
check("sampled at even instants, no lag aligns the same motion within 2 px",
      rms_even > 2, f"{rms_even}")


def frame_at(t):
    """frame()'s bar and card at `t` seconds, moving over 3 frames (up to 40 px a frame)."""
    k = min(1.0, max(0.0, (t / DT - 10) / 3))
    e = k * k * (3 - 2 * k)
    im = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, W - 1, 20 + round(80 * e) - 1), fill=BLUE)
    d.rectangle((10 + round(50 * e), 205, W - 1, 230), fill=BROWN)
    return im


# The recording shows the display's state when it drew; ours, timed on the capture's instants,
# is on average half a display frame later.
HALF = 0.5 / 60
shown = [frame_at(drawn_at(i, DT, 0.3)) for i in range(32)]
even = [frame_at(i * DT - HALF) for i in range(32)]
fine_frames = [frame_at(k / FINE_FPS - HALF) for k in range(round(32 * DT * FINE_FPS))]
late_frames = [frame_at(k / FINE_FPS - HALF - DT) for k in range(round(32 * DT * FINE_FPS))]
moving = (0.36, 0.6)
plain, _ = measure(shown, even, DT, features, window=moving)
captured_rms, _ = measure(shown, even, DT, features, window=moving, fine=fine_frames)
late_rms, _ = measure(shown, even, DT, features, window=moving, fine=late_frames)
check("--grid as captured: the same motion measures under 1 px, where even instants leave over 2",
      captured_rms < 1 and plain > 2, f"{captured_rms}, {plain}")
check("--grid as captured: ours a frame late still counts (the lag is not fitted)", late_rms > 3, f"{late_rms}")

# A pull of known stroke, captured at 25 fps from the display at phase 0.3 (ours sits half a
# display frame after each drawn instant, as above), from rest to the release at 2.0 s; and
# the same pull at an even 30 fps.
truth = (1.2, 0.5, 110.0, 0.4, 0.2, 0.5, 1.0)
pull = {i: stroke_shown(drawn_at(i, DT, 0.3) + HALF, truth, 667.0) for i in range(25, 51)}
stroke, phase, rms, _ = fit_stroke(pull, DT, 667.0)
# A capture at 25 fps tells the display's phase only to within the 0.2 of a frame that keeps
# the same frames 2 or 3 apart; the start takes up the rest (a tenth of a display frame, 2 ms).
check("--fit-pull finds a 25 fps capture's stroke again: start, length, distance, phase",
      rms < 0.1 and abs(stroke[0] - 1.2) < 0.005 and abs(stroke[1] - 0.5) < 0.01 and abs(stroke[2] - 110) < 0.5
      and abs(phase - 0.3) <= 0.1 + 1e-9, f"{stroke}, phase {phase}, RMS {rms}")
even_pull = {i: stroke_shown(i / 30, truth, 667.0) for i in range(30, 61)}
stroke, phase, rms, _ = fit_stroke(even_pull, 1 / 30, 667.0)
check("--fit-pull at an even 30 fps fits no phase and finds the stroke again",
      phase is None and rms < 0.1 and abs(stroke[0] - 1.2) < 0.005 and abs(stroke[2] - 110) < 0.5,
      f"{stroke}, RMS {rms}")
check("The stroke shows nothing until two refreshes after it starts, then no jump",
      stroke_shown(1.2 + 2 / 60, truth, 667.0) == 0 and 0 < stroke_shown(1.2 + 2 / 60 + 0.001, truth, 667.0) < 0.2)

print(f"{len(checked) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
