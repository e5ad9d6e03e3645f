#!/usr/bin/env python3
"""The studio's latency, idle cost and memory, through HTTP as the page uses it.

For every built-in scene at @1x, on a copy of its folder (nothing in the repository is written):
- change to frame: POST /api/edit with a new value of an animation the storyboard reads, then
  GET the frame under the scrubber of the version it returns (20 changes: median and worst);
- the first change after the page loaded, against the median (a cold path shows there);
- changes 150 ms apart, each frame asked for while the versions before still render (10);
- under load: the 20 changes again while two processes keep both cores busy;
- change to playable: the same change, then the version's whole storyboard (GET /api/frames,
  which waits for every frame, and every distinct picture, six at a time) (5 changes);
- file saved to page: the scene file rewritten as an editor saves it (a new file renamed over
  it), to the event on /api/events, the new state and the frame (5 saves);
- the peer: `flipbook render SCENE -o x.gif`, the blind round trip a change took before the studio;
- idle: CPU of the server over 10 s with a page's event stream open, as % of one core;
- memory: resident size after 20 and after 200 changes.
Prints one markdown table. Usage: studio-bench.py FLIPBOOK_BINARY OUT_DIR
"""
import concurrent.futures
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENES = ["expanding-cells", "sliding-panels", "expanding-view", "app-store-card"]


class Studio:
    def __init__(self, binary, scene_path):
        self.process = subprocess.Popen([binary, "studio", scene_path], stdout=subprocess.PIPE, text=True,
                                        env={**os.environ, "FLIPBOOK_ROOT": ROOT})
        line = self.process.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]+)", line)
        if not m:
            raise SystemExit(f"studio-bench: no address from the studio: {line!r}")
        self.port, self.token = int(m.group(1)), m.group(2)
        self.base = f"http://127.0.0.1:{self.port}"

    def get(self, path, **query):
        q = "&".join(f"{k}={v}" for k, v in {"token": self.token, **query}.items())
        with urllib.request.urlopen(f"{self.base}{path}?{q}", timeout=60) as r:
            return r.read()

    def post(self, path, body):
        req = urllib.request.Request(f"{self.base}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"X-Flipbook-Token": self.token, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read())

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def animated_key(state):
    """A duration the storyboard reads: the first read animation param's."""
    for p in state["params"]:
        if p["kind"] == "animation" and p["isRead"]:
            return f'{p["key"]}.duration', float(p["fields"][0]["value"])
    raise SystemExit(f"studio-bench: {state['scene']} has no animation its storyboard reads")


def whole(studio, version):
    manifest = json.loads(studio.get("/api/frames", v=version))
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        list(pool.map(lambda k: studio.get("/api/picture", v=version, k=k), range(manifest["pictures"])))
    return manifest


class EventListener(threading.Thread):
    """Reads /api/events and notes when each version event arrives."""

    def __init__(self, studio):
        super().__init__(daemon=True)
        self.studio = studio
        self.events = []
        self.sock = socket.create_connection(("127.0.0.1", studio.port))
        self.sock.sendall(f"GET /api/events?token={studio.token} HTTP/1.1\r\nHost: 127.0.0.1:{studio.port}\r\n\r\n".encode())

    def run(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(4096)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            for m in re.finditer(rb'"type":"version","version":(\d+)', buffer):
                v = int(m.group(1))
                if all(v != e[0] for e in self.events):
                    self.events.append((v, time.perf_counter()))

    def close(self):
        self.sock.close()


def bench_scene(binary, scene, work):
    folder = os.path.join(work, scene)
    shutil.copytree(os.path.join(ROOT, "Assets", scene), folder)
    path = os.path.join(folder, f"{scene}.yaml")
    row = {"scene": scene}

    started = time.perf_counter()
    subprocess.run([binary, "render", path, "-o", os.path.join(work, f"{scene}.gif"), "--quiet"], check=True)
    row["cli_render_s"] = time.perf_counter() - started

    studio = Studio(binary, path)
    try:
        state = json.loads(studio.get("/api/state"))
        whole(studio, state["version"])
        key, base = animated_key(state)
        mid = state["duration"] / 2
        row["key"] = key

        def changes(count, first, then):
            """`count` changes of `key` from `first` times its value up: each one's edit to its
            frame under the scrubber, in ms; `then(version)` runs before the next change."""
            ms = []
            for i in range(count):
                value = f"{base * (first + 0.03 * (i + 1)):.4f}"
                t0 = time.perf_counter()
                s = studio.post("/api/edit", {"values": {key: value}, "t": round(mid, 3)})
                studio.get("/api/frame", v=s["version"], t=f"{mid:.3f}")
                ms.append((time.perf_counter() - t0) * 1000)
                then(s["version"])
            return ms, s["version"]

        # As the page does: the whole storyboard before the next change.
        row["frame_ms"], _ = changes(20, 0.7, lambda v: whole(studio, v))
        # Changes a designer makes faster than the storyboard renders: each frame is asked for
        # while the versions before it still render.
        row["busy_ms"], last = changes(10, 0.75, lambda v: time.sleep(0.15))
        whole(studio, last)
        # Under load: two processes keep both cores busy (the machine's other work: a build, a
        # test run) while the same changes are made.
        hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
        try:
            time.sleep(0.5)
            row["loaded_ms"], _ = changes(20, 0.7, lambda v: whole(studio, v))
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()

        playable_s = []
        for i in range(5):
            value = f"{base * (1.1 + 0.05 * i):.4f}"
            t0 = time.perf_counter()
            s = studio.post("/api/edit", {"values": {key: value}, "t": round(mid, 3)})
            studio.get("/api/frame", v=s["version"], t=f"{mid:.3f}")
            manifest = whole(studio, s["version"])
            playable_s.append(time.perf_counter() - t0)
        row["playable_s"] = playable_s
        row["pictures"] = manifest["pictures"]
        row["frames"] = len(manifest["times"])
        studio.post("/api/revert", {})

        listener = EventListener(studio)
        listener.start()
        time.sleep(0.3)
        with open(path) as f:
            original = f.read()
        reload_ms = []
        for i in range(5):
            text = original + f"\n# saved {i}\n"
            before = len(listener.events)
            t0 = time.perf_counter()
            with open(path + ".swp", "w") as f:
                f.write(text)
            os.replace(path + ".swp", path)
            while len(listener.events) == before and time.perf_counter() - t0 < 5:
                time.sleep(0.002)
            s = json.loads(studio.get("/api/state"))
            studio.get("/api/frame", v=s["version"], t=f"{mid:.3f}")
            reload_ms.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.3)
        row["reload_ms"] = reload_ms

        time.sleep(3)
        c0 = studio.cpu_seconds()
        time.sleep(10)
        row["idle_pct"] = (studio.cpu_seconds() - c0) / 10 * 100
        listener.close()

        for i in range(200):
            studio.post("/api/edit", {"values": {key: f"{base * (0.8 + 0.002 * (i % 100)):.4f}"}})
            if i == 19:
                time.sleep(1)
                row["rss20"] = studio.rss_mib()
        time.sleep(1)
        row["rss200"] = studio.rss_mib()
    finally:
        studio.stop()
    return row


def main():
    binary, out = sys.argv[1], sys.argv[2]
    work = os.path.join(out, "studio")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rows = [bench_scene(binary, scene, work) for scene in SCENES]
    with open(os.path.join(out, "studio.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("| scene @1x (param changed) | change to frame: median, worst (target ≤ 150 ms, ≤ 300 ms) | first change "
          "(≤ 1.5x the median) | while renders run: median, worst | under two busy processes: median, worst (≤ 300 ms) | "
          "change to playable: median (≤ 1.5 s) | file saved to page (≤ 1 s) | vs `flipbook render -o x.gif` | "
          "idle, % of a core (< 1 %) | memory after 20 / 200 changes |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        f = statistics.median(r["frame_ms"])
        p = statistics.median(r["playable_s"])
        print(f"| {r['scene']} (`{r['key']}`) | {f:.0f} ms, {max(r['frame_ms']):.0f} ms | "
              f"{r['frame_ms'][0]:.0f} ms ({r['frame_ms'][0] / f:.2f}x) | "
              f"{statistics.median(r['busy_ms']):.0f} ms, {max(r['busy_ms']):.0f} ms | "
              f"{statistics.median(r['loaded_ms']):.0f} ms, {max(r['loaded_ms']):.0f} ms | "
              f"{p:.2f} s ({r['frames']} frames, {r['pictures']} pictures) | {statistics.median(r['reload_ms']):.0f} ms | "
              f"frame {f / 1000 / r['cli_render_s']:.3f}x, playable {p / r['cli_render_s']:.2f}x of its {r['cli_render_s']:.2f} s | "
              f"{r['idle_pct']:.2f} % | {r['rss20']:.0f} / {r['rss200']:.0f} MiB |")

if __name__ == "__main__":
    main()
