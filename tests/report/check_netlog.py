#!/usr/bin/env python3
"""check_netlog.py NETLOG: the requests a page made, from Chromium's --log-net-log: any request to
the network (http, https, ws, wss, ftp) that a page started fails it. Requests of the browser's own
(its updater, its clock), which name no page as initiator ("not an origin"), are not the page's.
Prints each such request; exits 1 on any."""
import json, re, sys

NETWORK = re.compile(r"^(https?|wss?|ftp)://", re.I)


def page_requests(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    # a browser killed before it closed the log leaves the array open
    try:
        log = json.loads(text)
    except ValueError:
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    for e in log.get("events", []):
        p = e.get("params") or {}
        if types.get(e.get("type")) != "URL_REQUEST_START_JOB" or not NETWORK.match(p.get("url", "")):
            continue
        if p.get("initiator") != "not an origin":
            yield p["url"]


def main(path):
    bad = sorted(set(page_requests(path)))
    for url in bad:
        print("%s: the page asked for %s" % (path, url))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
