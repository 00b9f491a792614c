#!/usr/bin/env bash
# Compares benchmark builds on a noisy machine: runs each build in turn, ROUNDS times, so
# that every round's runs share the same minutes, then prints each run's figures, each
# build's medians, and in how many rounds each build did better than the first one.
#
#   Scripts/bench-pair.sh FILTER ROUNDS BUILD_A BUILD_B [BUILD ...]
#
# FILTER is a benchmark name prefix (`sale.e2e.latency`, `gateway.authorize`); each BUILD is
# a Benchmarks executable, for example a copy of .build-release/release/Benchmarks kept
# from before a change:
#
#   swift build -c release --scratch-path .build-release --product Benchmarks
#   cp .build-release/release/Benchmarks /tmp/bench-before
#   ... change, build again ...
#   Scripts/bench-pair.sh gateway.authorize 6 /tmp/bench-before .build-release/release/Benchmarks
#
# Needs python3 for the summary. The raw JSON lines are kept in $BENCH_PAIR_OUT (default: a
# temporary file, whose path is printed).
set -euo pipefail

if [[ $# -lt 4 ]]; then
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
filter=$1
rounds=$2
shift 2
for build in "$@"; do
    [[ -x $build ]] || { echo "not an executable: $build" >&2; exit 2; }
done
out=${BENCH_PAIR_OUT:-$(mktemp -t bench-pair.XXXXXX)}
: >"$out"

for round in $(seq 1 "$rounds"); do
    index=0
    for build in "$@"; do
        echo "== $index $round $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)" >>"$out"
        "$build" "$filter" 2>/dev/null | grep '^{' >>"$out" || true
        index=$((index + 1))
    done
done

python3 - "$out" "$@" <<'PY'
import json, statistics, sys
path, builds = sys.argv[1], sys.argv[2:]
# The figure each run is judged by, lower is better, and what else to show.
runs = []  # (build index, round, {name: line})
current = None
for line in open(path):
    if line.startswith("=="):
        _, index, round_, *_ = line.split()
        current = (int(index), int(round_), {})
        runs.append(current)
    elif line.startswith("{") and current is not None:
        figure = json.loads(line)
        current[2][figure["name"]] = figure

def key_figures(figures):
    shown = {}
    for name, f in sorted(figures.items()):
        if "p99" in f:
            shown[name + " p50"] = f.get("p50", f["value"])
            shown[name + " p99"] = f["p99"]
        else:
            shown[name] = f["value"]
        for extra in ("cpu_us_per_sale", "cpu_us_per_auth", "raw_commits_per_s"):
            if extra in f:
                shown[extra] = f[extra]
    return shown

columns = []
for _, _, figures in runs:
    for name in key_figures(figures):
        if name not in columns:
            columns.append(name)
if not columns:
    sys.exit("no figures: does the filter name a benchmark?")
print("build round  " + "  ".join(columns))
per_build = {}
for index, round_, figures in runs:
    shown = key_figures(figures)
    per_build.setdefault(index, []).append((round_, shown))
    print(f"{index:5d} {round_:5d}  " + "  ".join(f"{shown.get(c, float('nan')):>{len(c)}.1f}" for c in columns))
print("\nmedians")
for index in sorted(per_build):
    values = per_build[index]
    medians = []
    for c in columns:
        xs = [s[c] for _, s in values if c in s]
        medians.append(statistics.median(xs) if xs else float("nan"))
    print(f"{index:5d} {builds[index]}")
    print("       " + "  ".join(f"{c}={m:.1f}" for c, m in zip(columns, medians)))
# Rounds in which each later build beat build 0, figure by figure (lower is better, except
# rates, where higher is).
print("\nrounds better than build 0")
base = dict(per_build.get(0, []))
for index in sorted(per_build):
    if index == 0:
        continue
    wins = []
    for c in columns:
        higher_is_better = c.endswith("throughput") or c == "raw_commits_per_s"
        pairs = [(base[r][c], s[c]) for r, s in per_build[index] if r in base and c in base[r] and c in s]
        better = sum(1 for b, x in pairs if (x > b if higher_is_better else x < b))
        wins.append(f"{c} {better}/{len(pairs)}")
    print(f"{index:5d}  " + ", ".join(wins))
print(f"\nraw lines: {path}")
PY
