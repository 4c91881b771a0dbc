#!/usr/bin/python3
"""Runs two or more benchmark commands in turn, several rounds, and prints their ratios.

    scripts/bench_alternate.py --rounds 3 \\
        --run 'ours=build/ci/app/attention-explorer bench --model /work/models/qwen05-f32 --tokens 1024 --repeat 3' \\
        --run 'torch=/usr/bin/python3 scripts/bench_llama_torch.py /work/models/qwen05-f32 --tokens 1024 --repeat 3'

On a shared, loaded machine a figure measured at one time cannot be compared
with one measured at another: the load moves. So the commands run one after
the other in each round (ABBA order from one round to the next, so neither
always runs first), and what is compared is the ratio within each round.
Each command must print one JSON line (the last line of its output that
parses) holding the --field asked for (default median_ms); a figure not
in the JSON is reported missing. llama-bench's JSON lines (-o jsonl) are
read too: median_ms and min_ms come from its samples_ns.

Prints a line of JSON per run (name, round, the fields, the 1-minute load
before it), then a Markdown table: each round's figures and the ratio of
every command to the first, and the median over the rounds.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run(command):
    started = time.time()
    done = subprocess.run(shlex.split(command), capture_output=True, text=True)
    wall = time.time() - started
    result = None
    for line in reversed(done.stdout.splitlines()):
        try:
            result = json.loads(line)
            break
        except ValueError:
            continue
    if result is not None and "samples_ns" in result and "median_ms" not in result:
        # llama-bench -o jsonl: its repetitions in nanoseconds.
        result["median_ms"] = statistics.median(result["samples_ns"]) / 1e6
        result["min_ms"] = min(result["samples_ns"]) / 1e6
    if done.returncode != 0 or result is None:
        sys.stderr.write(f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}\n")
        return None, wall
    return result, wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="append", required=True, metavar="NAME=COMMAND")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--field", action="append", help="JSON fields to report (default median_ms)")
    args = parser.parse_args()
    fields = args.field or ["median_ms"]
    commands = []
    for item in args.run:
        name, _, command = item.partition("=")
        if not command:
            parser.error(f"--run {item}: expected NAME=COMMAND")
        commands.append((name, command))

    figures = {name: {f: [] for f in fields} for name, _ in commands}
    loads = []
    for r in range(args.rounds):
        order = commands if r % 2 == 0 else list(reversed(commands))
        for name, command in order:
            load = load_average()
            loads.append(load)
            result, wall = run(command)
            row = {"name": name, "round": r + 1, "load_1min": load, "wall_s": round(wall, 1)}
            for f in fields:
                value = result.get(f) if result else None
                row[f] = value
                figures[name][f].append(value)
            print(json.dumps(row), flush=True)

    first = commands[0][0]
    print()
    print(f"{time.strftime('%Y-%m-%d %H:%M')} on {os.uname().nodename}, {args.rounds} rounds, "
          f"1-minute load {min(loads):.1f}-{max(loads):.1f}")
    print()
    for f in fields:
        print(f"| {f} | " + " | ".join(f"round {r + 1}" for r in range(args.rounds)) + " | median |")
        print("|---|" + "---|" * (args.rounds + 1))
        for name, _ in commands:
            values = figures[name][f]
            known = [v for v in values if v is not None]
            cells = [f"{v:.1f}" if v is not None else "-" for v in values]
            median = f"{statistics.median(known):.1f}" if known else "-"
            print(f"| {name} | " + " | ".join(cells) + f" | {median} |")
        for name, _ in commands[1:]:
            ratios = [b / a if a and b else None for a, b in zip(figures[name][f], figures[first][f])]
            known = [x for x in ratios if x is not None]
            cells = [f"{x:.2f}" if x is not None else "-" for x in ratios]
            median = f"{statistics.median(known):.2f}" if known else "-"
            print(f"| {first} / {name} | " + " | ".join(cells) + f" | {median} |")
        print()


if __name__ == "__main__":
    main()
