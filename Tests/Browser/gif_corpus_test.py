#!/usr/bin/env python3
"""GIF edge cases read as a browser shows them.

Writes a corpus of GIFs byte by byte (a still, zero and one-centisecond delays, a comment after
the last frame, a loop count given twice, a transparent first frame, a background index outside
the palette, frames smaller than the screen at offsets, each disposal, local colour tables),
decodes each in headless Chromium with its own GIF decoder (WebCodecs' ImageDecoder, which gives
each frame composited, and the duration the file asks for), and checks that `flipbook compare`
finds the GIF and Chromium's frames the same at every moment, exactly: the frames played at the
rate Chromium's player shows them (a frame asking for 10 ms or less shows for 100 ms), and a
still against its one frame as a PNG. Then that the comparison can fail: a GIF against another
disposal's frames, or zero delays taken as 20 ms, differ.

Last, an animated PNG as `flipbook render -o x.apng` writes it: Chromium's PNG decoder gives
the frames of `render -o frames/` at the times the file says, exactly, each for as long.

Usage: gif_corpus_test.py path/to/flipbook
"""
import base64
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

failures = 0


def check(condition, what):
    global failures
    print(("ok: " if condition else "FAILED: ") + what, flush=True)
    if not condition:
        failures += 1


# MARK: Writing GIFs byte by byte

def lzw(indices, min_code_size):
    """LZW data that a decoder reads back as `indices`: every pixel a literal code, with a clear
    code often enough that the codes never widen (valid for any decoder, if not small)."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    # After a clear, each code but the first adds a table entry; the codes widen once the next
    # free entry reaches 2^width. Clearing every `run` codes keeps it below.
    run = (1 << width) - (end + 1) - 2
    codes = []
    for k, i in enumerate(indices):
        if k % run == 0:
            codes.append(clear)
        codes.append(i)
    codes.append(end)
    bits, nbits, out = 0, 0, bytearray()
    for c in codes:
        bits |= c << nbits
        nbits += width
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray([min_code_size])
    for k in range(0, len(out), 255):
        chunk = out[k:k + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\x00")


def palette(colors, size=16):
    colors = list(colors) + [(0, 0, 0)] * (size - len(colors))
    return b"".join(bytes(c) for c in colors)


def gce(delay, disposal=0, transparent=None):
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    return b"\x21\xF9\x04" + bytes([flags]) + delay.to_bytes(2, "little") + bytes([transparent or 0]) + b"\x00"


def image(x, y, w, h, pixels, local=None):
    flags = 0x80 | 3 if local is not None else 0
    head = b"\x2C" + b"".join(v.to_bytes(2, "little") for v in (x, y, w, h)) + bytes([flags])
    return head + (palette(local) if local is not None else b"") + lzw(pixels, 4)


def loop(count=0):
    return b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + count.to_bytes(2, "little") + b"\x00"


def comment(text):
    data = text.encode()
    return b"\x21\xFE" + bytes([len(data)]) + data + b"\x00"


def gif(w, h, body, colors, background=0):
    screen = b"GIF89a" + w.to_bytes(2, "little") + h.to_bytes(2, "little") + bytes([0xF3, background, 0])
    return screen + palette(colors) + body + b"\x3B"


RGB = [(255, 255, 255), (230, 40, 40), (40, 160, 60), (40, 80, 230), (250, 200, 30), (20, 20, 20)]
W, H = 24, 16


def fill(w, h, f):
    return [f(x, y) for y in range(h) for x in range(w)]


def stripes(k):
    return fill(W, H, lambda x, y: 1 + ((x // 4 + y // 4 + k) % 4))


def corpus():
    """(name, bytes, frame rate the browser plays it at): each GIF's frames are equally long."""
    cases = []
    cases.append(("still", gif(W, H, image(0, 0, W, H, stripes(0)), RGB), None))
    cases.append(("still-with-gce", gif(W, H, gce(0) + image(0, 0, W, H, stripes(0)), RGB), None))
    frames = lambda delay, n=4: b"".join(gce(delay) + image(0, 0, W, H, stripes(k)) for k in range(n))
    cases.append(("zero-delays", gif(W, H, loop() + frames(0), RGB), 10))
    cases.append(("one-cs-delays", gif(W, H, loop() + frames(1), RGB), 10))
    cases.append(("two-cs-delays", gif(W, H, loop() + frames(2), RGB), 50))
    cases.append(("comment-after-last", gif(W, H, loop() + frames(5) + comment("made by hand"), RGB), 20))
    cases.append(("loop-given-twice", gif(W, H, loop(0) + loop(3) + frames(5), RGB), 20))
    # Extents: a full first frame, then smaller frames at offsets over it.
    small = lambda k: image(4 + 2 * k, 3 + k, 8, 6, fill(8, 6, lambda x, y: 1 + (x + y + k) % 5))
    cases.append(("frames-at-offsets", gif(W, H, loop() + gce(10) + image(0, 0, W, H, stripes(1))
                                        + b"".join(gce(10) + small(k) for k in range(3)), RGB), 10))
    # Disposal 2 (to background) and 3 (to previous) under smaller frames.
    for disposal in (1, 2, 3):
        body = loop() + gce(10) + image(0, 0, W, H, stripes(2))
        body += b"".join(gce(10, disposal) + small(k) for k in range(3))
        cases.append((f"disposal-{disposal}", gif(W, H, body, RGB), 10))
    # A first frame with transparent pixels (index 0), and frames that keep some of them.
    hole = fill(W, H, lambda x, y: 0 if 6 <= x < 18 and 4 <= y < 12 else 1 + (x // 3) % 5)
    body = loop() + gce(10, 1, transparent=0) + image(0, 0, W, H, hole)
    body += gce(10, 1, transparent=0) + image(0, 0, W, H, fill(W, H, lambda x, y: 0 if x < 12 else 3))
    cases.append(("transparent-first-frame", gif(W, H, body, RGB), 10))
    # The background index names no colour of the palette (it has 16; 200 is outside).
    body = loop() + gce(10) + image(0, 0, W, H, stripes(3)) + gce(10, 2) + small(0) + gce(10) + small(1)
    cases.append(("background-outside-palette", gif(W, H, body, RGB, background=200), 10))
    # Local colour tables that differ frame to frame.
    local = [(10, 10, 10), (200, 100, 0), (0, 100, 200), (100, 200, 0), (250, 250, 250)]
    body = loop() + b"".join(gce(10) + image(0, 0, W, H, stripes(k), local=local[k:] + local[:k]) for k in range(3))
    cases.append(("local-palettes", gif(W, H, body, RGB), 10))
    return cases


# MARK: The browser's frames

PAGE = b"""<!doctype html><meta charset=utf-8><title>gif oracle</title>
<script>
async function frames(b64, type = "image/gif") {
  const data = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const decoder = new ImageDecoder({data, type});
  await decoder.tracks.ready;
  const track = decoder.tracks.selectedTrack;
  await decoder.completed;
  const out = [];
  for (let i = 0; i < track.frameCount; i++) {
    const {image} = await decoder.decode({frameIndex: i});
    const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
    const ctx = canvas.getContext("2d", {colorSpace: "srgb"});
    ctx.drawImage(image, 0, 0);
    const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let s = ""; for (let k = 0; k < pixels.length; k++) s += String.fromCharCode(pixels[k]);
    out.push({width: canvas.width, height: canvas.height, duration: image.duration, rgba: btoa(s)});
    image.close();
  }
  return out;
}
</script>"""


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


def chromium_frames(driver, data, media_type, name):
    """The frames of image `data` as Chromium decodes them, or None (a failed check) if it cannot."""
    shown = driver.execute_async_script(
        "frames(arguments[0], arguments[1]).then(arguments[2], e => arguments[2]({error: String(e)}))",
        base64.b64encode(data).decode(), media_type)
    if isinstance(shown, dict):
        check(False, f"{name}: Chromium decodes it ({shown['error']})")
        return None
    return shown


def check_apng(driver, flipbook, work):
    """An APNG of ours, decoded by Chromium: each frame is the rendered frame at its start time,
    and lasts as long as the file's delay says."""
    apng, folder = os.path.join(work, "view.apng"), os.path.join(work, "frames")
    for out in [apng, folder + "/"]:
        subprocess.run([flipbook, "render", "expanding-view", "--width", "160", "-o", out, "--quiet"], check=True)
    with open(apng, "rb") as f:
        data = f.read()
    shown = chromium_frames(driver, data, "image/png", "APNG")
    if shown is None:
        return
    names = sorted(os.listdir(folder))
    start, same = 0, 0
    for frame in shown:
        index = round(start * 30 / 1_000_000)
        rendered = Image.open(os.path.join(folder, names[index])).convert("RGBA").tobytes()
        same += base64.b64decode(frame["rgba"]) == rendered
        start += frame["duration"]
    check(len(shown) > 10 and same == len(shown) and start == 3_000_000,
          f"APNG: Chromium decodes {len(shown)} frames, {same} equal to the rendered frame at their start, "
          f"lasting {start / 1e6} s in all")


def main():
    flipbook = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="flipbook-gif-corpus-")
    server = http.server.HTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/")  # a secure context: ImageDecoder
        driver.set_script_timeout(30)
        decoded = {}
        for name, data, fps in corpus():
            path = os.path.join(work, name + ".gif")
            with open(path, "wb") as f:
                f.write(data)
            shown = chromium_frames(driver, data, "image/gif", name)
            if shown is None:
                continue
            folder = os.path.join(work, name + "-chromium")
            os.makedirs(folder)
            for k, frame in enumerate(shown):
                Image.frombytes("RGBA", (frame["width"], frame["height"]), base64.b64decode(frame["rgba"])).save(
                    os.path.join(folder, f"frame{k:04d}.png"))
            decoded[name] = (path, folder, fps)
            durations = sorted({f["duration"] for f in shown})
            expected = folder if len(shown) > 1 else os.path.join(folder, "frame0000.png")
            args = [flipbook, "compare", path, expected] + (["--fps", str(fps)] if fps else [])
            result = subprocess.run(args, capture_output=True, text=True)
            verdict = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr.strip()
            check(result.returncode == 0,
                  f"{name}: {len(shown)} frame(s) as Chromium decodes them (durations {durations} µs), "
                  f"compared{' at ' + str(fps) + ' fps' if fps else ''}: {verdict}"
                  + ("" if result.returncode == 0 else "\n" + result.stdout + result.stderr))
        # The comparison can fail: one disposal is not another, and a zero delay is not 20 ms.
        for gif_name, frames_name, fps in [("disposal-2", "disposal-3", 10), ("disposal-1", "disposal-2", 10),
                                           ("zero-delays", "zero-delays", 50)]:
            result = subprocess.run([flipbook, "compare", decoded[gif_name][0], decoded[frames_name][1], "--fps",
                                     str(fps)], capture_output=True, text=True)
            check(result.returncode == 1 and "DIFFERENT" in result.stdout,
                  f"{gif_name} against Chromium's {frames_name} at {fps} fps differs (exit {result.returncode})")
        # What a browser cannot show either is an error that names the file and what is wrong.
        screen = b"GIF89a" + W.to_bytes(2, "little") + H.to_bytes(2, "little") + bytes([0x03, 0, 0])
        whole = gif(W, H, loop() + gce(10) + image(0, 0, W, H, stripes(0)) + gce(10) + image(0, 0, W, H, stripes(1)),
                    RGB)
        broken = [("no-colour-map", screen + image(0, 0, W, H, stripes(0)) + b"\x3B", "frame 0 has no colour map"),
                  ("truncated", whole[:40], "ends before the GIF does"),
                  ("empty-screen", gif(0, 0, b"", RGB), "empty logical screen")]
        for name, data, says in broken:
            path = os.path.join(work, name + ".gif")
            with open(path, "wb") as f:
                f.write(data)
            result = subprocess.run([flipbook, "compare", path, path], capture_output=True, text=True)
            check(result.returncode == 2 and path in result.stderr and says in result.stderr,
                  f"{name}: {result.stderr.strip()}")
        check_apng(driver, flipbook, work)
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'all' if failures == 0 else failures} {'passed' if failures == 0 else 'failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
