#!/usr/bin/env python3
"""strict_check.py FORMAT FILE: exit 0 when FILE is well-formed output of
nstats's FORMAT (csv, tsv, json, hdoc, htable) however hostile the names in
it, else print why and exit 1.  Stricter than the usual readers, on purpose:
a reader that forgives would hide an escaping bug.

csv:    RFC 4180 records (a field is quoted, with its quotes doubled, or has
        no quote, comma or line break), every record as wide as the header;
        several reports in one file are separated by an empty line.
tsv:    every line as wide as the header: no raw tab or newline in a field.
json:   UTF-8, and one JSON text for python's json (no NaN/Infinity).
hdoc, htable: no '<' or '>' but the markup's own tags, no '&' but an entity.
"""
import json
import re
import sys

FIELD = rb'(?:"(?:[^"]|"")*"|[^",\r\n]*)'
RECORD = re.compile(FIELD + rb'(?:,' + FIELD + rb')*\r?\n')
TAGS = (b'html|head|body|title|meta|link|style|h1|h2|h3|p|br|pre|'
        b'table|thead|tbody|tr|th|td|caption|colgroup|col')
TAG = re.compile(rb'<!DOCTYPE html>|<!--.*?-->|</?(?:' + TAGS + rb')(?:\s[^<>]*)?>', re.S)
ENTITY = re.compile(rb'&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);')


def csv_tables(data):
    pos, widths = 0, []
    while pos < len(data):
        if data.startswith(b'\n', pos):  # between reports
            pos += 1
            widths.append(None)
            continue
        m = RECORD.match(data, pos)
        if not m or m.end() == pos:
            return 'not an RFC 4180 record at byte %d: %r' % (pos, data[pos:pos + 80])
        n = len(re.findall(FIELD + rb'(?:,|\r?\n)', m.group(0)))
        if widths and widths[-1] not in (None, n):
            return 'a record of %d fields after a header of %d at byte %d' % (n, widths[-1], pos)
        if not widths or widths[-1] is None:
            widths.append(n)
        pos = m.end()
    return None


def tsv(data):
    width = None
    for i, line in enumerate(data.split(b'\n')[:-1]):
        if not line:
            width = None
            continue
        n = line.count(b'\t') + 1
        width = width or n
        if n != width:
            return 'line %d has %d fields, the header %d' % (i + 1, n, width)
    return None


def strict_json(data):
    def no_constant(c):
        raise ValueError('not JSON: ' + c)
    try:
        json.loads(data.decode('utf-8'), parse_constant=no_constant)
    except ValueError as e:
        return str(e)
    return None


def html(data):
    rest = TAG.sub(b'', data)
    for ch in (b'<', b'>'):
        i = rest.find(ch)
        if i >= 0:
            return 'raw %r from data: %r' % (ch, rest[max(0, i - 40):i + 40])
    for m in re.finditer(rb'&', rest):
        if not ENTITY.match(rest, m.start()):
            return 'raw & from data: %r' % rest[m.start():m.start() + 40]
    return None


CHECKS = {'csv': csv_tables, 'tsv': tsv, 'json': strict_json, 'hdoc': html, 'htable': html}

if __name__ == '__main__':
    fmt, path = sys.argv[1], sys.argv[2]
    with open(path, 'rb') as f:
        why = CHECKS[fmt](f.read())
    if why:
        print('%s: %s: %s' % (path, fmt, why))
        sys.exit(1)
