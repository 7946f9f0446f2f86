#!/usr/bin/env python3
# report_facts.py — one figure per fact (issue 31, point 3): reads the
# report.html, the terminal summary (stdout) and the progress lines
# (stderr) of one `pagetune advise` run and the documents it left in its
# out-dir, and checks that each fact of the advice is written one way
# everywhere:
#   report_facts.py OUT_DIR SUMMARY.txt PROGRESS.txt [--no-pool-names]
# Facts (report.html marks every place it shows one with
# <span class="fact" data-fact="KEY">, report/report.c):
#   page-size-current, page-size-recommended   "4K", "16K"
#   pool-current, pool-recommended            "1,000 pages of 16K (15.6M)"
#   predicted-change, predicted-response-change "+0.1 %" / "+12.0 % [+4.0, +21.0]"
#   measured-change                           "+166.5 % [+116.7, +216.3]"
# Checks:
# - in report.html every span of a key has the same text, and each text is
#   what the out-dir's own documents give, formatted as docs/formats.md
#   (#figures) says: recommendation.json (recommended page size and pool),
#   monitor.json (the current ones), replay.json (the measured change of
#   the recommended page size, vs_first) and simulation.json (the predicted
#   change of requests/s and response time);
# - the visible text of the page (outside the DDL files it quotes), the
#   summary and the progress lines: every pool written "N pages of PK (M)"
#   (or "currently N pages", "buffer pool [of|NAME:] N pages") is one of
#   the two pool facts, every "measured X" is the measured
#   change, every "uncalibrated model X" the predicted one; no page size
#   in bytes ("page size 4096"), no "16000K of buffer pool", no doubled
#   verdict word ("confirms confirms");
# - the summary's rows and the progress lines say the same figures: its
#   page size, buffer pool, current buffer pool, predicted change, verdict
#   and drift rows, the simulation's and the replay's progress lines;
# - --no-pool-names: an engine without named buffer pools (SQLite,
#   PostgreSQL, MariaDB): no DB2 pool name (SESSBP...) anywhere.
# Prints the facts; one line per problem; exit 0 when there is none.
# Used by tests/cli/test_report_facts.sh.
import html.parser
import json
import os
import re
import sys

POOL_RE = re.compile(r"[0-9][0-9,]* pages? of [0-9]+(?:K| B) \([0-9.]+[KMGT]?\)")
CHANGE = r"[+-][0-9]+\.[0-9] %(?: \[[+-][0-9]+\.[0-9], [+-][0-9]+\.[0-9]\])?"


# ---- core's figures (core/figure.c), written again from their spec -------

def size_format(b):
    """pt_size_format: "8K", "64M", "1.5G", "1234"."""
    if (b < 1024 or b % 1024) and b < 10240:
        return str(b)
    v, u = float(b), -1
    while v >= 1024 and u < 3:
        v /= 1024
        u += 1
    if v == int(v):
        return "%d%s" % (int(v), "KMGT"[u])
    return "%.1f%s" % (v, "KMGT"[u])


def fig_page(b):
    return "%dK" % (b // 1024) if b >= 1024 and b % 1024 == 0 else "%d B" % b


def fig_pool(pages, ps):
    return "%s page%s of %s (%s)" % ("{:,}".format(pages),
                                     "" if pages == 1 else "s", fig_page(ps),
                                     size_format(pages * ps))


def fig_pct(p):
    return "%+.1f" % (0.0 if abs(p) < 0.05 else p)


def fig_change(p, lo=None, hi=None):
    s = fig_pct(p) + " %"
    if lo is not None and hi is not None:
        s += " [%s, %s]" % (fig_pct(lo), fig_pct(hi))
    return s


# ---- the page -------------------------------------------------------------

class Page(html.parser.HTMLParser):
    """The visible text (style and the quoted DDL files left out), the fact
    spans, the verdict heading and the drift table's value cells."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.facts, self.h1, self.drift_cells = [], {}, "", []
        self.skip = 0
        self.fact = None  # [key, text] of the open span
        self.in_h1 = self.in_drift = False
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("style", "pre", "title"):
            self.skip += 1
        if tag == "span" and a.get("class") == "fact":
            self.fact = [a.get("data-fact", ""), ""]
        if tag == "h1":
            self.in_h1 = True
        if tag == "table" and a.get("id") == "drift-items":
            self.in_drift = True
        if tag == "td" and self.in_drift and a.get("data-label"):
            self.cell = {"facts": 0, "text": ""}
        if tag == "span" and self.cell is not None and a.get("class") == "fact":
            self.cell["facts"] += 1
        if tag in ("p", "li", "div", "td", "th", "h1", "h2", "tr", "text"):
            self.text.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "pre", "title"):
            self.skip -= 1
        if tag == "span" and self.fact:
            self.facts.setdefault(self.fact[0], []).append(self.fact[1])
            self.fact = None
        if tag == "h1":
            self.in_h1 = False
        if tag == "table":
            self.in_drift = False
        if tag == "td" and self.cell is not None:
            self.drift_cells.append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.skip:
            return
        self.text.append(data)
        if self.fact:
            self.fact[1] += data
        if self.in_h1:
            self.h1 += data
        if self.cell is not None:
            self.cell["text"] += data


def summary_rows(path):
    """The terminal table: {item: value}, wrapped lines joined."""
    rows, cur = {}, None
    lines = open(path, encoding="utf-8").read().splitlines()
    body = False
    for ln in lines:
        if not body:
            body = ln.startswith("---")
            continue
        if ln and not ln[0].isspace():
            m = re.match(r"(\S.*?)\s{2,}(.*)$", ln)
            if not m:
                cur = None
                continue
            cur = m.group(1)
            rows[cur] = m.group(2).strip()
        elif cur:
            rows[cur] += " " + ln.strip()
    return rows


def expected(out_dir, problems):
    """Each fact as the out-dir's documents give it, formatted."""
    def load(name):
        try:
            with open(os.path.join(out_dir, name), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            problems.append("%s: %s" % (name, e))
            return {}
    rec, mon = load("recommendation.json"), load("monitor.json")
    want = {}
    rps = rec.get("page_size")
    bp = rec.get("bufferpool") or {}
    if rps:
        want["page-size-recommended"] = fig_page(rps)
        if bp.get("pages"):
            want["pool-recommended"] = fig_pool(bp["pages"], rps)
    cur = mon.get("current") or {}
    if cur.get("page_size"):
        want["page-size-current"] = fig_page(cur["page_size"])
        if cur.get("bufferpool_pages"):
            want["pool-current"] = fig_pool(cur["bufferpool_pages"],
                                            cur["page_size"])
    if os.path.exists(os.path.join(out_dir, "replay.json")):
        for r in load("replay.json").get("results", []):
            v = r.get("vs_first")
            if r.get("page_size") == rps and v:
                want["measured-change"] = fig_change(
                    v["mean"] * 100, v["lo"] * 100, v["hi"] * 100)
                # a change of none keeps "none" in the table (advise/model.c)
                if abs(v["mean"]) < 0.0005:
                    want["measured-change-none"] = True
    # the store model's prediction of the replay (issue 25): the change
    # advise kept in recommendation.json's validation, with its range
    pv = ((load("recommendation.json").get("validation") or {})
          .get("predicted") or {})
    if pv.get("calibrated") and pv.get("req_per_s_change_pct"):
        r, t = pv["req_per_s_change_pct"], pv["response_ms_change_pct"]
        want["predicted-change"] = fig_change(r["mean"], r["lo"], r["hi"])
        want["predicted-response-change"] = fig_change(
            t["mean"], t["lo"], t["hi"])
    elif os.path.exists(os.path.join(out_dir, "simulation.json")):
        rows = load("simulation.json").get("results", [])
        cps = cur.get("page_size")
        if len(rows) == 2 and cps != rps:
            by = {r.get("page_size"): r.get("predicted") or {} for r in rows}
            x, y = by.get(cps) or {}, by.get(rps) or {}
            if x.get("req_per_s") and y.get("req_per_s") and not x.get("range"):
                want["predicted-change"] = fig_change(
                    (y["req_per_s"] / x["req_per_s"] - 1) * 100)
                want["predicted-response-change"] = fig_change(
                    (y["response_ms"] / x["response_ms"] - 1) * 100)
    return want


def main(argv):
    if len(argv) < 4:
        print("usage: report_facts.py OUT_DIR SUMMARY.txt PROGRESS.txt "
              "[--no-pool-names]", file=sys.stderr)
        return 2
    out_dir, summary, progress = argv[1:4]
    no_names = "--no-pool-names" in argv[4:]
    problems = []
    page = Page()
    page.feed(open(os.path.join(out_dir, "report.html"), encoding="utf-8").read())
    text = "".join(page.text)
    terminal = open(summary, encoding="utf-8").read()
    notes = open(progress, encoding="utf-8").read()
    rows = summary_rows(summary)
    want = expected(out_dir, problems)

    # 1. report.html: one text per fact, the documents' figure
    facts = {}
    for key, texts in sorted(page.facts.items()):
        if len(set(texts)) != 1:
            problems.append("report: fact %s is written %d ways: %s"
                            % (key, len(set(texts)), sorted(set(texts))))
        facts[key] = texts[0]
        print("%s: %s (%d times)" % (key, texts[0], len(texts)))
    none = want.pop("measured-change-none", False)
    for key, w in sorted(want.items()):
        if key not in facts and key == "measured-change" and none:
            facts[key] = w  # said in the verdict only
        elif key not in facts:
            problems.append("report: fact %s (%s) is not marked on the page"
                            % (key, w))
        elif facts[key] != w:
            problems.append("report: fact %s reads %r, the documents give %r"
                            % (key, facts[key], w))
    for key in ("page-size-recommended", "pool-recommended"):
        if len(page.facts.get(key, [])) < 2:
            problems.append("report: %s shown %d time(s), want the action and "
                            "its tile at least" % (key, len(page.facts.get(key, []))))
    for c in page.drift_cells:
        if c["facts"] != 1:
            problems.append("report: drift value %r is not the fact it states"
                            % c["text"].strip())

    # 2. the same figures in every text: page, summary and progress (the
    # documents' figure where the page marks none)
    facts = dict(want, **facts)
    pools = {facts.get("pool-current"), facts.get("pool-recommended")} - {None}
    for where, t in (("report", text), ("summary", terminal),
                     ("progress", notes)):
        flat = re.sub(r"\s+", " ", t)
        for m in POOL_RE.findall(flat):
            if m not in pools:
                problems.append("%s: a pool written %r, not a pool fact %s"
                                % (where, m, sorted(pools)))
        for m in re.findall(r"(?:currently|buffer pool(?: of| [A-Z]\w*:)?) "
                            r"([0-9][0-9,]* pages?\b(?: of \S+ \([^)]*\))?)",
                            flat):
            if m not in pools:
                problems.append("%s: a pool written %r, not a pool fact %s"
                                % (where, m, sorted(pools)))
        for m in re.findall(r"measured (%s)" % CHANGE, flat):
            if m != facts.get("measured-change"):
                problems.append("%s: 'measured %s', the measured change is %r"
                                % (where, m, facts.get("measured-change")))
        for m in re.findall(r"uncalibrated model (%s)" % CHANGE, flat):
            if m != facts.get("predicted-change"):
                problems.append("%s: 'uncalibrated model %s', the predicted "
                                "change is %r"
                                % (where, m, facts.get("predicted-change")))
        for pat, what in ((r"page[ _]size [0-9]{3,}\b", "a page size in bytes"),
                          (r"[0-9]+K of buffer pool", "a pool in kilobytes"),
                          (r"\b(confirms|contradicts|inconclusive)\W+\1\b",
                           "a doubled verdict word")):
            for m in re.finditer(pat, flat):
                problems.append("%s: %s: %r" % (where, what, m.group(0)))
        if no_names and "SESSBP" in flat:
            problems.append("%s: a DB2 buffer-pool name on an engine without "
                            "named pools: %r"
                            % (where, re.search(r".{0,40}SESSBP\w*", flat).group(0)))
    if re.search(r"\b(confirms|contradicts|inconclusive)\W+\1\b", page.h1):
        problems.append("report: the verdict heading doubles its word: %r"
                        % page.h1.strip())

    # 3. the summary's rows and the progress lines
    def row_has(item, needle, how="in"):
        v = rows.get(item)
        if v is None:
            problems.append("summary: no %r row" % item)
            return
        ok = (v == needle if how == "eq" else v.startswith(needle)
              if how == "start" else v.endswith(needle) if how == "end"
              else needle in v)
        if not ok:
            problems.append("summary: %r reads %r, want %s %r"
                            % (item, v, how, needle))
    if "page-size-recommended" in facts:
        row_has("recommended page size", facts["page-size-recommended"], "eq")
    if "page-size-current" in facts:
        row_has("current page size", facts["page-size-current"], "start")
    if "pool-recommended" in facts:
        row_has("buffer pool", facts["pool-recommended"], "end")
    if "pool-current" in facts:
        row_has("current buffer pool", facts["pool-current"], "start")
    if "predicted-change" in facts:
        row_has("predicted change", "requests/s %s," % facts["predicted-change"])
    if "predicted-response-change" in facts:
        row_has("predicted change",
                "response time %s " % facts["predicted-response-change"])
    if "measured-change" in facts:
        row_has("verdict", "measured %s" % facts["measured-change"])
    if facts.get("page-size-current") != facts.get("page-size-recommended"):
        row_has("drift", "page size %s in use, %s recommended"
                % (facts.get("page-size-current"),
                   facts.get("page-size-recommended")))
        sim = "validating by simulation: %s vs %s pages" % (
            facts.get("page-size-current"), facts.get("page-size-recommended"))
        line = [ln for ln in notes.splitlines() if "validating by simulation" in ln]
        if line and not (sim in line[0] and line[0].endswith(
                facts.get("pool-recommended", "?"))):
            problems.append("progress: %r, want %r ... %r"
                            % (line[0], sim, facts.get("pool-recommended")))
        line = [ln for ln in notes.splitlines() if "validating by replay" in ln]
        rep = "%s vs %s pages" % (facts.get("page-size-current"),
                                  facts.get("page-size-recommended"))
        if line and rep not in line[0]:
            problems.append("progress: %r, want %r" % (line[0], rep))
    for p in problems:
        print("PROBLEM: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
