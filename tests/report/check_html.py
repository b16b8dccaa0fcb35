#!/usr/bin/python3
"""check_html.py [--max-bytes N] PAGE...: each page of `nstats report` parses under html5lib's
strict parser (any parse error fails it: bad markup, a stray control character, a noncharacter),
is valid UTF-8, each of its <svg>...</svg> is well-formed XML, and it holds no more than N bytes
(default 3,000,000). Prints one line per failure; exits 1 on any. Needs Debian's /usr/bin/python3
with python3-html5lib."""
import re, sys
import xml.etree.ElementTree as ET

import html5lib


def check(path, max_bytes):
    bad = []
    data = open(path, "rb").read()
    if len(data) > max_bytes:
        bad.append("%d bytes, more than %d" % (len(data), max_bytes))
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        return bad + ["not UTF-8: %s" % e]
    parser = html5lib.HTMLParser(strict=True)
    try:
        parser.parse(text)
    except Exception as e:  # html5lib raises ParseError on the first error in strict mode
        bad.append("HTML parse error: %s %s" % (e, parser.errors[:1]))
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    for i, svg in enumerate(svgs):
        try:
            ET.fromstring(svg)
        except ET.ParseError as e:
            bad.append("svg %d is not well-formed XML: %s" % (i, e))
    return bad


def main(args):
    max_bytes = 3000000
    if args[:1] == ["--max-bytes"]:
        max_bytes, args = int(args[1]), args[2:]
    failed = 0
    for path in args:
        for line in check(path, max_bytes):
            print("%s: %s" % (path, line))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
