#!/usr/bin/env python3
"""golden_mask.py — a command's output made comparable across runs.

    golden_mask.py KIND FILE TMPDIR SRCDIR  >  masked text

The temporary directory and the source tree are replaced by <T> and <SRC>;
pagetune_version becomes <version>. KIND says which values depend on the
clock or the machine and are masked as "<m>" (JSON keys, at any depth):

  exact    nothing else (recommend, simulate, ddl, calibrate, workload)
  sample   the time the sample was taken
  monitor  timestamps, window lengths, the host's memory
  replay   every timing and what follows from it (throughput, latency,
           rounds, intervals, cache hit counts, WAL and file bytes)
  advise   monitor's and replay's, plus the summary's validation figures
           that come from timings

Text (not JSON) is masked by the path substitutions only.
"""
import json
import re
import sys

MASKS = {
    "exact": r"$^",
    "sample": r"^taken_at$",
    "monitor": r"^(taken_at|first_snapshot|last_snapshot|elapsed_s|t_s|"
               r"seconds|memory_bytes)$",
    "replay": r"^(elapsed_s|ops_per_s|requests_per_s|latency_us|"
              r"latency_by_op_us|response_us|rounds_rps|vs_first|vs_first_pct|"
              r"cache_hit_ratio|cache_hits|cache_misses|wal_bytes|db_bytes|"
              r"lob_bytes|busy_retries|stopped|rounds|interval_pct|verdict|"
              r"lob_io_fallback)$",
}
MASKS["advise"] = "|".join([MASKS["sample"], MASKS["monitor"],
                            MASKS["replay"],
                            r"^(ops_change_pct|text|measured|budget_s)$"])


def mask(x, rx, parent=""):
    if isinstance(x, dict):
        # the host's memory is this machine's, in every kind
        return {k: ("<m>" if rx.search(k) or
                    (parent in ("host", "host_memory") and
                     k in ("memory_bytes", "limit_bytes"))
                    else mask(v, rx, k))
                for k, v in x.items()}
    if isinstance(x, list):
        return [mask(v, rx, parent) for v in x]
    return x


def main():
    kind, path, tmp, src = sys.argv[1:5]
    text = open(path, encoding="utf-8").read()
    text = text.replace(tmp, "<T>").replace(src, "<SRC>")
    # the host's memory (this machine's /proc/meminfo) in the reasons
    text = re.sub(r"[0-9.]+% of the host's [0-9.]+[KMGTP]?",
                  "<pct> of the host's <mem>", text)
    # advise's scratch directory ($TMPDIR/pagetune-advise.XXXXXX)
    text = re.sub(r'[^"\s]*/pagetune-advise\.[A-Za-z0-9]{6}', "<advise-tmp>",
                  text)
    try:
        doc = json.loads(text)
    except ValueError:
        sys.stdout.write(text)
        return
    if isinstance(doc, dict) and "pagetune_version" in doc:
        doc["pagetune_version"] = "<version>"
    doc = mask(doc, re.compile(MASKS[kind]))
    json.dump(doc, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
