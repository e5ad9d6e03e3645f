#!/usr/bin/env python3
"""flipbook build at scale, for Scripts/bench --build.

A 100-output manifest (the four built-ins x five widths, 200 to 375 px, x two frame rates as
GIF and MP4, and x five widths as contact sheets: previews of the sizes a README or a pull
request shows) is built whole, then built again with everything fresh (its
peer: sha256sum reading every input once, the least any content check can do), then built
again from nothing as four shards, one after another, each timed: every output must be built
exactly once and the costliest shard's time is compared with the cheapest's.

Usage: build-bench.py FLIPBOOK OUT_DIR
"""
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

SCENES = ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"]
MANIFEST = """# 100 outputs: 40 GIFs, 40 MP4s, 20 contact sheets
variants:
  width: {w200: {width: 200}, w240: {width: 240}, w280: {width: 280}, w320: {width: 320}, w375: {width: 375}}
  rate: {f15: {fps: 15}, f30: {fps: 30}}
outputs:
  - path: out/{scene}-{width}-{rate}.gif
    scene: [SCENES]
    variants: [width, rate]
  - path: out/{scene}-{width}-{rate}.mp4
    scene: [SCENES]
    variants: [width, rate]
  - path: out/{scene}-{width}-sheet.png
    scene: [SCENES]
    sheet: true
    variants: [width]
""".replace("SCENES", ", ".join(SCENES))


def run(binary, project, *args):
    started = time.perf_counter()
    done = subprocess.run([binary, "build", *args], cwd=project, capture_output=True, text=True)
    return time.perf_counter() - started, done


def built(done):
    m = re.search(r"built (\d+), skipped (\d+)", done.stdout)
    if not m:
        sys.exit(f"build-bench: no summary in:\n{done.stdout}\n{done.stderr}")
    return int(m.group(1)), int(m.group(2))


def main():
    binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    project = os.path.join(out, "project")
    shutil.rmtree(project, ignore_errors=True)
    os.makedirs(project)
    with open(os.path.join(project, "flipbook.yaml"), "w") as f:
        f.write(MANIFEST)

    listed = json.loads(run(binary, project, "--list")[1].stdout)
    assert len(listed) == 100, len(listed)

    # The peer of a whole build: the same renders typed one per line, run one after another.
    os.makedirs(os.path.join(project, "out"), exist_ok=True)
    started = time.perf_counter()
    for entry in listed:
        command = binary + entry["command"][len("flipbook"):] + " --quiet"
        subprocess.run(command, shell=True, cwd=project, check=True, capture_output=True)
    loop = time.perf_counter() - started
    shutil.rmtree(os.path.join(project, "out"))

    whole, done = run(binary, project)
    n, _ = built(done)
    assert n == 100 and done.returncode == 0, done.stdout + done.stderr

    fresh_times = []
    for _ in range(7):
        t, done = run(binary, project)
        assert built(done) == (0, 100), done.stdout
        fresh_times.append(t)
    check_times = []
    for _ in range(7):
        t, done = run(binary, project, "--check")
        assert done.returncode == 0, done.stdout
        check_times.append(t)
    inputs = sorted(
        f for scene in SCENES for f in glob.glob(os.path.join(root, "Assets", scene, "*")) if os.path.isfile(f))
    peer_times = []
    for _ in range(7):
        started = time.perf_counter()
        subprocess.run(["sha256sum", *inputs], capture_output=True, check=True)
        peer_times.append(time.perf_counter() - started)
    fresh, check, peer = (statistics.median(x) for x in (fresh_times, check_times, peer_times))
    size = sum(os.path.getsize(f) for f in inputs)

    shutil.rmtree(os.path.join(project, "out"))
    shards = []
    for i in range(1, 5):
        t, done = run(binary, project, "--shard", f"{i}/4", "--jobs", "1")
        assert done.returncode == 0, done.stdout + done.stderr
        cost = sum(e["cost"] for e in json.loads(run(binary, project, "--list", "--shard", f"{i}/4")[1].stdout))
        shards.append((i, built(done)[0], t, cost))
    t, done = run(binary, project, "--check")
    assert done.returncode == 0, done.stdout

    print(f"| flipbook build, 100 outputs (4 scenes x 5 widths, 200-375 px, x 15 and 30 fps, GIF + MP4, and 20 sheets) | measured | target |")
    print("|---|---|---|")
    print(f"| whole build, {os.cpu_count()} cores | {whole:.1f} s | |")
    print(f"| peer: the 100 `flipbook render` lines of `--list`, one after another | {loop:.1f} s "
          f"| build is {whole / loop:.2f}x it |")
    print(f"| everything fresh: `flipbook build` (median of 7) | {fresh:.3f} s | < 0.5 s |")
    print(f"| everything fresh: `flipbook build --check` (median of 7) | {check:.3f} s | |")
    print(f"| peer: `sha256sum` of the {len(inputs)} input files ({size / 1e6:.1f} MB), once | {peer:.3f} s "
          f"| build is {fresh / peer:.1f}x it |")
    for i, n, t, cost in shards:
        print(f"| `--shard {i}/4 --jobs 1`: built {n} | {t:.1f} s (estimated cost {cost:.0f}) | |")
    times = [t for _, _, t, _ in shards]
    total = sum(n for _, n, _, _ in shards)
    print(f"| shards: outputs built, in all | {total} (each once; `--check` passes after) | 100 |")
    print(f"| shards: slowest / fastest | {max(times) / min(times):.2f}x | <= 1.3x |")


if __name__ == "__main__":
    main()
