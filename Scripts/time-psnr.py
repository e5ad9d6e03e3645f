#!/usr/bin/env python3
"""PSNR and SSIM of GIFs (or animated WebPs) against their source frames, each source frame paired
with the frame on screen at its time, the way a viewer sees it: round(i·100/fps) cs for a GIF,
whose delays are centiseconds, and round(i·1000/fps) ms for a WebP, whose are milliseconds.

usage: time-psnr.py FRAMES_DIR FPS GIF [GIF ...]     prints one JSON object per GIF
(SSIM: scikit-image's, over RGB, the mean over the source frames)

score.py pairs frames by index when the counts match, and otherwise by a thumbnail alignment
that can pick the wrong neighbour for a held frame; this pairing has no heuristic.
Decoding and the PSNR rule (RGB over black, MSE pooled over all frames) are score.py's own.
"""
import glob, json, os, sys
import numpy as np
from PIL import Image
from skimage.metrics import structural_similarity

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "tools", "gifpeers"))
import score  # noqa: E402

frames_dir, fps, gifs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
src = [np.asarray(Image.open(f).convert("RGB")) for f in sorted(glob.glob(os.path.join(frames_dir, "*.png")))]
for gif in gifs:
    frames, delays = score.decode(gif)
    starts = np.cumsum([0] + delays[:-1])
    mses, ssims = [], []
    for i, s in enumerate(src):
        at = round(i * 1000 / fps) if gif.lower().endswith(".webp") else round(i * 100 / fps) * 10
        k = int(np.searchsorted(starts, at, side="right") - 1)
        shown = score.over_black(frames[k])
        mses.append(float(np.mean((s.astype(np.float32) - shown) ** 2)))
        ssims.append(structural_similarity(s, np.clip(shown, 0, 255).astype(np.uint8), channel_axis=2))
    print(json.dumps({"gif": gif, "psnr_time_paired": score.psnr(np.mean(mses)),
                      "ssim_time_paired": float(np.mean(ssims))}), flush=True)
