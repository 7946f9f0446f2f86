#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""json_diff.py — compare two JSON documents as pagetune prints them.

Usage: json_diff.py A.json B.json [--ignore KEY ...] [--digits N]

Keys named with --ignore (at any depth; "a.b" names a path suffix,
"/a.b" the path from the root) are skipped: timings, timestamps, temporary paths. Numbers are compared up to
the last digit pagetune prints (JSON_REAL_PRECISION(10) in core/json.c:
10 significant digits), so a value that passed in-process instead of
through text compares equal. Prints one line per difference and exits 1
if there is any, 0 otherwise.
"""
import json
import math
import sys


def rounded(x, digits):
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.{digits - 1}e}")


def same_num(a, b, digits):
    if rounded(a, digits) == rounded(b, digits):
        return True
    # a value one unit in the last printed digit apart (rounding of a
    # value printed, then read back and computed on)
    scale = max(abs(a), abs(b))
    return abs(a - b) <= scale * 10 ** (1 - digits)


def ignored(path, ignore):
    dotted = ".".join(str(p) for p in path if not isinstance(p, int))
    return any(dotted == k[1:] if k.startswith("/") else
               dotted == k or dotted.endswith("." + k) for k in ignore)


def diff(a, b, path, ignore, digits, out):
    if ignored(path, ignore):
        return
    where = "/".join(str(p) for p in path) or "(root)"
    num = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        if a is not b:
            out.append(f"{where}: {a!r} != {b!r}")
    elif isinstance(a, num) and isinstance(b, num):
        if type(a) is not type(b):
            out.append(f"{where}: type {type(a).__name__} != "
                       f"{type(b).__name__} ({a!r}, {b!r})")
        elif not same_num(a, b, digits):
            out.append(f"{where}: {a!r} != {b!r}")
    elif isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            out.append(f"{where}: keys {list(a)} != {list(b)}")
        for k in a:
            if k in b:
                diff(a[k], b[k], path + [k], ignore, digits, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: {len(a)} items != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, path + [i], ignore, digits, out)
    elif a != b:
        out.append(f"{where}: {a!r} != {b!r}")


def main(argv):
    args, ignore, digits = [], [], 10
    it = iter(argv[1:])
    for x in it:
        if x == "--ignore":
            ignore.append(next(it))
        elif x == "--digits":
            digits = int(next(it))
        else:
            args.append(x)
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0]) as f:
        a = json.load(f)
    with open(args[1]) as f:
        b = json.load(f)
    out = []
    diff(a, b, [], ignore, digits, out)
    for line in out:
        print(line)
    if not out:
        print(f"{args[0]} and {args[1]}: identical "
              f"(ignoring {', '.join(ignore) or 'nothing'})")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
