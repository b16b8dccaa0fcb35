#!/usr/bin/env python3
"""check_numbers.py NSTATS PAGE INPUT... [-- NSTATS_OPTION...]: every table of an `nstats report`
page that names its report (data-report, and data-table for a recipe's) holds, cell for cell, what
that report's csv holds for the same inputs: `nstats stats` (`analyze` for a rule, `diff` for two
inputs, `recipe` for a recipe's table), run here with -f csv:noconv:nohdrunit. PAGE may be the
page or the DOM a browser dumped. Exact values come from each cell's data-v; a value the csv
rounds is compared at the csv's decimals. On a page of one input, a report of ONE_INPUT whose csv
has rows and that has no table on the page is a difference too. Prints one line per difference;
exits 1 on any, 2 when the page has no such table (a check that checks nothing)."""
import csv, html.parser, io, os, subprocess, sys, tempfile

csv.field_size_limit(sys.maxsize)  # the 1 MB names of the hostile corpus

DIFFS = {"kern_diff", "gpu_time_diff", "mem_diff", "api_diff", "nvtx_diff", "launch_diff"}
RULES = {"gpu_gaps", "gpu_time_util", "cuda_api_sync", "cuda_memcpy_async", "cuda_memcpy_sync",
         "cuda_memset_sync"}
# What a page of one input shows whenever the report has rows: a table left out is a difference
# too (a projection that joined no launch leaves its table out, and its cells cannot differ).
ONE_INPUT = ["gpu_time_sum", "cuda_gpu_kern_dist", "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum",
             "cuda_api_sum", "nvtx_sum", "nvtx_gpu_proj_sum", "gpu_gaps:gap=0"]


class Tables(html.parser.HTMLParser):
    """The tables, and the heat map's strips as a table: a <g> of strips names the recipe's table,
    a <g> in it is a row (its Rank, Device, Bucket Time), a <rect> in that the buckets data-k to
    data-k + data-n - 1, each data-v."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.cur, self.row = [], None, None
        self.gs = []  # what each open <g> is: "strips", "strip" or None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "g":
            kind = None
            if a.get("data-report"):
                kind = "strips"
                self.cur = {"spec": a["data-report"], "table": a.get("data-table", ""), "input": 0,
                            "rows": [], "buckets": int(a["data-buckets"])}
                self.tables.append(self.cur)
            elif self.gs and self.gs[-1] == "strips":
                kind = "strip"
                self.row = [("Rank", a["data-rank"]), ("Device", a["data-device"]),
                            ("Bucket Time", a["data-bucket-time"])]
            self.gs.append(kind)
        elif tag == "rect" and self.gs and self.gs[-1] == "strip":
            k, n = int(a["data-k"]), int(a["data-n"])
            self.row += [(str(b), a["data-v"]) for b in range(k, k + n)]
        elif tag == "table" and a.get("data-report"):
            self.cur = {"spec": a["data-report"], "table": a.get("data-table", ""),
                        "input": int(a.get("data-input", "0")), "rows": []}
            self.tables.append(self.cur)
        elif tag == "tr" and self.cur is not None:
            self.row = []
        elif tag == "td" and self.row is not None and "data-col" in a:
            self.row.append((a["data-col"], a.get("data-v", "")))

    def handle_endtag(self, tag):
        if tag == "g" and self.gs:
            kind = self.gs.pop()
            if kind == "strip":
                if len(self.row) != 3 + self.cur["buckets"]:
                    self.cur["short"] = True
                self.cur["rows"].append(self.row)
                self.row = None
            elif kind == "strips":
                self.cur = None
        if tag == "tr" and self.row:
            self.cur["rows"].append(self.row)
        if tag == "tr":
            self.row = None
        if tag == "table":
            self.cur = None


def run_csv(nstats, spec, table, input, inputs, extra):
    name = spec.split(":")[0]
    fmt = ["-f", "csv:noconv:nohdrunit"]
    if table:
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([nstats, "recipe", spec, "-q", "--ranks", "input", "-j", "1", *fmt,
                            "-o", d, *extra, *inputs], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            with open(os.path.join(d, "%s_%s.csv" % (name, table)), encoding="utf-8",
                      errors="replace", newline="") as f:
                return f.read()
    if name in DIFFS:
        cmd = [nstats, "diff", "-q", "-r", spec, *fmt, *extra, *inputs[:2]]
    elif name in RULES:
        cmd = [nstats, "analyze", "-q", "-r", spec, *fmt, *extra, inputs[input]]
    else:
        cmd = [nstats, "stats", "-q", "-r", spec, *fmt, *extra, inputs[input]]
    # the reports' notes on stderr (graph launches left out...) are not what is compared
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    return out.decode("utf-8", errors="replace")


def same(v, c):
    """v: the page's exact value; c: the csv's cell."""
    if v == c:
        return True
    try:
        fv, fc = float(v), float(c)
    except ValueError:
        # text: the page shows control bytes and bad UTF-8 as U+FFFD, the csv keeps them; a long
        # name is cut in the middle (an ellipsis)
        if "\u2026" in v and len(c) > len(v):
            head, tail = v.split("\u2026", 1)
            return c.startswith(head) and c.endswith(tail)
        return any(ord(ch) < 32 or ch == "\ufffd" for ch in c) or "\ufffd" in v
    decimals = len(c.split(".")[1]) if "." in c else None
    if decimals is None:
        return fv == fc
    return abs(round(fv, decimals) - fc) <= 10 ** -decimals * 0.5 + 1e-9 * abs(fc)


def check(nstats, page, inputs, extra):
    p = Tables()
    with open(page, encoding="utf-8") as f:
        p.feed(f.read())
    bad = cells = 0
    for t in p.tables:
        text = run_csv(nstats, t["spec"], t["table"], t["input"], inputs, extra)
        rows = [r for r in csv.reader(io.StringIO(text, newline="")) if r]
        if not rows:
            print("%s: %s: the report gives no rows, the page %d" % (page, t["spec"], len(t["rows"])))
            bad += 1
            continue
        head, body = rows[0], rows[1:]
        if t.get("short"):
            print("%s: %s: a strip without all of its %d buckets" % (page, t["spec"], t["buckets"]))
            bad += 1
        if len(t["rows"]) > len(body):
            print("%s: %s: %d rows on the page, %d in the csv" % (page, t["spec"], len(t["rows"]), len(body)))
            bad += 1
        for i, row in enumerate(t["rows"][:len(body)]):
            for col, v in row:
                if col not in head:
                    print("%s: %s: no column %r in the csv" % (page, t["spec"], col))
                    bad += 1
                    continue
                cells += 1
                c = body[i][head.index(col)]
                if not same(v, c):
                    print("%s: %s row %d %s: page %r, csv %r" % (page, t["spec"], i, col, v, c))
                    bad += 1
    if not p.tables:
        print("%s: no table names its report" % page)
        return 2
    shown = {t["spec"].split(":")[0] for t in p.tables}
    for spec in ONE_INPUT if len(inputs) == 1 else []:
        if spec.split(":")[0] in shown:
            continue
        rows = [r for r in csv.reader(io.StringIO(run_csv(nstats, spec, "", 0, inputs, extra),
                                                  newline="")) if r]
        if len(rows) > 1:
            print("%s: no table of %s, whose csv has %d rows" % (page, spec, len(rows) - 1))
            bad += 1
    print("%s: %d tables, %d cells checked, %d differ" % (os.path.basename(page), len(p.tables), cells, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    sys.exit(check(args[0], args[1], args[2:], extra))
