#!/usr/bin/python3
"""`attention-explorer export` of a heatmap to PNG against matplotlib drawing
the same heatmap, each timed as a whole process started fresh (start-up counts).

    /usr/bin/python3 scripts/bench_export_matplotlib.py [--app PATH] [--session FILE]
                                                        [--tokens N] [--d-model D] [--heads H]
                                                        [--repeat R] [--keep DIR]

Without --session it writes a single-layer session of N tokens (default 512,
d_model 64, 8 heads, scaled dot-product, random embeddings from a fixed seed).
The weights matplotlib draws are head 0's, as `export` draws by default, read
from `attention-explorer compute` of the same session (not timed) and handed
to the matplotlib process as a .npy file. The matplotlib process (Agg backend,
the cheapest matplotlib has for a PNG) draws imshow of the n x n weights with
token labels on both axes (every k-th, as many as fit, as `export` does), a
colour bar and a title, and saves an 800 x 700 PNG, export's default size.
One untimed run of each (the disk cache), then R timed runs of each,
alternated so that both see the same load; prints one JSON line with each
side's min_ms and median_ms and the ratios. --keep DIR keeps both PNGs there
to compare by eye.

matplotlib (Debian's python3-matplotlib) is a benchmark-only tool, like
python3-torch: never a dependency of the product or its tests.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# What the timed matplotlib process runs: everything a user's script would
# import and do, from a fresh interpreter.
MATPLOTLIB_DRAW = r"""
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

weights = np.load(sys.argv[1])
with open(sys.argv[2]) as f:
    tokens = json.load(f)
n = len(tokens)
step = max(1, -(-n // 40))  # about 40 labels a side fit at 800 x 700
ticks = list(range(0, n, step))
fig, ax = plt.subplots(figsize=(8, 7), dpi=100)
image = ax.imshow(weights, cmap="viridis", vmin=0.0, interpolation="nearest", aspect="auto")
ax.set_xticks(ticks)
ax.set_xticklabels([tokens[i] for i in ticks], rotation=90, fontsize=6)
ax.set_yticks(ticks)
ax.set_yticklabels([tokens[i] for i in ticks], fontsize=6)
ax.set_xlabel("key")
ax.set_ylabel("query")
ax.set_title("attention weights, head 0")
fig.colorbar(image, ax=ax)
fig.savefig(sys.argv[3], dpi=100)
"""


def write_session(path, tokens, d_model, heads):
    rng = np.random.default_rng(7)
    words = [f"w{i}" for i in range(tokens)]
    session = {
        "format": "attention-explorer-session",
        "version": 1,
        "sentence": " ".join(words),
        "tokens": words,
        "embeddings": rng.uniform(-1.0, 1.0, size=(tokens, d_model)).round(4).tolist(),
        "query": 0,
        "attention": {"mode": "scaled-dot-product", "heads": heads, "head_dim": d_model // heads,
                      "causal": False, "scale": True, "positional_encoding": "none",
                      "output_projection": heads > 1, "seed": 123},
    }
    with open(path, "w") as f:
        json.dump(session, f)


def whole_process_ms(command):
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.decode(errors='replace').strip()}")
    return elapsed


def png_size(path):
    with open(path, "rb") as f:
        header = f.read(24)
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", default=os.path.join(HERE, "..", "build", "release", "app", "attention-explorer"))
    parser.add_argument("--session")
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--keep")
    args = parser.parse_args()
    if not os.access(args.app, os.X_OK):
        sys.exit(f"{args.app}: not an executable; give --app build/ci/app/attention-explorer")

    work = tempfile.mkdtemp(prefix="bench-export-")
    out_dir = args.keep or work
    os.makedirs(out_dir, exist_ok=True)
    session = args.session or os.path.join(work, "heatmap.attn.json")
    if not args.session:
        write_session(session, args.tokens, args.d_model, args.heads)

    # The same numbers for matplotlib: head 0's weights, as export draws by default.
    result = json.loads(subprocess.run([args.app, "compute", session], check=True, stdout=subprocess.PIPE).stdout)
    weights = np.array(result["heads"][0]["weights"], dtype=np.float64)
    weights_path, tokens_path = os.path.join(work, "weights.npy"), os.path.join(work, "tokens.json")
    np.save(weights_path, weights)
    with open(tokens_path, "w") as f:
        json.dump(result["tokens"], f)
    draw_path = os.path.join(work, "draw_matplotlib.py")
    with open(draw_path, "w") as f:
        f.write(MATPLOTLIB_DRAW)

    ours_png, theirs_png = os.path.join(out_dir, "export.png"), os.path.join(out_dir, "matplotlib.png")
    ours_cmd = [args.app, "export", session, "-o", ours_png]
    theirs_cmd = ["/usr/bin/python3", draw_path, weights_path, tokens_path, theirs_png]
    ours, theirs = [], []
    for run in range(args.repeat + 1):
        a, b = whole_process_ms(ours_cmd), whole_process_ms(theirs_cmd)
        if run > 0:
            ours.append(a)
            theirs.append(b)

    import matplotlib
    print(json.dumps({
        "tokens": int(weights.shape[0]), "d_model": args.d_model if not args.session else None,
        "heads": args.heads if not args.session else None, "repeat": args.repeat,
        "export_min_ms": min(ours), "export_median_ms": statistics.median(ours),
        "matplotlib_min_ms": min(theirs), "matplotlib_median_ms": statistics.median(theirs),
        "ratio_min": min(ours) / min(theirs), "ratio_median": statistics.median(ours) / statistics.median(theirs),
        "export_png": list(png_size(ours_png)), "matplotlib_png": list(png_size(theirs_png)),
        "matplotlib": matplotlib.__version__, "loadavg": open("/proc/loadavg").read().split()[:3],
    }))


if __name__ == "__main__":
    main()
