#!/usr/bin/env python3
# report_layout.py — lays report.html out in headless Chromium and checks it.
#   report_layout.py CHROMIUM REPORT.html WORKDIR
# For each view (390 px, 1400 px and the page's A4 print layout) it loads a
# COPY of the page with a small measuring script appended (report.html
# itself ships no script), reads the script's JSON back from --dump-dom and
# checks: no element wider than the viewport (nothing cut off, no sideways
# scrolling), no two chart labels overlapping, no chart label outside its
# chart, chart text not shrunk below 8 px, and the page's first heading is
# the verdict. The print view forces the page's @media print rules on a
# viewport as wide as the A4 text column its @page rule declares.
# Prints one line per problem; exit 0 when there is none, 1 otherwise.
# Used by tests/cli/test_report.sh.
import html
import json
import os
import re
import subprocess
import sys

MEASURE = r"""
<script>
(function () {
  var de = document.documentElement, vw = de.clientWidth;
  var out = {vw: vw, scroll_width: de.scrollWidth, wide: [], overlaps: [],
             outside: [], n_elements: 0, n_labels: 0, min_font_px: 1e9,
             first_heading: null};
  function name(el) {
    var s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    var c = el.getAttribute('class');
    if (c) s += '.' + c.split(/\s+/).join('.');
    return s + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  }
  function box(r) {
    return '[' + [r.left, r.top, r.right, r.bottom].map(function (v) {
      return v.toFixed(1); }).join(',') + ']';
  }
  var all = document.body.getElementsByTagName('*');
  for (var i = 0; i < all.length; i++) {
    var r = all[i].getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    out.n_elements++;
    if (r.left < -0.5 || r.right > vw + 0.5)
      out.wide.push(name(all[i]) + ' ' + box(r) + ' viewport ' + vw);
    /* content hidden behind a scroll bar (or clipped) is cut off too */
    if (all[i].scrollWidth > all[i].clientWidth + 1 &&
        all[i].clientWidth > 0 &&
        getComputedStyle(all[i]).overflowX !== 'visible')
      out.wide.push(name(all[i]) + ' scrolls: ' + all[i].scrollWidth +
                    ' px of content in ' + all[i].clientWidth + ' px');
  }
  var svgs = document.getElementsByTagName('svg');
  for (var s = 0; s < svgs.length; s++) {
    var sr = svgs[s].getBoundingClientRect();
    var ts = svgs[s].getElementsByTagName('text'), rs = [];
    for (var j = 0; j < ts.length; j++) {
      var tr = ts[j].getBoundingClientRect();
      var m = ts[j].getScreenCTM();  /* scale, rotation included */
      var px = parseFloat(getComputedStyle(ts[j]).fontSize) *
               Math.sqrt(m.a * m.a + m.b * m.b);
      out.n_labels++;
      if (px < out.min_font_px) {
        out.min_font_px = px;
        out.min_font_el = name(ts[j]);
      }
      if (tr.left < sr.left - 0.5 || tr.right > sr.right + 0.5 ||
          tr.top < sr.top - 0.5 || tr.bottom > sr.bottom + 0.5)
        out.outside.push(name(ts[j]) + ' ' + box(tr) + ' chart ' + box(sr));
      for (var k = 0; k < rs.length; k++) {
        var o = rs[k];
        var w = Math.min(tr.right, o.r.right) - Math.max(tr.left, o.r.left);
        var h = Math.min(tr.bottom, o.r.bottom) - Math.max(tr.top, o.r.top);
        if (w > 0.5 && h > 0.5)
          out.overlaps.push(name(ts[j]) + ' ' + box(tr) + ' overlaps ' +
                            name(o.el) + ' ' + box(o.r));
      }
      rs.push({el: ts[j], r: tr});
    }
  }
  var h = document.querySelector('h1,h2,h3,h4,h5,h6');
  if (h)
    out.first_heading = {tag: h.tagName.toLowerCase(), id: h.id,
                         verdict: h.getAttribute('data-verdict'),
                         text: h.textContent.trim()};
  var doc = parent.document;  /* the wrapper, which --dump-dom prints */
  var pre = doc.createElement('pre');
  pre.id = 'pt-check';
  pre.textContent = JSON.stringify(out);
  doc.body.appendChild(pre);
})();
</script>
"""

# Headless Chromium's window is at least 500 px wide, so each view is an
# iframe of exactly the view's width (a srcdoc frame's document takes the
# origin of the document that contains it — HTML Living Standard, "the
# iframe element", srcdoc — so the script can hand its result up). The frame is tall enough
# for the whole page: no scrollbar narrows it, as on a phone.
WRAPPER = ('<!DOCTYPE html><html><body style="margin:0">'
           '<iframe style="display:block;border:0;width:%dpx;height:60000px" '
           'srcdoc="%s"></iframe></body></html>')

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
VERDICTS = {"confirms", "contradicts", "inconclusive", "not validated", "none"}
MM_PER_IN, CSS_PX_PER_IN = 25.4, 96.0


def a4_text_width_px(page):
    """The A4 text column (CSS px) of the page's @page rule, or None."""
    m = re.search(r"@page\s*\{([^}]*)\}", page)
    if not m or not re.search(r"size\s*:\s*A4", m.group(1)):
        return None
    mm = re.search(r"margin\s*:\s*([\d.]+)mm", m.group(1))
    margin = float(mm.group(1)) if mm else 0.0
    return int((210.0 - 2 * margin) / MM_PER_IN * CSS_PX_PER_IN)


def measure(chromium, path, width, work):
    cmd = [chromium] + CHROMIUM_FLAGS + [
           "--user-data-dir=" + os.path.join(work, "profile"),
           "--window-size=%d,2000" % max(width, 500), "--dump-dom",
           "file://" + os.path.abspath(path)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       timeout=60)
    m = re.search(r'<pre id="pt-check">(.*?)</pre>', p.stdout.decode(), re.S)
    if not m:
        return None
    return json.loads(html.unescape(m.group(1)))


def check(view, res, problems):
    def bad(msg):
        problems.append("%s: %s" % (view, msg))

    if res is None:
        bad("the measuring script left no result (chromium failed?)")
        return
    if res["n_elements"] < 50 or res["n_labels"] < 10:
        bad("too little measured (%d elements, %d chart labels)"
            % (res["n_elements"], res["n_labels"]))
    if res["scroll_width"] > res["vw"]:
        bad("page scrolls sideways: %d px wide in a %d px viewport"
            % (res["scroll_width"], res["vw"]))
    for w in res["wide"]:
        bad("wider than the page: " + w)
    for o in res["overlaps"]:
        bad("chart labels overlap: " + o)
    for o in res["outside"]:
        bad("chart label outside its chart: " + o)
    if res["min_font_px"] < 8:
        bad("chart text shrinks to %.1f px: %s"
            % (res["min_font_px"], res.get("min_font_el")))
    h = res["first_heading"]
    if not h or h["id"] != "verdict" or h["verdict"] not in VERDICTS:
        bad("first heading is not the verdict: %s" % json.dumps(h))
    elif h["verdict"] != "none" and h["verdict"] not in h["text"]:
        bad("verdict word '%s' not shown in: %s" % (h["verdict"], h["text"]))


def main():
    if len(sys.argv) != 4:
        print("usage: report_layout.py CHROMIUM REPORT.html WORKDIR",
              file=sys.stderr)
        return 64
    chromium, report, work = sys.argv[1:]
    page = open(report, encoding="utf-8").read()
    problems = []
    if "</body>" not in page:
        print("%s: no </body>" % report)
        return 1
    views = [("390px", 390, page), ("1400px", 1400, page)]
    a4 = a4_text_width_px(page)
    if a4 is None:
        problems.append("print: no '@page{size:A4; margin:…mm}' rule")
    elif "@media print" not in page:
        problems.append("print: no @media print rules")
    else:
        views.append(("A4 print", a4, page.replace("@media print",
                                                   "@media all")))
    for view, width, text in views:
        copy = os.path.join(work, "check-%d.html" % width)
        with open(copy, "w", encoding="utf-8") as f:
            f.write(WRAPPER % (width, html.escape(
                text.replace("</body>", MEASURE + "</body>", 1), quote=True)))
        res = measure(chromium, copy, width, work)
        check(view, res, problems)
        if res is not None:
            print("%s: viewport %d px, %d elements, %d chart labels, chart "
                  "text >= %.1f px, first heading: %s"
                  % (view, res["vw"], res["n_elements"], res["n_labels"],
                     res["min_font_px"],
                     (res["first_heading"] or {}).get("text", "")[:60]))
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
