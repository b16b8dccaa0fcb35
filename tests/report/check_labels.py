#!/usr/bin/env python3
"""check_labels.py PAGE...: in every chart of an `nstats report` page, the labels of rows whose
names differ (each row's whole name is in its tooltip, the <title> of its <g>) differ too, and
none is longer than 48 characters. Rows labelled by a number (a device, a gap's start) are not
names and are left out. Prints each clash; exits 1 on any, 2 when a page has no
labelled chart (a check that checks nothing)."""
import html.parser, sys

WIDEST = 48


class Charts(html.parser.HTMLParser):
    """Per <svg>: (whole name, label) of each <g> holding a <title> and a right-aligned <text>."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.charts, self.g, self.into = [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.charts.append([])
        elif tag == "g":
            self.g = {"title": "", "label": None}
        elif tag == "title" and self.g is not None:
            self.into = "title"
        elif tag == "text" and self.g is not None and a.get("text-anchor") == "end":
            self.into, self.g["label"] = "label", ""

    def handle_data(self, data):
        if self.into:
            self.g[self.into] += data

    def handle_endtag(self, tag):
        if tag in ("title", "text"):
            self.into = None
        elif tag == "g" and self.g is not None:
            if self.g["label"] is not None and self.g["title"] and self.charts:
                t = self.g["title"]
                name = t.split("\n")[0] if "\nMin " in t else t.rsplit(": ", 1)[0]
                if not name.lstrip("-").isdigit():
                    self.charts[-1].append((name, self.g["label"]))
            self.g = None


def main():
    bad = 0
    for page in sys.argv[1:]:
        p = Charts()
        p.feed(open(page, encoding="utf-8").read())
        charts = [c for c in p.charts if c]
        if not charts:
            print(f"{page}: no chart with labels")
            sys.exit(2)
        for k, chart in enumerate(charts):
            by_label = {}
            for name, label in chart:
                if len(label) > WIDEST:
                    bad += 1
                    print(f"{page}: chart {k}: label of {len(label)} characters: {label}")
                by_label.setdefault(label, set()).add(name)
            for label, names in by_label.items():
                if len(names) > 1:
                    bad += 1
                    print(f"{page}: chart {k}: {len(names)} names read '{label}': "
                          + " | ".join(n[:120] for n in sorted(names)))
    sys.exit(1 if bad else 0)


main()
