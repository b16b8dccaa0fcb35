#!/usr/bin/python3
"""Checks one input's traces against nstats's own reports and the export itself.

check.py NSTATS INPUT DIR PROTO_MODULE_DIR [stats/export filter options...]

Writes DIR/t.pftrace and DIR/t.json with `nstats export`, decodes the first with
Python's protobuf (the module made by protoc from src/trace/perfetto_trace.proto)
and the second with json, rebuilds the slices the way Perfetto nests them (packets
sorted by time, file order among ties, a stack per track), and compares:
  GPU slices   (start, duration, name) = cuda_gpu_trace's rows
  API slices   (start, duration, name) = cuda_api_trace's rows
  NVTX push/pop (start, end, name)     = nvtx_pushpop_trace's rows, and (a SQLite input)
               (start, end) = every push/pop range of NVTX_EVENTS, twins included
  NVTX start/end count                 = nvtx_startend_sum's instances
  stream tracks = distinct (Device, Ctx, Strm) of cuda_gpu_trace (besides the "#2" lanes of
               operations that overlap on a stream)
  flows = launches with GPU work, counted in SQLite from the export (a SQLite input)
Prints one line of counts; exits 1 with the first difference.
"""
import collections, csv, json, os, sqlite3, subprocess, sys

nstats, inp, out, pydir = sys.argv[1:5]
filt = sys.argv[5:]
sys.path.insert(0, pydir)
import perfetto_trace_pb2 as pb  # noqa: E402

def fail(msg):
    print(f"FAIL {inp}: {msg}")
    sys.exit(1)

def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")

def report(name):
    base = os.path.join(out, 'r')
    path = f"{base}_{name}.csv"
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run([nstats, 'stats', '-q', '-r', name, '-f', 'csv', '-o', base, *filt, inp],
                   capture_output=True, text=True)
    if not os.path.exists(path):
        return []
    with open(path, newline='') as f:
        return list(csv.DictReader(f))

# ---- the traces
pf, js = os.path.join(out, 't.pftrace'), os.path.join(out, 't.json')
run([nstats, 'export', '-q', '--type', 'perfetto', '--force-overwrite', '-o', pf, *filt, inp])
run([nstats, 'export', '-q', '--type', 'chrome-json', '--force-overwrite', '-o', js, *filt, inp])

trace = pb.Trace()
trace.ParseFromString(open(pf, 'rb').read())
cats, names, tracks, events = {}, {}, {}, []
seq_ids = set()
for i, p in enumerate(trace.packet):
    seq_ids.add(p.trusted_packet_sequence_id)
    if i == 0 and not (p.sequence_flags & 1):
        fail('the first packet does not clear the incremental state')
    for c in p.interned_data.event_categories:
        cats[c.iid] = c.name
    for n in p.interned_data.event_names:
        if n.iid in names:
            fail(f'name iid {n.iid} interned twice')
        names[n.iid] = n.name
    if p.HasField('track_descriptor'):
        d = p.track_descriptor
        if d.uuid in tracks:
            fail(f'track {d.uuid} declared twice')
        tracks[d.uuid] = d
    if p.HasField('track_event'):
        e = p.track_event
        if e.track_uuid not in tracks:
            fail(f'event on undeclared track {e.track_uuid}')
        events.append((p.timestamp, i, e))
if seq_ids != {1}:
    fail(f'packet sequences {seq_ids}')

def nested(events):
    """Perfetto's slices: a stack per track, packets by time then file order."""
    stacks, slices = collections.defaultdict(list), []
    for ts, i, e in sorted(events, key=lambda t: (t[0], t[1])):
        if e.type == pb.TrackEvent.TYPE_SLICE_BEGIN:
            stacks[e.track_uuid].append((ts, e))
        elif e.type == pb.TrackEvent.TYPE_SLICE_END:
            if not stacks[e.track_uuid]:
                fail(f'an END without a BEGIN on track {e.track_uuid}')
            start, b = stacks[e.track_uuid].pop()
            slices.append((start, ts, b))
    if any(stacks.values()):
        fail('a BEGIN without an END')
    return slices

pslices = nested(events)
by_cat = collections.defaultdict(list)
for start, end, b in pslices:
    by_cat[cats[b.category_iids[0]]].append((start, end, names[b.name_iid], b))

doc = json.load(open(js))
jx = collections.defaultdict(list)
jflows = collections.Counter()
for e in doc['traceEvents']:
    if e['ph'] == 'X':
        jx[e['cat']].append(e)
    elif e['ph'] in 'stf':
        jflows[e['ph']] += 1

def ns(us):
    """A JSON timestamp back to ns, from its digits (never a float)."""
    t = json.dumps(us)
    neg = t.startswith('-')
    whole, _, frac = t.lstrip('-').partition('.')
    v = int(whole) * 1000 + int((frac + '000')[:3])
    return -v if neg else v

def jtimes(cat):
    return sorted((ns(e['ts']), ns(e['dur'])) for e in jx[cat])

# ---- GPU work
gpu = report('cuda_gpu_trace')
want = sorted((int(r['Start (ns)']), int(r['Duration (ns)']), r['Name']) for r in gpu)
got = sorted((s, e - s, n) for c in ('kernel', 'gpu_memcpy', 'gpu_memset') for s, e, n, _ in by_cat[c])
if want != got:
    fail(f'GPU slices differ from cuda_gpu_trace: {len(got)} vs {len(want)} rows; first: '
         f'{[x for x in got if x not in want][:1]} {[x for x in want if x not in got][:1]}')
jgot = sorted(jtimes('kernel') + jtimes('gpu_memcpy') + jtimes('gpu_memset'))
if jgot != sorted((s, d) for s, d, _ in want):
    fail('JSON GPU slices differ from cuda_gpu_trace')
jk = sorted((ns(e['ts']), e['name']) for e in jx['kernel'])
if jk != sorted((s, n) for s, e, n, _ in by_cat['kernel']) and True:
    fail('JSON kernel names differ')
streams = {(r['Device'], r['Ctx'], r['Strm']) for r in gpu}
nstream = sum(1 for d in tracks.values() if d.name.startswith('Stream ') and ' #' not in d.name)
if nstream != len(streams):
    fail(f'{nstream} stream tracks, cuda_gpu_trace has {len(streams)} streams')

# ---- API calls
api = report('cuda_api_trace')
want = sorted((int(r['Start (ns)']), int(r['Duration (ns)']), r['Name']) for r in api)
got = sorted((s, e - s, n) for s, e, n, _ in by_cat['cuda_runtime'])
if want != got:
    fail(f'API slices differ from cuda_api_trace: {len(got)} vs {len(want)}')
if jtimes('cuda_runtime') != sorted((s, d) for s, d, _ in want):
    fail('JSON API slices differ from cuda_api_trace')

# ---- NVTX
pp = report('nvtx_pushpop_trace')
want = collections.Counter((int(r['Start (ns)']), int(r['End (ns)']), r['Name']) for r in pp)
got = collections.Counter((s, e, n) for s, e, n, _ in by_cat['user_annotation'])
if want - got:
    fail(f'NVTX push/pop slices lack rows of nvtx_pushpop_trace: {list(want - got)[:1]}')
ranges = None
if inp.endswith('.sqlite') and not filt:
    # every push/pop range, twins included (nvtx_pushpop_trace leaves those out, as nsys does);
    # one never popped runs to the last NVTX timestamp
    db = sqlite3.connect(f'file:{inp}?mode=ro&immutable=1', uri=True)
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'NVTX_EVENTS'").fetchone():
        last = db.execute("SELECT MAX(MAX(start, COALESCE(end, start))) FROM NVTX_EVENTS").fetchone()[0]
        ranges = collections.Counter(db.execute(
            "SELECT start, COALESCE(end, ?) FROM NVTX_EVENTS WHERE eventType IN (59, 70) AND start IS NOT NULL",
            (last,)).fetchall())
        if ranges != collections.Counter((s, e) for s, e, _ in got.elements()):
            fail(f'NVTX push/pop slices: {sum(got.values())}, NVTX_EVENTS has {sum(ranges.values())} ranges')
if ranges is None and got != want:
    fail(f'NVTX push/pop slices differ from nvtx_pushpop_trace: {sum(got.values())} vs {len(pp)}')
se = sum(int(r['Instances']) for r in report('nvtx_startend_sum'))
if len(by_cat['nvtx_startend']) != se or len(jx['nvtx_startend']) != se:
    fail(f"{len(by_cat['nvtx_startend'])} start/end slices, nvtx_startend_sum has {se}")

# ---- flows: every launch with GPU work starts one, its last GPU operation ends it
starts = collections.Counter(f for *_, b in pslices for f in b.flow_ids
                             if cats[b.category_iids[0]] == 'cuda_runtime')
ends = collections.Counter(f for *_, b in pslices for f in b.terminating_flow_ids)
if any(v != 1 for v in starts.values()) or set(ends) != set(starts) or any(v != 1 for v in ends.values()):
    fail('flows do not start once and end once')
if jflows['s'] != len(starts) or jflows['f'] != len(starts):
    fail(f"JSON flows: {dict(jflows)} for {len(starts)} launches")
launches = None
if inp.endswith('.sqlite') and not filt:
    db = sqlite3.connect(f'file:{inp}?mode=ro&immutable=1', uri=True)
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if 'CUPTI_ACTIVITY_KIND_RUNTIME' in have:
        cols = {r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_RUNTIME)")}
        calls = "SELECT DISTINCT globalTid & ~0xFFFFFF AS p, correlationId AS c FROM CUPTI_ACTIVITY_KIND_RUNTIME"
        if 'callchainId' in cols:
            calls += " WHERE callchainId IS NULL AND eventClass IS NOT 67"
        gpu_tables = [t for t in ('CUPTI_ACTIVITY_KIND_KERNEL', 'CUPTI_ACTIVITY_KIND_MEMCPY',
                                  'CUPTI_ACTIVITY_KIND_MEMSET') if t in have]
        if gpu_tables:
            ops = " UNION ".join(f"SELECT globalPid AS p, correlationId AS c FROM {t}" for t in gpu_tables)
            launches = db.execute(f"SELECT COUNT(*) FROM ({calls}) a JOIN ({ops}) g USING (p, c)").fetchone()[0]
            if launches != len(starts):
                fail(f'{len(starts)} flows, the export has {launches} launches with GPU work')
        napi = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME" +
                          (" WHERE callchainId IS NULL AND eventClass IS NOT 67" if 'callchainId' in cols else "")).fetchone()[0]
        if napi != len(by_cat['cuda_runtime']):
            fail(f"{len(by_cat['cuda_runtime'])} API slices, the export has {napi} calls")

print(f"ok {inp}: gpu={len(gpu)} api={len(api)} pushpop={len(pp)} startend={se} "
      f"flows={len(starts)} tracks={len(tracks)} streams={nstream}")
