"""A finger's pull as one eased stroke, fitted to a recording's tracked content.

expanding-cells pulls its detail with `pull-by`: the finger travels `fingerTravel(distance)`
along a Bézier `profile` over `duration` from `start`, and the content shows that travel
through the rubber band (ScrollPhysics.rubberBand, constant 0.55, over the canvas height). A
drag shows where the finger was two display refreshes before (Plan.presentationLatency), so
the content is still until `start + 2/60` and then follows without a jump.

`fit_stroke` finds the stroke (start, duration, distance and the profile's four control
values) whose content offset best matches a recording's, by least squares, at the instants
the recording's frames show: for a capture whose rate does not divide 60 Hz, the display
instants (fidelity_capture.drawn_at) at the display phase that fits best. A hand pulls
unevenly; one stroke of seven values is how close a storyboard's `pull-by` gets.
"""
import math

from fidelity_capture import DISPLAY_HZ, PHASES, drawn_at, steps_unevenly

LATENCY = 2 / DISPLAY_HZ
RUBBER_BAND = 0.55


def rubber_band(x, dimension):
    """The offset shown for a finger travel `x` (UIScrollView's rubber band)."""
    return (1 - 1 / (x * RUBBER_BAND / dimension + 1)) * dimension


def finger_travel(shown, dimension):
    """The finger travel whose rubber band shows `shown` (the scene's fingerTravel)."""
    b = min(shown, dimension * 0.999)
    return b * dimension / (RUBBER_BAND * (dimension - b))


def bezier(x1, y1, x2, y2, x):
    """A cubic Bézier easing (0,0)-(x1,y1)-(x2,y2)-(1,1) at `x`, solved by bisection."""
    x = min(1.0, max(0.0, x))
    lo, hi = 0.0, 1.0
    for _ in range(40):
        t = (lo + hi) / 2
        if 3 * (1 - t) ** 2 * t * x1 + 3 * (1 - t) * t * t * x2 + t ** 3 < x:
            lo = t
        else:
            hi = t
    t = (lo + hi) / 2
    return 3 * (1 - t) ** 2 * t * y1 + 3 * (1 - t) * t * t * y2 + t ** 3


def shown(t, stroke, dimension):
    """The content offset (points) the screen shows at `t` for `stroke`:
    (start, duration, distance, x1, y1, x2, y2)."""
    start, duration, distance, x1, y1, x2, y2 = stroke
    local = t - LATENCY - start
    if local <= 0:
        return 0.0
    return rubber_band(finger_travel(distance, dimension) * bezier(x1, y1, x2, y2, local / duration), dimension)


def _valid(stroke):
    _, duration, distance, x1, _, x2, _ = stroke
    return duration > 0.01 and distance > 0 and 0 <= x1 <= 1 and 0 <= x2 <= 1


def nelder_mead(f, x0, steps, iterations=4000, tolerance=1e-9):
    """The minimum of `f` near `x0` (derivative-free), each coordinate first stepped by `steps`."""
    simplex = [list(x0)] + [[v + (steps[i] if j == i else 0) for j, v in enumerate(x0)] for i in range(len(x0))]
    values = [f(p) for p in simplex]
    for _ in range(iterations):
        order = sorted(range(len(simplex)), key=values.__getitem__)
        simplex, values = [simplex[i] for i in order], [values[i] for i in order]
        if values[-1] - values[0] < tolerance:
            break
        centre = [sum(p[j] for p in simplex[:-1]) / (len(simplex) - 1) for j in range(len(x0))]
        worst = simplex[-1]
        reflected = [c + (c - w) for c, w in zip(centre, worst)]
        r = f(reflected)
        if r < values[0]:
            expanded = [c + 2 * (c - w) for c, w in zip(centre, worst)]
            e = f(expanded)
            simplex[-1], values[-1] = (expanded, e) if e < r else (reflected, r)
        elif r < values[-2]:
            simplex[-1], values[-1] = reflected, r
        else:
            contracted = [c + 0.5 * (w - c) for c, w in zip(centre, worst)]
            k = f(contracted)
            if k < values[-1]:
                simplex[-1], values[-1] = contracted, k
            else:
                best = simplex[0]
                simplex = [best] + [[b + 0.5 * (v - b) for b, v in zip(best, p)] for p in simplex[1:]]
                values = [values[0]] + [f(p) for p in simplex[1:]]
    i = min(range(len(simplex)), key=values.__getitem__)
    return simplex[i], values[i]


# Where the search starts from: a steady pull, one that starts fast and slows, one that starts
# slow, and one with a tug part way.
PROFILES = [(0.3, 0.6, 0.6, 1.0), (0.5, 0.3, 0.5, 1.0), (0.65, 1.04, 0.0, 0.46), (0.83, 0.8, 0.04, 0.49)]


def fit_stroke(recorded, dt, dimension, hz=DISPLAY_HZ):
    """The stroke that best matches `recorded` ({frame index: content offset in points},
    frame `i` captured at `i * dt`), as (stroke, display phase, RMS points, errors)."""
    frames = sorted(recorded)
    phases = [p / PHASES for p in range(PHASES)] if steps_unevenly(dt, hz) else [None]
    moving = [i for i in frames if recorded[i] > 1]
    if not moving:
        raise ValueError("the recording does not move over the window")
    start_guess = moving[0] * dt - LATENCY - 0.02
    end_guess = next((i for i in moving if recorded[i] >= 0.97 * max(recorded.values())), moving[-1]) * dt
    best = None
    for phase in phases:
        # The instant each frame shows: a display frame's, half a frame after its vsync on
        # average, where the capture rate does not divide the display's.
        at = {i: i * dt if phase is None else drawn_at(i, dt, phase, hz) + 0.5 / hz for i in frames}

        def cost(stroke):
            if not _valid(stroke):
                return 1e12
            return sum((shown(at[i], stroke, dimension) - recorded[i]) ** 2 for i in frames)

        for profile in PROFILES:
            x0 = [start_guess, max(0.05, end_guess - start_guess), max(recorded.values()), *profile]
            stroke, value = nelder_mead(cost, x0, [0.02, 0.05, 5, 0.1, 0.1, 0.1, 0.1])
            if best is None or value < best[0]:
                best = (value, stroke, phase, at)
    value, stroke, phase, at = best
    errors = [shown(at[i], stroke, dimension) - recorded[i] for i in frames]
    return stroke, phase, math.sqrt(value / len(frames)), errors
