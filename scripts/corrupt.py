#!/usr/bin/env python3
"""corrupt.py: feed corrupted copies of real files to `deup data import` and
`deup predict --model`, and report how each run ended, its time and peak RSS.

usage: scripts/corrupt.py DEUP WORKDIR [--n N] [--seed S] [--timeout SECONDS]

DEUP is a built deup binary. WORKDIR receives the base files (imported from
../shared/data, never copied into the repository) and the corrupted copies.
Every corruption is drawn from random.Random(seed): truncation at a random
length, 1 to 64 random bit flips, a random 4-byte word set to 0x7fffffff,
0x80000000 or 0xffffffff, a random 8-byte word set to 2^40 or -1, and the
format's own length fields (Arrow message and footer lengths, the Parquet
footer length, the model header length) set huge, and model header fields
(inducing points, Monte Carlo passes, dimensions, feature settings) set
out of proportion to the file; model files (deup's
format ends with a CRC-32) get the checksum recomputed after the change so
that the corruption reaches the parser. Each run is timed with
/usr/bin/time -v under `timeout`.

A run fails the check if it exits with a Go panic (status 2), a signal or
the timeout; each base file is also run unchanged first, and must be
accepted (so that the errors are the corruptions', not the harness's). A
corrupted file may be accepted when the change leaves it valid (a flipped
bit in a score); the table counts those as "accepted".
"""
import argparse, gzip, json, os, random, re, shutil, struct, subprocess, sys, zlib

def run(cmd, timeout):
    p = subprocess.run(["timeout", "-s", "KILL", str(timeout), "/usr/bin/time", "-v"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    err = p.stderr
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)) if "Maximum resident" in err else -1
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", err)
    secs = (int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))) if m else -1
    u = re.search(r"User time \(seconds\): ([\d.]+)", err)
    s = re.search(r"System time \(seconds\): ([\d.]+)", err)
    cpu = float(u.group(1)) + float(s.group(1)) if u and s else -1
    rc = p.returncode
    if rc == 137 or rc == -9:
        kind = "timeout/killed"
    elif "panic:" in err or "fatal error:" in err or rc == 2:
        kind = "CRASH"
    elif rc == 0:
        kind = "accepted"
    else:
        kind = "error"
    msg = [l for l in err.splitlines() if l.startswith("deup:")]
    return kind, rc, secs, cpu, rss, (msg[0][:160] if msg else err.strip().splitlines()[0][:160] if err.strip() else "")

def corruptions(b, rng, fmt, n):
    out = []
    for i in range(n):
        c = bytearray(b)
        k = rng.randrange(6)
        if k == 0:
            c = c[:rng.randrange(len(c))]
            what = "truncated to %d" % len(c)
        elif k == 1:
            flips = rng.choice([1, 8, 64])
            for _ in range(flips):
                p = rng.randrange(len(c)); c[p] ^= 1 << rng.randrange(8)
            what = "%d bit flips" % flips
        elif k == 2 and len(c) >= 4:
            p = rng.randrange(len(c) - 3) & ~3
            v = rng.choice([0x7fffffff, 0x80000000, 0xffffffff])
            c[p:p+4] = struct.pack("<I", v); what = "word at %d = %#x" % (p, v)
        elif k == 3 and len(c) >= 8:
            p = rng.randrange(len(c) - 7) & ~7
            v = rng.choice([1 << 40, (1 << 64) - 1])
            c[p:p+8] = struct.pack("<Q", v); what = "8-byte word at %d = %#x" % (p, v)
        else:
            what = known_field(c, rng, fmt)
        out.append((bytes(c), what))
    return out

def known_field(c, rng, fmt):
    v = rng.choice([0x7fffffff, 0xfffffff0, 0x80000000])
    if fmt == "arrow" and len(c) > 20:
        p = rng.choice([8 + 4, len(c) - 10])  # first message length, footer length
        c[p:p+4] = struct.pack("<I", v); return "arrow length at %d = %#x" % (p, v)
    if fmt == "stream" and len(c) > 8:
        c[4:8] = struct.pack("<I", v); return "stream metadata length = %#x" % v
    if fmt == "parquet" and len(c) > 12:
        c[len(c)-8:len(c)-4] = struct.pack("<I", v); return "parquet footer length = %#x" % v
    if fmt == "model" and len(c) > 18:
        if rng.randrange(2):
            c[14:18] = struct.pack("<I", v); return "model header length = %#x" % v
        return edit_header(c, 14, 4, rng)
    if fmt == "due" and len(c) > 20:
        if rng.randrange(2):
            c[12:20] = struct.pack("<Q", (1 << 40)); return "due header length = 2^40"
        return edit_header(c, 12, 8, rng)
    p = rng.randrange(len(c)); c[p] ^= 0xff; return "byte %d inverted" % p

# Header fields a model file could carry, set to values out of all
# proportion to the file (the header is rewritten with its new length).
HEADER_EDITS = [("inducing", 200000), ("extra", [0.2, 1e12]), ("dim", 1 << 27),
                ("features", {"kind": "fp", "radius": 1 << 30, "nbits": 1024, "sigdim": 0}),
                ("features", {"kind": "fp", "radius": 3, "nbits": -5, "sigdim": 1029})]

def edit_header(c, at, width, rng):
    n = int.from_bytes(c[at:at+width], "little")
    try:
        h = json.loads(bytes(c[at+width:at+width+n]))
    except Exception:
        return "header not JSON"
    key, val = rng.choice([e for e in HEADER_EDITS if e[0] in h] or [("mean", float("nan"))])
    h[key] = val
    js = json.dumps(h).encode()
    c[at:] = len(js).to_bytes(width, "little") + js + bytes(c[at+width+n:])
    return "header %s = %s" % (key, json.dumps(val))

def fix_crc(b):
    if len(b) < 14 or not b.startswith(b"DEUPMODEL\n"):
        return b
    body = b[:-4]
    return body + struct.pack("<I", zlib.crc32(body) & 0xffffffff)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("deup"); ap.add_argument("work")
    ap.add_argument("--n", type=int, default=40, help="corrupted copies per base file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
    data = os.environ.get("DEUP_SHARED_DATA", data)
    w = os.path.abspath(a.work); shutil.rmtree(w, ignore_errors=True); os.makedirs(w)
    deup = os.path.abspath(a.deup)
    csv = os.path.join(data, "almanac", "synergy_PC-3.csv")
    def sh(*cmd):
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sh(deup, "data", "import", "--format", "table", "--drug-a", "drug_a_cid", "--drug-b", "drug_b_cid",
       "--cell-line", "cell_line", "--score", "combo_score", "--drugs", os.path.join(data, "almanac", "drugs.csv"),
       "--out", os.path.join(w, "screen"), csv)
    scr = os.path.join(w, "screen")
    arrow = open(os.path.join(scr, "pairs.arrow"), "rb").read()
    flen = struct.unpack("<I", arrow[-10:-6])[0]
    stream = arrow[8:len(arrow) - 10 - flen]
    bases = [("csv", open(csv, "rb").read()), ("csv.gz", gzip.compress(open(csv, "rb").read(), mtime=0)),
             ("arrow", arrow), ("stream", stream), ("parquet", open(os.path.join(scr, "pairs.parquet"), "rb").read())]
    cols = {"csv": ["drug_a_cid", "drug_b_cid"], "csv.gz": ["drug_a_cid", "drug_b_cid"]}
    models = []
    for method in ["deup", "mcdropout", "due"]:
        mp = os.path.join(w, method + ".model")
        sh(deup, "train", "--screen", scr, "--method", method, "--epochs", "3", "--seed", "1", "--out", mp)
        models.append(("due" if method == "due" else "model", method, open(mp, "rb").read()))
    results = []
    for fmt, b in bases:
        ca, cb = cols.get(fmt, ["drug_a_id", "drug_b_id"])
        for i, (c, what) in enumerate([(b, "unchanged (baseline)")] + corruptions(b, rng, fmt, a.n)):
            p = os.path.join(w, "in_%s_%03d.%s" % (fmt, i, "arrow" if fmt == "stream" else fmt))
            open(p, "wb").write(c)
            out = os.path.join(w, "out"); shutil.rmtree(out, ignore_errors=True)
            r = run([deup, "data", "import", "--format", "table", "--drug-a", ca, "--drug-b", cb, "--cell-line", "cell_line",
                     "--score", "combo_score", "--out", out, p], a.timeout)
            results.append(("import " + fmt, len(c), what, c != b) + r)
    for fmt, method, b in models:
        for i, (c, what) in enumerate([(b, "unchanged (baseline)")] + corruptions(b, rng, fmt, a.n)):
            if fmt == "model":
                c = fix_crc(c)
            p = os.path.join(w, "in_%s_%03d.model" % (method, i))
            open(p, "wb").write(c)
            r = run([deup, "predict", "--model", p, "--screen", scr, "--all-pairs", "--out", os.path.join(w, "pred.csv")], a.timeout)
            results.append(("predict " + method, len(c), what, c != b) + r)
    bad = 0
    by = {}
    for (what_run, size, what, changed, kind, rc, secs, cpu, rss, msg) in results:
        k = (what_run, kind)
        n, ms, mr, mc = by.get(k, (0, 0, 0, 0))
        by[k] = (n + 1, max(ms, secs), max(mr, rss), max(mc, cpu))
        if what.startswith("unchanged") and kind != "accepted":
            bad += 1
            print("FAIL %s baseline (%d bytes) not accepted: %s rc=%d: %s" % (what_run, size, kind, rc, msg))
        if kind in ("CRASH", "timeout/killed"):
            bad += 1
            print("FAIL %s (%d bytes, %s): %s rc=%d %.1fs %d KB: %s" % (what_run, size, what, kind, rc, secs, rss, msg))
    print("%-18s %-15s %5s %9s %9s %12s" % ("run", "outcome", "runs", "max wall", "max cpu", "max RSS KB"))
    for (r, kind), (n, ms, mr, mc) in sorted(by.items()):
        print("%-18s %-15s %5d %8.2fs %8.2fs %12d" % (r, kind, n, ms, mc, mr))
    print("%d runs, %d crashes or timeouts" % (len(results), bad))
    sys.exit(1 if bad else 0)

main()
