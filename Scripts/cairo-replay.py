#!/usr/bin/env python3
"""Writes a scene's draw lists for cairo-replay (Scripts/bench's raster peer), in output pixels.

usage: cairo-replay.py FLIPBOOK SCENE SCALE OUT

Runs `FLIPBOOK plan SCENE` (every frame, in points) and `FLIPBOOK config SCENE` (the canvas
and background), and writes the format cairo-replay.c reads. A frame whose list is the one before
becomes "D": Flipbook does not rasterize it again, so neither does the replay. Image paths
in the plan are relative to the repository, where this runs.
"""
import json, os, re, subprocess, sys

flipbook, scene, scale, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
plan = subprocess.run([flipbook, "plan", scene], cwd=root, check=True, capture_output=True, text=True).stdout
config = subprocess.run([flipbook, "config", scene], cwd=root, check=True, capture_output=True, text=True).stdout
bg = re.search(r'^background: "#([0-9A-Fa-f]{6})', config, re.M).group(1)
canvas = re.search(r"^canvas:\n  width: ([0-9.]+).*\n  height: ([0-9.]+)", config, re.M)
w, h = round(float(canvas.group(1)) * scale), round(float(canvas.group(2)) * scale)


def colour(text):
    """'#RRGGBB' or '#RRGGBBAA' (AA a straight alpha byte) as four 0...1 values."""
    m = re.fullmatch(r"#([0-9A-Fa-f]{6})([0-9A-Fa-f]{2})?", text)
    v = int(m.group(1), 16)
    return [(v >> 16 & 255) / 255, (v >> 8 & 255) / 255, (v & 255) / 255, int(m.group(2) or "FF", 16) / 255]


def box(r, radius=None):
    values = [x * scale for x in r] + ([radius * scale] if radius is not None else [])
    return " ".join(f"{x:.6f}" for x in values)


frames, images = {}, []
for line in plan.splitlines():
    c = json.loads(line)
    frames.setdefault(c["t"], []).append(c)
lines, previous = [], None
for t in sorted(frames):
    commands = frames[t]
    key = json.dumps([{k: v for k, v in c.items() if k != "t"} for c in commands])
    if key == previous:
        lines.append("D")
        continue
    previous = key
    drawn = []
    for c in commands:
        # Flipbook's opacity is round(alpha * 255); at 0 the command is skipped.
        if round(c["alpha"] * 255) == 0 or c["rect"][2] <= 0 or c["rect"][3] <= 0:
            continue
        clip = "0" if c["clip"] is None else "1 " + box(c["clip"]["rect"], c["clip"]["cornerRadius"])
        if c["kind"] == "fill":
            r, g, b, a = colour(c["color"])
            drawn.append(f"R {r:.6f} {g:.6f} {b:.6f} {a * c['alpha']:.6f} {box(c['rect'], c['cornerRadius'])} {clip}")
        else:
            path = os.path.join(root, c["file"])
            if path not in images:
                images.append(path)
            s = " ".join(f"{x:.6f}" for x in c["source"])
            drawn.append(f"S {images.index(path)} {s} {box(c['rect'])} {c['alpha']:.6f} {clip}")
    lines.append(f"F {len(drawn)}")
    lines += drawn
head = [f"{w} {h} {int(bg[0:2], 16) / 255:.6f} {int(bg[2:4], 16) / 255:.6f} {int(bg[4:6], 16) / 255:.6f}", f"I {len(images)}"] + images
with open(out, "w") as f:
    f.write("\n".join(head + lines) + "\n")
