#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/articles.sh — published vs predicted for every quantitative result
# of the four founding articles (seeds 000, 001, 002, 004), from the
# calibration profiles shipped in profiles/calibrations/ (issue 15).
#
# article-NNN-steps.tsv adds inflection steps (one cell over another) and
# article-NNN-table6.tsv the best page size against 4K per object size
# (seed 000's Table 6, req/s gain and response-time reduction). For seed
# 000 it also fits a calibration on every cell of the 4 and 30 KB rows
# and checks the held-out 10 KB row (+-8 %) and the steps (+-4 points)
# with it (issue 27); the shipped calibration's steps are printed for
# reference.
#
# For each row of bench/articles_data/article-NNN.tsv (the cell, its
# published value, the commands that express it, its role: fit = one of the
# figures the calibration was fitted to, check = predicted, never fitted,
# not-expressible = a condition the model cannot state) it generates the
# trace, runs `pagetune simulate ... --clients N --calibration article-NNN`
# and prints the published value, the prediction, the error and whether it
# lies in issue 15's acceptance range. A row with perf_overrides runs with a
# copy of the calibration whose named costs are replaced (e.g. seed 004's
# second proxy CPU, front_cpus=2).
#
# --timing also measures what the model adds to a simulate run (CPU time of
# `simulate` with and without --clients, the seed 000 acceptance command on
# a 1,000,000-request trace, min of 5 runs each).
#
# --quick runs every row on traces of 5,000 requests (--requests of each
# workload line replaced): the figures are not the published comparison,
# only proof that every row still runs to the end (tests/cli
# articles_sh_quick, issue 27).
#
# Usage: bench/articles.sh [--timing] [--quick] [BUILD_DIR]   (default: build)
# Needs python3. Exit status: 0, or 1 when a fit or check row misses its
# range (the misses are listed and explained in docs/models.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
timing=0
quick=0
while [ $# -gt 0 ]; do
    case $1 in
    --timing) timing=1; shift ;;
    --quick) quick=1; shift ;;
    *) break ;;
    esac
done
build=${1:-$root/build}
PAGETUNE=$(cd "$build" && pwd)/pagetune
[ -x "$PAGETUNE" ] || { echo "articles.sh: no binary $PAGETUNE" >&2; exit 2; }
export PAGETUNE_DATA_DIR=$root
work=$(mktemp -d /tmp/pagetune-articles.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 - "$PAGETUNE" "$root" "$work" "$timing" "$quick" <<'PY'
import csv, json, os, re, resource, shlex, subprocess, sys

pagetune, root, work, timing = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
quick = sys.argv[5] == "1"
data = os.path.join(root, "bench", "articles_data")


def run(args):
    p = subprocess.run(args, cwd=work, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("articles.sh: %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


def cmd(line):
    a = shlex.split(line)
    if a[0] != "pagetune":
        sys.exit("articles.sh: not a pagetune command: " + line)
    return [pagetune] + a[1:]


traces = {}


def trace(line):
    """Run the workload line once; its -o names the trace."""
    if line not in traces:
        a = cmd(line)
        if quick and "--requests" in a:
            a[a.index("--requests") + 1] = "5000"
        run(a + ["-q", "--force"])
        traces[line] = a[a.index("-o") + 1]
    return traces[line]


def calibration(name, overrides):
    """The shipped profile, or a copy with perf: costs replaced."""
    src = os.path.join(root, "profiles", "calibrations", name + ".yaml")
    if overrides in ("", "-"):
        return src
    text = open(src).read()
    for kv in overrides.split(","):
        k, v = kv.split("=")
        text, n = re.subn(r"(?m)^(  %s: ).*$" % re.escape(k), r"\g<1>" + v, text)
        if n != 1:
            sys.exit("articles.sh: %s has no perf.%s" % (name, k))
    dst = os.path.join(work, "%s-%s.yaml" % (name, re.sub(r"\W", "_", overrides)))
    open(dst, "w").write(text)
    return dst


sims = {}


def predicted(name, row, cal=None):
    """The row's prediction under the shipped calibration (with the row's
    overrides), or under the calibration file cal."""
    cal = cal or calibration(name, row["perf_overrides"])
    key = (row["trace"], row["simulate"], row["clients"], cal)
    if key not in sims:
        t = trace(row["trace"])
        out = run(cmd(row["simulate"]) + ["--trace", t, "--clients", row["clients"],
                  "--calibration", cal, "-q"])
        sims[key] = json.loads(out)["results"]
    return sims[key][int(row["result"])]["predicted"]


def step_ratio(by_cell, st, cal=None, name="article-000"):
    """(published, predicted) req/s of a step's cell over the one below."""
    hi, lo = by_cell[st["cell"]], by_cell[st["over"]]
    return (float(hi["published"]) / float(lo["published"]),
            predicted(name, hi, cal)["req_per_s"] / predicted(name, lo, cal)["req_per_s"])


def number(s):
    try:
        return float(s)
    except ValueError:
        return None


# Issue 27's cross-validation of seed 000: a calibration fitted on every
# cell of the 4 and 30 KB rows predicts the held-out 10 KB row (each cell
# +-8 %) and the inflection steps (+-4 points). Free: the fixed CPU, the
# collector's term, and the out-of-row cost per access and per KB it reads
# (docs/models.md, "The seed 000 steps"). Each point's response time is
# Little's law on its own req/s (R = N / X): the published ones add no
# independent check (N came from the same tables) and, with N fixed, pull
# the fit off req/s, which is what is predicted.
ROWS_FREE = ("app_cpu_fixed_ms:0.001:30,fscache_req_ms:0.001:30,"
             "app_gc_per_kb2_ms:0.0001:1,fscache_per_kb_ms:0:1")


def held_out(name, rows, by_cell, steps, seed):
    fit = [r for r in rows if r["role"] != "not-expressible"
           and (", 4 KB object, " in r["cell"] or ", 30 KB object, " in r["cell"])]
    counts = {}
    for r in rows:
        t = trace(r["trace"])
        if t not in counts:
            counts[t] = os.path.join(work, "counts-%d.json" % len(counts))
            run(cmd(r["simulate"]) + ["--trace", t, "-q", "-o", counts[t]])
    pts = os.path.join(work, "rows-4-30-kb.csv")
    with open(pts, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["label", "trace", "page_size", "clients", "think_ms", "req_per_s", "response_ms"])
        for r in fit:
            page = r["cell"].rsplit(", ", 1)[1].replace(" page", "")
            w.writerow([r["cell"], trace(r["trace"]), page, r["clients"], 0, r["published"],
                        "%.4f" % (1000 * float(r["clients"]) / float(r["published"]))])
    cal = os.path.join(work, "article-000-rows.yaml")
    args = [pagetune, "calibrate", "--points", pts]
    for c in counts.values():
        args += ["--simulation", c]
    args += ["--calibration", calibration(name, "-"), "--fscache-share", "1", "--free", ROWS_FREE,
             "-o", cal, "-q"] + (["--force"] if quick else [])
    run(args)
    text = open(cal).read()
    costs = ", ".join("%s %s" % (k, re.search(r"(?m)^  %s: (\S+)" % k, text).group(1))
                      for k in ("app_cpu_fixed_ms", "fscache_req_ms", "app_gc_per_kb2_ms", "fscache_per_kb_ms"))
    print("\n-- seed 000 held out: calibrated on the %d cells of the 4 and 30 KB rows (%s) --" % (len(fit), costs))
    for r in rows:
        if ", 10 KB object, " in r["cell"]:
            x = predicted(name, r, cal)["req_per_s"]
            err, ok = check(x, "+-8 %", float(r["published"]))
            show(r["cell"] + " req/s", "held", r["published"], "%.2f" % x, err, "+-8 %", ok, seed)
    for st in steps:
        pub, value = step_ratio(by_cell, st, cal, name)
        e = 100 * (value - pub)
        show(st["step"], "check" if "10 KB" not in st["step"] else "held", "%+.1f %%" % (100 * (pub - 1)),
             "%+.1f %%" % (100 * (value - 1)), "%+.1f pt" % e, "+-%s pt" % st["accept_points"],
             abs(e) <= float(st["accept_points"]), seed)


# issue 15's tolerance for a published response time (the TSVs' notes)
RESPONSE_ACCEPT_PCT = 12.0
FMT = "%-46s %-6s %10s %10s %9s  %-14s %s"


def check(value, accept, pub):
    """(error text, ok or None) of a predicted value against its accept:
    '+-N %' is relative to the published value, 'lo..hi' a range of the
    value itself (a ratio), '-' none."""
    m = re.match(r"\+-\s*([0-9.]+)\s*%$", accept)
    if m and pub:
        e = 100 * (value / pub - 1)
        return "%+.1f %%" % e, abs(e) <= float(m.group(1))
    if accept in ("", "-"):
        return ("%+.1f pt" % (100 * (value - pub)) if pub is not None else "-"), None
    lo, hi = accept.split("..")
    err = "%+.1f pt" % (100 * (value - pub)) if pub is not None else "-"
    return err, float(lo) <= value <= (float("inf") if hi == "inf" else float(hi))


def table_rows(path):
    lines = [l for l in open(path) if not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


misses = []


def show(cell, role, published, shown, err, accept, ok, seed):
    verdict = "-" if ok is None else ("ok" if ok else "MISS")
    if ok is False:
        misses.append("%s %s" % (seed, cell))
    print(FMT % (cell[:46], role, published, shown, err, accept, verdict))


for seed in ("000", "001", "002", "004"):
    path = os.path.join(data, "article-%s.tsv" % seed)
    name = "article-" + seed
    rows = table_rows(path)
    by_cell = {r["cell"]: r for r in rows}
    print("\n== seed %s (profiles/calibrations/%s.yaml; %s) ==" % (seed, name, os.path.relpath(path, root)))
    print(FMT % ("cell", "role", "published", "predicted", "error", "accept", "verdict"))
    for r in rows:
        if r["role"] == "not-expressible":
            print(FMT % (r["cell"][:46], "n/e", "-", "-", "-", "-", "not expressible: " + r["note"]))
            continue
        p = predicted(name, r)
        pub = number(r["published"])
        if r["relative_to"] not in ("", "-"):
            ref = predicted(name, by_cell[r["relative_to"]])
            value = p["req_per_s"] / ref["req_per_s"]
            err, ok = check(value, r["accept"], pub)
            show(r["cell"], r["role"], r["published"], "%.3f" % value, err, r["accept"], ok, seed)
        elif r["accept"] in ("", "-"):
            # a ratio article's reference row: its published value is the
            # normaliser (e.g. no caching = 1.00), not a rate
            show(r["cell"], r["role"], r["published"], "%.2f" % p["req_per_s"], "-", "-", None, seed)
        else:
            err, ok = check(p["req_per_s"], r["accept"], pub)
            show(r["cell"] + " req/s", r["role"], r["published"], "%.2f" % p["req_per_s"], err, r["accept"], ok, seed)
        pr = number(r.get("published_response_ms") or "-")
        if pr is not None:
            acc = "+-%g %%" % RESPONSE_ACCEPT_PCT
            err, ok = check(p["response_ms"], acc, pr)
            show(r["cell"] + " response ms", r["role"], r.get("published_response_ms"), "%.1f" % p["response_ms"], err, acc, ok, seed)
    steps = os.path.join(data, "article-%s-steps.tsv" % seed)
    if os.path.exists(steps):
        # the shipped calibration's steps, for reference: it is fitted for
        # Table 6, and its accept is the row-fitted one's (below)
        for st in table_rows(steps):
            pub, value = step_ratio(by_cell, st, None, name)
            show(st["step"], "info", "%+.1f %%" % (100 * (pub - 1)), "%+.1f %%" % (100 * (value - 1)),
                 "%+.1f pt" % (100 * (value - pub)), "-", None, seed)
    table6 = os.path.join(data, "article-%s-table6.tsv" % seed)
    if os.path.exists(table6):
        for t6 in table_rows(table6):
            cells = [c for c in by_cell if ", %s, " % t6["object"] in c and by_cell[c]["role"] != "not-expressible"]
            best = max(cells, key=lambda c: predicted(name, by_cell[c])["req_per_s"])
            b, o = predicted(name, by_cell[best]), predicted(name, by_cell[t6["over"]])
            acc = float(t6["accept_points"])
            page = best.rsplit(", ", 1)[1]
            for what, pub, value in (
                    ("req/s", float(t6["req_per_s_pct"]), 100 * (b["req_per_s"] / o["req_per_s"] - 1)),
                    ("response", float(t6["response_pct"]), 100 * (1 - b["response_ms"] / o["response_ms"]))):
                e = value - pub
                show("Table 6, %s, best (%s) vs 4K %s" % (t6["object"].replace(" object", ""), page.replace(" page", ""), what),
                     "check", "%+.0f %%" % pub, "%+.1f %%" % value, "%+.1f pt" % e, "+-%g pt" % acc, abs(e) <= acc, seed)
    if os.path.exists(steps):
        held_out(name, rows, by_cell, table_rows(steps), seed)

if timing:
    a = cmd("pagetune workload --profile article-30k --requests 1000000 -o timing.csv")
    run(a + ["-q", "--force"])
    base = cmd("pagetune simulate -t timing.csv --engine db2 --page-size 4K,8K,16K,32K --bufferpool 250 --json -q")
    model = base + ["--clients", "40", "--calibration", calibration("article-000", "-")]

    def cpu(args):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        run(args)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime

    tb, tm = [], []
    for _ in range(5):
        tb.append(cpu(base))
        tm.append(cpu(model))
    print("\nmodel cost: simulate %.1f ms CPU, with --clients 40 --calibration %.1f ms: ratio %.3f (min of 5)"
          % (1e3 * min(tb), 1e3 * min(tm), min(tm) / min(tb)))

if misses and quick:
    print("\nquick mode (5,000-request traces): %d rows off their range, not a verdict" % len(misses))
    print("articles.sh: all rows ran")
    sys.exit(0)
if misses:
    print("\nmissed (docs/models.md#performance-model says why): " + "; ".join(misses))
    sys.exit(1)
print("articles.sh: all rows ran")
PY
