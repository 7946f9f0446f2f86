#!/usr/bin/env python3
# report_pdf.py — checks report.html as Chromium printed it.
#   report_pdf.py REPORT.html REPORT.pdf
# With pdftotext (poppler-utils): every page is A4; the page's first heading
# (the verdict) is on page 1; and nothing was cut off: every word of the
# page's visible text is in the PDF's text (Chromium leaves content clipped
# at the page edge out of the PDF, so a table too wide for A4 loses words).
# Words are compared with all white space removed, so a long word the
# browser wrapped still matches. Prints one line per problem; exit 0 when
# there is none, 1 otherwise. Used by tests/cli/test_report.sh.
import html.parser
import re
import subprocess
import sys

A4_PT = (595.3, 841.9)  # 210 x 297 mm in PostScript points


class Visible(html.parser.HTMLParser):
    """The text a reader sees: no <head>, <style>, <script>, or <title>
    (SVG tooltips); the first heading's text separately."""

    HIDDEN = {"head", "style", "script", "title"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hidden = 0
        self.words = []
        self.heading = None  # text of the first h1..h6 while inside it
        self.first_heading = None

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        elif re.fullmatch(r"h[1-6]", tag) and self.first_heading is None:
            self.heading = []

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.hidden -= 1
        elif re.fullmatch(r"h[1-6]", tag) and self.heading is not None:
            self.first_heading = " ".join(self.heading)
            self.heading = None

    def handle_data(self, data):
        if self.hidden:
            return
        self.words += data.split()
        if self.heading is not None:
            self.heading += data.split()


def squeeze(text):
    return re.sub(r"\s+", "", text)


def main():
    if len(sys.argv) != 3:
        print("usage: report_pdf.py REPORT.html REPORT.pdf", file=sys.stderr)
        return 64
    page = Visible()
    page.feed(open(sys.argv[1], encoding="utf-8").read())
    bbox = subprocess.run(["pdftotext", "-bbox", sys.argv[2], "-"],
                          stdout=subprocess.PIPE, check=True).stdout.decode()
    problems = []
    sizes = re.findall(r'<page width="([\d.]+)" height="([\d.]+)"', bbox)
    if not sizes:
        problems.append("the PDF has no pages")
    for n, (w, h) in enumerate(sizes, 1):
        if abs(float(w) - A4_PT[0]) > 2 or abs(float(h) - A4_PT[1]) > 2:
            problems.append("page %d is %s x %s pt, not A4" % (n, w, h))
    pages = [squeeze(html.unescape(" ".join(re.findall(
        r"<word [^>]*>([^<]*)</word>", p)))) for p in bbox.split("</page>")]
    everything = "".join(pages)
    missing = sorted({w for w in page.words if squeeze(w) not in everything})
    if missing:
        problems.append("%d words of the page are not in the PDF (cut off?): "
                        "%s" % (len(missing), " ".join(missing[:12])))
    if not page.first_heading:
        problems.append("the page has no heading")
    elif squeeze(page.first_heading) not in pages[0]:
        problems.append("the first heading is not on page 1: "
                        + page.first_heading)
    print("PDF: %d pages, %d words of the page checked" % (len(sizes),
                                                           len(page.words)))
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
