"""Tracks features frame by frame in a promo recording and in our render, and scores them.

A feature is measured the same way in both, each on its own pixels: the recording's and ours
(resized to the recording's size) differ in content, so a template or a colour is always
taken from the side being measured, at the same moment and place. Positions are in the
recording's pixels; a frame where a feature cannot be found (covered, off screen) is None.

Kinds:
- `Extent(x, y, to, colour_at)`: how far a run of one colour reaches from (x, y) along a
  column (`to` > y: down; `to` < y: up) or a row (`axis="x"`). The colour is read at
  `colour_at` = (x, y, seconds) on the same side, or given as `colour` (when both sides
  draw it the same and no moment shows it at a fixed place). The position is the first
  pixel past the run, so an empty run is `y` itself: a bar's bottom edge, a growing circle's
  top. With `until=True` it is the other way round: the first pixel of that colour (a white
  panel's top under a header).
- `Shift(rect, at, axis, search)`: the patch `rect` = (x, y, w, h) of the frame at `at`
  seconds, found again in every frame within `search` px along `axis`: where a sliding
  region, card or panel is. A match worse than `MATCH_LIMIT` levels is None.
- `Edge(y, start, end, test)`: the first pixel along row `y`, from `start` towards `end`,
  that passes `test` (a card told by its tint); None if the very first does (the edge is off
  screen) or none does.

Every feature may carry `during=(t0, t1)`: only frames in that window are measured.

The table's "as captured" columns (fidelity_capture) sample ours where a 25 fps capture
sampled the 60 Hz display; their lag is against the display's instants, which are on average
half a display frame (8 ms) before the capture's, so it reads about 8 ms more than the lag
against the capture.
"""
from PIL import Image, ImageChops, ImageStat

# RMS difference, in levels, past which a patch is not the one we look for.
MATCH_LIMIT = 24.0
# Colour distance (largest channel difference, in levels) within which a pixel is the colour.
COLOUR_TOLERANCE = 28
COARSE = 4


class Extent:
    def __init__(self, x, y, to, colour_at=None, colour=None, axis="y", until=False, during=None):
        self.x, self.y, self.to, self.axis, self.until, self.during = x, y, to, axis, until, during
        self.colour_at, self.colour = colour_at, colour

    def prepare(self, frames, dt):
        if self.colour_at is not None:
            cx, cy, t = self.colour_at
            self.colour = frames[min(len(frames) - 1, round(t / dt))].getpixel((cx, cy))

    def measure(self, frame):
        start = self.y if self.axis == "y" else self.x
        end = max(0, min(self.to, (frame.height if self.axis == "y" else frame.width) - 1))
        step = 1 if end > start else -1
        for p in range(start, end + step, step):
            xy = (self.x, p) if self.axis == "y" else (p, self.y)
            if (max(abs(a - b) for a, b in zip(frame.getpixel(xy), self.colour)) > COLOUR_TOLERANCE) != self.until:
                return float(p)
        return float(end)


class Edge:
    def __init__(self, y, start, end, test, during=None):
        self.y, self.start, self.end, self.test, self.during = y, start, end, test, during

    def prepare(self, frames, dt):
        pass

    def measure(self, frame):
        step = 1 if self.end > self.start else -1
        end = max(0, min(self.end, frame.width - 1))
        for x in range(self.start, end + step, step):
            if self.test(frame.getpixel((x, self.y))):
                return None if x == self.start else float(x)
        return None


class Shift:
    def __init__(self, rect, at, axis="y", search=200, during=None):
        self.rect, self.at, self.axis, self.search, self.during = rect, at, axis, search, during

    def prepare(self, frames, dt):
        x, y, w, h = self.rect
        source = frames[min(len(frames) - 1, round(self.at / dt))].convert("L")
        self.template = source.crop((x, y, x + w, y + h))
        self.coarse_template = self.template.reduce(COARSE)

    def _error(self, frame, template, x, y):
        w, h = template.size
        if x < 0 or y < 0 or x + w > frame.width or y + h > frame.height:
            return None
        diff = ImageChops.difference(frame.crop((x, y, x + w, y + h)), template)
        return ImageStat.Stat(diff).rms[0]

    def _offsets(self, frame, template, around, radius, scale):
        x0, y0 = self.rect[0] // scale, self.rect[1] // scale
        found = {}
        for d in range(around - radius, around + radius + 1):
            x, y = (x0 + d, y0) if self.axis == "x" else (x0, y0 + d)
            e = self._error(frame, template, x, y)
            if e is not None:
                found[d] = e
        return found

    def measure(self, frame):
        luma = frame.convert("L")
        coarse = self._offsets(luma.reduce(COARSE), self.coarse_template, 0, self.search // COARSE, COARSE)
        if not coarse:
            return None
        guess = min(coarse, key=coarse.get) * COARSE
        fine = self._offsets(luma, self.template, guess, COARSE + 1, 1)
        if not fine or min(fine.values()) > MATCH_LIMIT:
            # Fine detail can alias away at a quarter of the size: look at every offset.
            fine = self._offsets(luma, self.template, 0, self.search, 1)
        if not fine:
            return None
        d = min(fine, key=fine.get)
        if fine[d] > MATCH_LIMIT:
            return None
        # A parabola through the squared errors either side puts the match between pixels.
        offset = float(d)
        if d - 1 in fine and d + 1 in fine:
            a, b, c = fine[d - 1] ** 2, fine[d] ** 2, fine[d + 1] ** 2
            if a + c - 2 * b > 0:
                offset += 0.5 * (a - c) / (a + c - 2 * b)
        return (self.rect[0] if self.axis == "x" else self.rect[1]) + offset


def track(feature, frames, dt, within=None):
    """The feature's position in each frame (None where it is not measured or not found);
    with `within` = [(t0, t1), …] only in those windows of seconds."""
    feature.prepare(frames, dt)
    out = []
    for i, frame in enumerate(frames):
        t = i * dt
        if feature.during and not (feature.during[0] - 1e-9 <= t <= feature.during[1] + 1e-9):
            out.append(None)
        elif within is not None and not any(t0 <= t <= t1 for t0, t1 in within):
            out.append(None)
        else:
            out.append(feature.measure(frame))
    return out


def interpolate(values, x):
    """`values` at a fractional index, linear between neighbours, None if either is."""
    i = int(x // 1)
    if i < 0 or i + 1 > len(values) - 1:
        return values[i] if 0 <= i < len(values) and x == i else None
    a, b = values[i], values[i + 1]
    if a is None or b is None:
        return None
    return a + (b - a) * (x - i)


# A recording's feature moves in a frame where it is more than this many px from the frame before.
MOVING_PX = 0.75


def _rms(promo, ours, lag, frames, required=()):
    errors = []
    for i in frames:
        o = interpolate(ours, i + lag)
        if promo[i] is not None and o is not None:
            errors.append(o - promo[i])
        elif i in required:
            return None
    if len(errors) < max(3, len(frames) // 2):
        return None
    return (sum(e * e for e in errors) / len(errors)) ** 0.5


def best_lag(promo, ours, frames, reach=4.0):
    """The lag in frames (ours later: positive) that best aligns ours with the recording over
    `frames`, and the RMS error there. A lag counts only where every frame in which the
    recording moves (from the last frame it was found in) is compared: a lag that shifts ours
    off the end of its track would otherwise drop those frames and score the still ones alone."""
    moving, before = set(), None
    for i in frames:
        if promo[i] is None:
            continue
        if before is not None and abs(promo[i] - before) > MOVING_PX and interpolate(ours, i) is not None:
            moving.add(i)
        before = promo[i]
    best = None
    for k in range(-int(reach * 20), int(reach * 20) + 1):
        lag = k / 20
        r = _rms(promo, ours, lag, frames, moving)
        if r is not None and (best is None or r < best[1] - 1e-9 or (abs(r - best[1]) < 1e-9 and abs(lag) < abs(best[0]))):
            best = (lag, r)
    return best


def events(promo, moving=MOVING_PX, gap=2, pad=3):
    """Frame ranges where the recording's feature moves (more than `moving` px a frame),
    joined across still gaps of up to `gap` frames and padded by `pad` frames."""
    moves = [i for i in range(1, len(promo))
             if promo[i] is not None and promo[i - 1] is not None and abs(promo[i] - promo[i - 1]) > moving]
    spans = []
    for i in moves:
        if spans and i - spans[-1][1] <= gap + 1:
            spans[-1][1] = i
        else:
            spans.append([i - 1, i])
    return [range(max(0, a - pad), min(len(promo), b + pad + 1)) for a, b in spans]


def score(promo, ours):
    """RMS and worst error (px) with the frame of the worst, over frames measured in both."""
    pairs = [(i, o - p) for i, (p, o) in enumerate(zip(promo, ours)) if p is not None and o is not None]
    if not pairs:
        return None
    rms = (sum(e * e for _, e in pairs) / len(pairs)) ** 0.5
    worst = max(pairs, key=lambda p: abs(p[1]))
    return rms, worst[1], worst[0], len(pairs)


def place(frame, size, screen):
    """Our frame as the recording shows its screen: resized to the whole recording, or into
    `screen` = (x, y, w, h) with the rest grey."""
    if screen is None:
        return frame.resize(size, Image.LANCZOS)
    x, y, w, h = screen
    out = Image.new("RGB", size, (128, 128, 128))
    out.paste(frame.resize((w, h), Image.LANCZOS), (x, y))
    return out


def table(promo, ours, dt, features, fine=None):
    """Rows of the tracking table: per feature its RMS and worst error (px, at the same
    instants), the lag that best aligns the two and the RMS there; then the same lag per
    event (each stretch where the recording's feature moves). With `fine` (ours rendered at
    FINE_FPS), each event is also scored as the capture sampled the display
    (fidelity_capture)."""
    # Imported here: fidelity_capture reads values between frames with this module's interpolate.
    from fidelity_capture import FINE_FPS, best_capture_fit

    rows = []
    for name, feature in features:
        a, b = track(feature, promo, dt), track(feature, ours, dt)
        s = score(a, b)
        if s is None:
            rows.append((name, None))
            continue
        measured = [i for i in range(min(len(a), len(b))) if a[i] is not None]
        # A feature the recording barely moves has no lag to find.
        moved = [a[i] for i in measured]
        lag = best_lag(a, b, measured) if moved and max(moved) - min(moved) >= 3 else None
        stretches = events(a)
        if fine is not None:
            # Ours is needed as far out as the capture fit's lag reaches, and a display frame.
            reach = 0.2
            windows = [(span.start * dt - reach, (span.stop - 1) * dt + reach) for span in stretches]
            tracked_fine = track(feature, fine, 1 / FINE_FPS, within=windows)
        spans = []
        for span in stretches:
            frames = [i for i in span if i < len(b)]
            captured = best_capture_fit(a, tracked_fine, FINE_FPS, dt, frames) if fine is not None else None
            spans.append((span.start * dt, (span.stop - 1) * dt, _rms(a, b, 0, frames), best_lag(a, b, frames), captured))
        rows.append((name, (s, lag, spans)))
    return rows


def print_table(recording, dt, rows, out):
    out(f"{recording}  (one frame {dt * 1000:.0f} ms; lag: ours later than the recording is +)")
    captured = any(span[4] for _, result in rows if result for span in result[2])
    extra = f"   as captured: {'RMS':>4} {'worst':>6} {'phase':>5} {'lag ms':>6}" if captured else ""
    out(f"  {'feature':18} {'frames':>6} {'RMS px':>7} {'worst px':>9} {'at s':>6} {'lag ms':>7} {'frames':>7} {'RMS then':>9}{extra}")
    for name, result in rows:
        if result is None:
            out(f"  {name:18} not found in both")
            continue
        (rms, worst, at, n), lag, spans = result
        lag_text = f"{lag[0] * dt * 1000:+7.0f} {lag[0]:+7.2f} {lag[1]:9.1f}" if lag else f"{'-':>7} {'-':>7} {'-':>9}"
        out(f"  {name:18} {n:6d} {rms:7.1f} {worst:+9.1f} {at * dt:6.2f} {lag_text}")
        for t0, t1, r0, lag, fit in spans:
            r0_text = f"{r0:7.1f}" if r0 is not None else f"{'-':>7}"
            lag_text = f"{lag[0] * dt * 1000:+7.0f} {lag[0]:+7.2f} {lag[1]:9.1f}" if lag else f"{'-':>7} {'-':>7} {'-':>9}"
            fit_text = f"{'':17}{fit[2]:4.1f} {fit[3]:+6.1f} {fit[0]:5.1f} {fit[1] * 1000:+6.0f}" if fit else ""
            out(f"    {f'moving {t0:.2f}-{t1:.2f} s':22} {r0_text} {'':9} {'':6} {lag_text}{fit_text}")
