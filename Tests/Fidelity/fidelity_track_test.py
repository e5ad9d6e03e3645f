#!/usr/bin/env python3
"""Scripts/fidelity's tracker on synthetic recordings whose answers are known: a bar's edge,
a sliding patch and a tinted card, each drawn at known positions, and a copy one frame later,
whose lag the table must find.

Usage: /usr/bin/python3 Tests/Fidelity/fidelity_track_test.py  (needs Pillow)
"""
import os, random, sys
from PIL import Image, ImageDraw

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts"))
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
rms, worst, at, n = score(bar, late)
check("the score at the same instants counts the lag as error", rms > 3 and abs(worst) > 10 and n == 32,
      f"{rms}, {worst}, {at}, {n}")
spans = events(bar)
check("one stretch of motion, frames 10-20 padded by 3", len(spans) == 1 and spans[0].start <= 10 and spans[0].stop >= 21,
      str(spans))

print(f"{len(checked) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
