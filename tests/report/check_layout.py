#!/usr/bin/env python3
"""check_layout.py inject PAGE COPY: COPY is PAGE with measure_layout.js run at load.
check_layout.py read DOM: reads what the script wrote into the DOM a browser dumped: every table
row at most three lines tall, every cell inside the viewport. Prints what is not; exits 1 then, 2
when the DOM holds no measurement (the script did not run) or no table row."""
import html, json, os, re, sys


def inject(page, copy):
    script = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "measure_layout.js")).read()
    text = open(page, encoding="utf-8").read()
    at = text.rindex("</body>")
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text[:at] + "<script>\n" + script + "</script>\n" + text[at:])


def read(dom):
    m = re.search(r'<pre id="layout-result">([^<]*)</pre>', open(dom, encoding="utf-8").read())
    if not m:
        print(f"{dom}: no measurement in the DOM")
        return 2
    got = json.loads(html.unescape(m.group(1)))
    if got["rows"] == 0:
        print(f"{dom}: no table rows measured")
        return 2
    for t in got["tall"][:5]:
        print(f"{dom}: table {t['table']} row {t['row']} is {t['height']} px tall, more than three "
              f"lines ({t['most']} px)")
    for w in got["wide"][:5]:
        print(f"{dom}: table {w['table']} row {w['row']} cell {w['cell']} ends at {w['right']} px, "
              f"past the viewport's {got['width']} px")
    if got["tall"] or got["wide"]:
        print(f"{dom}: {len(got['tall'])} rows too tall, {len(got['wide'])} cells past the viewport "
              f"of {got['rows']} rows")
        return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "inject":
        inject(sys.argv[2], sys.argv[3])
    else:
        sys.exit(read(sys.argv[2]))
