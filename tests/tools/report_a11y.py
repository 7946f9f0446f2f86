#!/usr/bin/env python3
# report_a11y.py — reads report.html as a reader meets it and checks what
# the page promises (issue 31, points 5 and 8):
#   report_a11y.py REPORT.html [--action-contains TEXT]... [--all-marked]
# - Marks: every row of the current-vs-recommended table whose two values
#   are numbers carries a mark on the recommended value: "✓ better",
#   "✗ worse" or "= same"; with the row's "higher/lower is better" line the
#   mark agrees with the change column (▲ with higher is better is
#   "better", "none" is "same"); the note promises the marks only when a
#   row has one. --all-marked: every such row must have a mark and a
#   direction (advise's own output).
# - Contrast (WCAG 2.1, relative luminance and (L1 + 0.05) / (L2 + 0.05)),
#   computed from the page's own CSS and inline SVG: every text colour of
#   the style sheet against every background colour it declares >= 4.5:1
#   (1.4.3); in each chart, on its background (svg.chart's), every text
#   fill >= 4.5:1 (the page-size tags are in the palette's colours) and
#   every line, polyline and bar (its stroke, else its fill) >= 3:1
#   (1.4.11), and each legend swatch on the page >= 3:1. Grid lines
#   (class "grid") are left out: a reading aid, not needed to understand
#   the chart (the axes, ticks and labels carry the scale).
# - --action-contains TEXT: the Action box (#action) says TEXT.
# Prints a summary and one line per problem; exit 0 when there is none.
# Used by tests/cli/test_report_a11y.sh.
import html.parser
import re
import sys

TEXT_MIN, GRAPHIC_MIN = 4.5, 3.0


def luminance(hexcol):
    h = hexcol.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    lin = []
    for i in (0, 2, 4):
        c = int(h[i:i + 2], 16) / 255
        lin.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


NAMED = {"white": "#ffffff", "black": "#000000"}


def colour(value, props):
    """A CSS colour value as #rrggbb (custom properties resolved), or None
    for what is no colour (none, currentColor, transparent)."""
    v = value.strip().lower()
    m = re.fullmatch(r"var\((--[\w-]+)\)", v)
    if m:
        v = props.get(m.group(1), "")
    if v in NAMED:
        return NAMED[v]
    if re.fullmatch(r"#[0-9a-f]{3}|#[0-9a-f]{6}", v):
        return v
    return None


def css_rules(css):
    """[(selector, {property: value})], @media blocks flattened."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out = []
    for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        sel = re.sub(r"^.*@[^{]*$", "", sel.strip()).strip()
        decls = {}
        for d in body.split(";"):
            if ":" in d:
                k, v = d.split(":", 1)
                decls[k.strip().lower()] = v.strip()
        out.append((sel, decls))
    return out


def style_attr(s):
    d = {}
    for part in (s or "").split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            d[k.strip().lower()] = v.strip()
    return d


class Page(html.parser.HTMLParser):
    """The style sheet, the charts' elements, the comparison table's rows
    and the Action box's text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.css = ""
        self.in_style = False
        self.svg_depth = 0
        self.svg_items = []  # (chart index, tag, attrs)
        self.n_svg = 0
        self.swatches = []  # legend swatch border colours (raw)
        self.in_cmp = self.in_tbody = False
        self.rows = []  # [[cell text, ...], ...] with the cells' classes
        self.cell = None
        self.action_depth = 0
        self.action = ""
        self.note = ""
        self.in_note = False
        self.div_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "style":
            self.in_style = True
        if tag == "svg":
            self.svg_depth += 1
            if self.svg_depth == 1:
                self.n_svg += 1
                self.svg_class = a.get("class", "")
        elif self.svg_depth:
            self.svg_items.append((self.n_svg, tag, a))
        cls = a.get("class", "")
        if tag == "span" and "sw" in cls.split():
            self.swatches.append(style_attr(a.get("style")).get("border-color"))
        if tag == "table" and a.get("id") == "comparison":
            self.in_cmp = True
        if self.in_cmp and tag == "tbody":
            self.in_tbody = True
        if self.in_tbody and tag == "tr":
            self.rows.append([])
        if self.in_tbody and tag == "td":
            self.cell = {"text": "", "marks": [], "dir": ""}
            self.rows[-1].append(self.cell)
        if self.cell is not None and tag == "span":
            if "mk" in cls.split():
                self.cell["marks"].append(cls)
            if "dir" in cls.split():
                self.cell["in_dir"] = True
        if tag == "div":
            if self.action_depth:
                self.action_depth += 1
            elif a.get("id") == "action":
                self.action_depth = 1
        if tag == "p" and "note" in cls.split() and self.in_cmp is False:
            self.in_note = True

    def handle_endtag(self, tag):
        if tag == "style":
            self.in_style = False
        if tag == "svg":
            self.svg_depth -= 1
        if tag == "td":
            self.cell = None
        if tag == "span" and self.cell is not None:
            self.cell.pop("in_dir", None)
        if tag == "tbody" and self.in_tbody:
            self.in_tbody = False
        if tag == "table" and self.in_cmp:
            self.in_cmp = False
            self.after_cmp = True
        if tag == "div" and self.action_depth:
            self.action_depth -= 1
        if tag == "p":
            self.in_note = False

    def handle_data(self, data):
        if self.in_style:
            self.css += data
        if self.cell is not None:
            self.cell["text"] += data
            if self.cell.get("in_dir"):
                self.cell["dir"] += data
        if self.action_depth:
            self.action += data
        if self.in_note and getattr(self, "after_cmp", False) and not self.note:
            self.note = data


def check_marks(page, all_marked, problems):
    counts = {"better": 0, "worse": 0, "same": 0}
    marked = 0
    for row in page.rows:
        if len(row) < 4:
            problems.append("comparison: a row has %d cells" % len(row))
            continue
        label, first, last, change = row[0], row[1], row[-2], row[-1]
        name = label["text"].replace(label["dir"], "").strip()
        numeric = all(re.search(r"\d", c["text"]) and "\u2013" not in c["text"]
                      for c in (first, last))
        marks = [m for m in last["marks"] if m != "mk"]
        if first["marks"]:
            problems.append("comparison: '%s': the current value is marked" % name)
        if not numeric:
            if marks:
                problems.append("comparison: '%s': a mark without two values" % name)
            continue
        if not marks:
            if all_marked:
                problems.append("comparison: '%s' has no ✓/✗/same mark" % name)
            continue
        marked += 1
        kind = marks[0].split()[-1]
        want_text = {"better": "\u2713 better", "worse": "\u2717 worse",
                     "same": "same"}.get(kind)
        if not want_text or want_text not in last["text"]:
            problems.append("comparison: '%s': mark %r does not read %r"
                            % (name, kind, want_text))
            continue
        counts[kind] += 1
        d = label["dir"].strip()
        if not d:
            if all_marked:
                problems.append("comparison: '%s' does not say which way is "
                                "better" % name)
            continue
        ch = change["text"]
        up, down = "\u25b2" in ch, "\u25bc" in ch
        if kind == "same":
            ok = ch.strip() == "none"
        elif d == "higher is better":
            ok = up if kind == "better" else down
        elif d == "lower is better":
            ok = down if kind == "better" else up
        else:
            problems.append("comparison: '%s': direction %r" % (name, d))
            continue
        if not ok:
            problems.append("comparison: '%s' (%s) is marked %s but changes %r"
                            % (name, d, kind, ch.strip()))
    promise = "\u2713 better and \u2717 worse" in page.note
    if marked and not promise:
        problems.append("comparison: marks without the note explaining them")
    if promise and not marked:
        problems.append("comparison: the note promises ✓/✗ but no row has one")
    print("comparison: %d rows, %d marked (%d better, %d worse, %d same)"
          % (len(page.rows), marked, counts["better"], counts["worse"],
             counts["same"]))


def check_contrast(page, problems):
    rules = css_rules(page.css)
    props = {}
    for sel, decls in rules:
        if sel == ":root":
            props.update({k: v for k, v in decls.items() if k.startswith("--")})
    texts, backs = set(), {"#ffffff"}  # the body's background: the default
    svg_text_fill, svg_back = None, "#ffffff"
    for sel, decls in rules:
        for k, v in decls.items():
            if k == "color" and colour(v, props):
                texts.add(colour(v, props))
            if k in ("background", "background-color"):
                c = colour(v.split()[0], props)
                if c:
                    backs.add(c)
                    if sel.startswith("svg.chart"):
                        svg_back = c
            if k == "fill" and sel.startswith("svg text") and colour(v, props):
                svg_text_fill = colour(v, props)
    worst = (99, "", "")
    for t in sorted(texts):
        for b in sorted(backs):
            r = contrast(t, b)
            worst = min(worst, (r, t, b))
            if r < TEXT_MIN:
                problems.append("css: text %s on %s is %.2f:1 (< %.1f)"
                                % (t, b, r, TEXT_MIN))
    print("css: %d text colours on %d backgrounds, lowest %.2f:1 (%s on %s)"
          % (len(texts), len(backs), worst[0], worst[1], worst[2]))
    n_text = n_graphic = 0
    low_text, low_graphic = (99, ""), (99, "")
    palette = set()
    for _, tag, a in page.svg_items:
        st = style_attr(a.get("style"))
        if tag == "text":
            c = colour(st.get("fill") or a.get("fill") or svg_text_fill or "#000",
                       props)
            if c is None:
                problems.append("svg: a text without a colour")
                continue
            if "fill" in st or "fill" in a:
                palette.add(c)
            r = contrast(c, svg_back)
            n_text += 1
            low_text = min(low_text, (r, c))
            if r < TEXT_MIN:
                problems.append("svg: text in %s on %s is %.2f:1 (< %.1f)"
                                % (c, svg_back, r, TEXT_MIN))
        elif tag in ("line", "polyline", "rect", "path", "circle"):
            if "grid" in a.get("class", "").split():
                continue
            raw = st.get("stroke") or a.get("stroke")
            if not raw or raw == "none":
                raw = st.get("fill") or a.get("fill")
            c = colour(raw or "", props)
            if c is None:
                problems.append("svg: a %s with no stroke or fill colour" % tag)
                continue
            r = contrast(c, svg_back)
            n_graphic += 1
            low_graphic = min(low_graphic, (r, c))
            if r < GRAPHIC_MIN:
                problems.append("svg: a %s in %s on %s is %.2f:1 (< %.1f)"
                                % (tag, c, svg_back, r, GRAPHIC_MIN))
    for raw in page.swatches:
        c = colour(raw or "", props)
        if c is None:
            problems.append("legend: a swatch without a colour")
            continue
        r = contrast(c, "#ffffff")
        if r < GRAPHIC_MIN:
            problems.append("legend: swatch %s is %.2f:1 (< %.1f)"
                            % (c, r, GRAPHIC_MIN))
    print("svg: %d charts, %d texts (lowest %.2f:1, %s), %d graphics "
          "(lowest %.2f:1, %s), %d swatches; coloured text: %s"
          % (page.n_svg, n_text, low_text[0], low_text[1], n_graphic,
             low_graphic[0], low_graphic[1], len(page.swatches),
             " ".join(sorted(palette)) or "none"))


def main(argv):
    if len(argv) < 2:
        print("usage: report_a11y.py REPORT.html [--action-contains TEXT]... "
              "[--all-marked]", file=sys.stderr)
        return 2
    want, all_marked, i = [], False, 2
    while i < len(argv):
        if argv[i] == "--action-contains" and i + 1 < len(argv):
            want.append(argv[i + 1])
            i += 2
        elif argv[i] == "--all-marked":
            all_marked = True
            i += 1
        else:
            print("report_a11y.py: unknown argument %r" % argv[i], file=sys.stderr)
            return 2
    page = Page()
    with open(argv[1], encoding="utf-8") as f:
        page.feed(f.read())
    problems = []
    check_marks(page, all_marked, problems)
    check_contrast(page, problems)
    action = " ".join(page.action.split())
    for w in want:
        if w not in action:
            problems.append("action box does not say %r: %s" % (w, action))
    for p in problems:
        print("PROBLEM: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
