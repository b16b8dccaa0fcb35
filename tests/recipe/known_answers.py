#!/usr/bin/env python3
"""known_answers.py --ranks N [--slow-rank R:FACTOR] [--slow-iterations A,B,...] [--nccl-overlap PCT]
RANK0.sqlite ... : checks, from the exports alone, that a job that nsysgen made with these options
(`nsysgen --ranks N --rank r --iterations I ...` for r = 0 .. N-1, given here in rank order) has the
timing its --help promises, which is what makes the answers of a multi-rank analysis known:

  - each export's MPI_RANKS maps its process to its rank; every rank has the same `step` ranges'
    starts and, in each step, the same 5 NCCL collectives in the same order;
  - every rank's kernel of a collective ends at the same instant;
  - in a slow iteration the slow rank starts every collective last, every other rank at the same
    instant; the slow rank's compute kernels last floor(d * FACTOR) where the others' last d; in
    the other iterations every rank starts each collective at the same instant;
  - with --nccl-overlap PCT, exactly one compute kernel of the same device overlaps each NCCL kernel
    of a step: it starts with it and lasts floor(NCCL duration * PCT / 100);
  - the steps of the ranks that are not slow last the same; the slow rank's lasts longer exactly in
    its slow iterations.

Prints each broken promise and what the job's answers are (per iteration, the last rank and its
lag per collective; per rank, NCCL time and hidden time in the steps); exits 1 on a broken one.
"""
import sqlite3
import sys
from collections import defaultdict


def fail(msg, errors):
    errors.append(msg)
    print("FAIL:", msg)


def load(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    ranks = {r for (r,) in db.execute("SELECT DISTINCT rank FROM MPI_RANKS")}
    steps = db.execute("SELECT start, end FROM NVTX_EVENTS WHERE text = 'step' AND eventType = 59 "
                       "ORDER BY start").fetchall()
    rows = db.execute("SELECT k.start, k.end, k.deviceId, k.streamId, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                      "JOIN StringIds s ON s.id = k.shortName ORDER BY k.start, k.streamId").fetchall()
    per_step = []
    for s, e in steps:
        inside = [r for r in rows if s <= r[0] < e]
        nccl = [r for r in inside if r[4].startswith(("ncclKernel_", "ncclDevKernel_"))]
        compute = [r for r in inside if not r[4].startswith(("ncclKernel_", "ncclDevKernel_"))]
        per_step.append((nccl, compute))
    return ranks, steps, per_step


def main(argv):
    opts = {"--ranks": None, "--slow-rank": None, "--slow-iterations": None, "--nccl-overlap": "0"}
    files = []
    i = 1
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            files.append(argv[i])
            i += 1
    n = int(opts["--ranks"])
    pct = int(opts["--nccl-overlap"])
    slow_rank, permille = None, 1000
    if opts["--slow-rank"]:
        a, b = opts["--slow-rank"].split(":")
        slow_rank, permille = int(a), round(float(b) * 1000)
    slow_set = {int(x) for x in opts["--slow-iterations"].split(",")} if opts["--slow-iterations"] else None
    errors = []
    if len(files) != n:
        fail(f"{len(files)} exports for {n} ranks", errors)
        return 1
    job = [load(f) for f in files]
    for r, (ranks, _, _) in enumerate(job):
        if ranks != {r}:
            fail(f"rank {r}'s export maps its process to {sorted(ranks)}", errors)
    iterations = len(job[0][1])
    for r in range(n):
        if [s for s, _ in job[r][1]] != [s for s, _ in job[0][1]]:
            fail(f"rank {r}'s steps start at other instants than rank 0's", errors)
    hidden_total, nccl_total = defaultdict(int), defaultdict(int)
    for it in range(iterations):
        slow = slow_rank is not None and (slow_set is None or it in slow_set)
        names = [[k[4] for k in job[r][2][it][0]] for r in range(n)]
        if any(x != names[0] for x in names) or len(names[0]) != 5:
            fail(f"iteration {it}: the ranks' collectives differ or are not 5: {names}", errors)
            continue
        line = []
        for k in range(5):
            ends = {job[r][2][it][0][k][1] for r in range(n)}
            if len(ends) != 1:
                fail(f"iteration {it} collective {k}: the ranks' kernels end at {sorted(ends)}", errors)
            starts = [job[r][2][it][0][k][0] for r in range(n)]
            others = {s for r, s in enumerate(starts) if not (slow and r == slow_rank)}
            if not others:  # one rank, and it is the slow one
                line.append(f"{names[0][k].split('_')[1]} last rank {slow_rank} lag 0")
                continue
            if len(others) != 1:
                fail(f"iteration {it} collective {k}: the ranks that are not slow start at {sorted(others)}", errors)
            elif slow and n > 1 and starts[slow_rank] <= min(others):
                fail(f"iteration {it} collective {k}: the slow rank {slow_rank} does not start last", errors)
            lag = starts[slow_rank] - min(others) if slow and n > 1 else 0
            line.append(f"{names[0][k].split('_')[1]} last rank {slow_rank if lag else 0} lag {lag}")
        # compute kernels: the slow rank's are the others' times the factor
        if slow and n > 1:
            ref = 0 if slow_rank != 0 else 1
            mine = job[slow_rank][2][it][1]
            theirs = job[ref][2][it][1]
            overlap_mine = {(c[0], c[2]) for c in mine for x in job[slow_rank][2][it][0] if c[0] == x[0]}
            overlap_theirs = {(c[0], c[2]) for c in theirs for x in job[ref][2][it][0] if c[0] == x[0]}
            dm = [c[1] - c[0] for c in mine if (c[0], c[2]) not in overlap_mine]
            dt = [c[1] - c[0] for c in theirs if (c[0], c[2]) not in overlap_theirs]
            if dm != [d * permille // 1000 for d in dt]:
                fail(f"iteration {it}: the slow rank's compute kernels are not the others' times the factor", errors)
        # overlap: one compute kernel from the NCCL kernel's start, for PCT% of it
        for r in range(n):
            nccl, compute = job[r][2][it]
            for s, e, dev, _, _ in nccl:
                over = [c for c in compute if c[2] == dev and c[0] < e and c[1] > s]
                want = (e - s) * pct // 100
                nccl_total[r] += e - s
                if pct == 0:
                    if over:
                        fail(f"rank {r} iteration {it}: compute overlaps an NCCL kernel without --nccl-overlap",
                             errors)
                    continue
                if len(over) != 1 or over[0][0] != s or over[0][1] - over[0][0] != want:
                    fail(f"rank {r} iteration {it}: NCCL kernel at {s}: overlapped by {over}, "
                         f"expected one kernel of {want} ns from its start", errors)
                hidden_total[r] += want
        durs = [job[r][1][it][1] - job[r][1][it][0] for r in range(n)]
        normal = {d for r, d in enumerate(durs) if not (slow and r == slow_rank)} or {durs[0]}
        if len(normal) != 1:
            fail(f"iteration {it}: the steps of the ranks that are not slow last {sorted(normal)}", errors)
        elif slow and n > 1 and durs[slow_rank] <= min(normal):
            fail(f"iteration {it}: the slow rank's step is not the longest", errors)
        print(f"iteration {it}: step {min(normal)} ns" +
              (f", rank {slow_rank}'s {durs[slow_rank]} ns" if slow else "") + "; " + "; ".join(line))
    for r in range(n):
        print(f"rank {r}: NCCL time in the steps {nccl_total[r]} ns, hidden {hidden_total[r]} ns, "
              f"exposed {nccl_total[r] - hidden_total[r]} ns")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
