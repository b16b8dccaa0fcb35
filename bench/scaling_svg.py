#!/usr/bin/env python3
"""scaling_svg.py CSV SVG: the chart of bench/scaling.sh's measurements: two log-log panels,
wall seconds and peak MiB against kernel launches, one line per tool (nstats, nsys 2024.2.3, the
sqlite3 floor), each point with its value as a tooltip. Colours of the Okabe-Ito palette."""
import csv
import math
import sys
from xml.sax.saxutils import escape

TOOLS = [("nstats", "nstats", "#0072B2"), ("nsys", "nsys stats 2024.2.3", "#D55E00"),
         ("floor", "floor: sqlite3 reading the same columns", "#009E73")]
W, H = 1000, 440
PANEL_W, PANEL_H = 380, 300
LEFT, TOP = 80, 60


def read(path):
    data = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            try:
                n, v, m = int(r["launches"]), float(r["seconds"]), float(r["mib"])
            except ValueError:
                continue  # a run that failed ("-")
            data.setdefault(r["tool"], []).append((n, v, m))
    return data


def decades(lo, hi):
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return a, b if b > a else a + 1


def label(v):
    if v >= 1e6:
        return "%gM" % (v / 1e6)
    if v >= 1e3:
        return "%gk" % (v / 1e3)
    return "%g" % v


def panel(out, x0, title, unit, data, pick):
    xs = [p[0] for pts in data.values() for p in pts]
    ys = [pick(p) for pts in data.values() for p in pts if pick(p) > 0]
    xa, xb = decades(min(xs), max(xs))
    ya, yb = decades(min(ys), max(ys))
    sx = lambda v: x0 + (math.log10(v) - xa) / (xb - xa) * PANEL_W
    sy = lambda v: TOP + PANEL_H - (math.log10(v) - ya) / (yb - ya) * PANEL_H
    out.append('<text x="%d" y="%d" class="pt">%s</text>' % (x0, TOP - 12, escape(title)))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" class="frame"/>' % (x0, TOP, PANEL_W, PANEL_H))
    for d in range(xa, xb + 1):
        x = sx(10 ** d)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="grid"/>' % (x, TOP, x, TOP + PANEL_H))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x, TOP + PANEL_H + 16, label(10 ** d)))
    for d in range(ya, yb + 1):
        y = sy(10 ** d)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" class="grid"/>' % (x0, y, x0 + PANEL_W, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (x0 - 6, y + 4, label(10 ** d)))
    out.append('<text x="%d" y="%d" text-anchor="middle" class="al">kernel launches (log)</text>'
               % (x0 + PANEL_W // 2, TOP + PANEL_H + 36))
    out.append('<text transform="translate(%d,%d) rotate(-90)" text-anchor="middle" class="al">%s (log)</text>'
               % (x0 - 52, TOP + PANEL_H // 2, escape(unit)))
    for key, name, colour in TOOLS:
        pts = sorted(p for p in data.get(key, []) if pick(p) > 0)
        if not pts:
            continue
        path = " ".join("%s%.1f,%.1f" % ("M" if i == 0 else "L", sx(p[0]), sy(pick(p))) for i, p in enumerate(pts))
        out.append('<path d="%s" stroke="%s" class="line"/>' % (path, colour))
        for p in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s, %s launches: %s %s</title></circle>'
                       % (sx(p[0]), sy(pick(p)), colour, escape(name), label(p[0]), "%g" % pick(p), escape(unit)))


def main():
    data = read(sys.argv[1])
    if "nstats" not in data:
        sys.exit("scaling_svg.py: %s has no nstats row" % sys.argv[1])
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="12">' % (W, H, W, H),
           '<title>nstats, nsys and the floor: the default report set against the capture size</title>',
           '<style>.frame{fill:none;stroke:#444}.grid{stroke:#ddd}.line{fill:none;stroke-width:2}'
           '.pt{font-weight:bold}.al{fill:#333}</style>',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="24" font-size="15" font-weight="bold">The default report set: time and memory '
           'against the capture size</text>' % LEFT]
    panel(out, LEFT, "Wall time", "seconds", data, lambda p: p[1])
    panel(out, LEFT + PANEL_W + 110, "Peak resident memory", "MiB", data, lambda p: p[2])
    y = H - 22
    x = LEFT
    for key, name, colour in TOOLS:
        if key not in data:
            continue
        out.append('<rect x="%d" y="%d" width="14" height="4" fill="%s"/>' % (x, y - 4, colour))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 20, y, escape(name)))
        x += 40 + 7 * len(name)
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
