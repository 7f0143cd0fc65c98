#!/usr/bin/env python3
"""Mutation fuzzer for diskdash's inputs: tool output given to `import`, and
records given to `check` and `report`.

Every child runs with an address-space limit (RLIMIT_AS) and a time limit;
run the whole script inside a memory-capped cgroup as well (see
tests/fuzz/README.md). A case is held when diskdash neither panics, nor dies
of a signal, nor runs out of its memory or time, when every record `import`
writes passes `check`, and when the site `report` writes stays under a size
bound. Faults are copied to --keep with the command that showed them.

    tests/fuzz/fuzz.py --bin target/release/diskdash --cases 2000 --seed 1
"""

import argparse
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL_FIXTURES = ["tests/fixtures/fio", "tests/fixtures/dd", "tests/fixtures/ioping",
                 "tests/fixtures/bonnie", "tests/fixtures/fio-qd", "tests/fixtures/yabs",
                 "tests/fixtures/benchsh"]
RECORD_FIXTURES = ["sample-results", "tests/fixtures/study-2026"]

EDGE_NUMBERS = ["5e-324", "-5e-324", "2.2250738585072014e-308", "1e308", "-1", "0", "-0",
                "1.7976931348623157e308", "18446744073709551616", "9007199254740993",
                "1e-9", "3600", "NaN", "nan", "inf", "-inf", "1e8", "0.0000001"]
EDGE_TEXT = ["\x1b[31mred\x1b[0m", "\x07\x08\u202e", "x" * 100_000, "", "../../etc/passwd",
             "<script>alert(1)</script>", "=cmd|' /C calc'!A0", "\u00e9\u00e8", "\\u0000", "a\nb\r\nc"]


def limits(mem_mib):
    def apply():
        cap = mem_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.setsid()
    return apply


def run(argv, mem_mib, timeout):
    """(verdict, returncode, stderr tail); verdict is None when the child ended by itself."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=limits(mem_mib))
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return "hang", None, b""
    err = err[-2000:]
    if p.returncode < 0:
        return f"signal {-p.returncode}", p.returncode, err
    if p.returncode == 101 or b"panicked" in err:
        return "panic", p.returncode, err
    if b"memory allocation" in err or b"out of memory" in err.lower():
        return "out of memory", p.returncode, err
    return None, p.returncode, err


def size_of(path):
    total = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(dirpath, f)).st_size
            except OSError:
                pass
    return total


def mutate_text(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        if not data:
            data = bytearray(b"x")
        i = rng.randrange(len(data))
        if kind == 0:  # a number replaced by an edge value
            digits = [j for j, b in enumerate(data) if chr(b).isdigit()]
            if digits:
                i = rng.choice(digits)
                j = i
                while j < len(data) and (chr(data[j]).isdigit() or data[j] in b".eE+-"):
                    j += 1
                while i > 0 and (chr(data[i - 1]).isdigit() or data[i - 1] in b"."):
                    i -= 1
                data[i:j] = rng.choice(EDGE_NUMBERS).encode()
        elif kind == 1:
            data[i] = rng.randrange(256)
        elif kind == 2:
            del data[i:i + rng.randint(1, 64)]
        elif kind == 3:
            span = data[i:i + rng.randint(1, 2000)]
            data[i:i] = span * rng.randint(1, 50)
        elif kind == 4:
            data[i:i] = rng.choice(EDGE_TEXT).encode("utf-8", "surrogatepass")
        else:
            del data[i:]
    return bytes(data)


def finite_edges():
    return [n for n in EDGE_NUMBERS if n not in ("NaN", "nan", "inf", "-inf")]


def mutate_metrics(value, rng):
    """Sets a few of a record's metrics (percentiles among them) to edge values."""
    metrics = value.get("metrics") if isinstance(value, dict) else None
    if not isinstance(metrics, dict) or not metrics:
        return value
    spread = sorted(m for m in metrics if "_p" in m and isinstance(metrics[m], dict))
    if len(spread) >= 2 and rng.random() < 0.3:  # one distribution over an absurd range
        low, high = rng.sample(spread, 2)
        metrics[low]["value"] = json.loads(rng.choice(["5e-324", "2.2250738585072014e-308", "1e-9", "0"]))
        metrics[high]["value"] = json.loads(rng.choice(["3600", "1e6", "1e7", "1e300"]))
        return value
    for name in rng.sample(sorted(metrics), min(len(metrics), rng.randint(1, 4))):
        if isinstance(metrics[name], dict):
            metrics[name]["value"] = json.loads(rng.choice(finite_edges()))
    return value


def mutate_json(value, rng):
    """Replaces, removes or grows one leaf of a parsed record."""
    if rng.random() < 0.4:
        return mutate_metrics(value, rng)
    path = []
    node = value
    while isinstance(node, (dict, list)) and node and rng.random() < 0.85:
        key = rng.choice(list(node.keys())) if isinstance(node, dict) else rng.randrange(len(node))
        path.append((node, key))
        node = node[key]
    if not path:
        return value
    parent, key = path[-1]
    roll = rng.random()
    if roll < 0.1 and isinstance(parent, dict):
        del parent[key]
    elif isinstance(node, (int, float)) or roll < 0.6:
        parent[key] = json.loads(rng.choice(finite_edges()))
    elif isinstance(node, list):
        parent[key] = node * rng.randint(2, 5000)
    else:
        parent[key] = rng.choice(EDGE_TEXT)
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(ROOT / "target/release/diskdash"))
    ap.add_argument("--cases", type=int, default=1000, help="cases of each kind")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mem-mib", type=int, default=1024, help="address-space limit of each child")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per child")
    ap.add_argument("--site-mib", type=int, default=64, help="largest site a one-record report may write")
    ap.add_argument("--keep", default="fuzz-faults", help="where faulting inputs are copied")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    tool_files = sorted(p for d in TOOL_FIXTURES for p in (ROOT / d).rglob("*")
                        if p.is_file() and p.name != "README.md")
    records = sorted(p for d in RECORD_FIXTURES for p in (ROOT / d).rglob("*.json") if p.is_file())
    # and the records of every tool fixture, which carry fio's percentiles
    imported = Path(tempfile.mkdtemp(prefix="diskdash-fuzz-corpus-"))
    for i, src in enumerate(tool_files):
        run([args.bin, "import", str(src), "--out", str(imported / str(i)), "--provider", "p",
             "--offering", "o"], args.mem_mib, args.timeout)
    records += sorted(imported.rglob("*.json"))
    keep = Path(args.keep)
    counts = {"import": [0, 0], "record": [0, 0]}
    faults = []

    def fault(kind, n, what, inputs):
        dest = keep / f"{kind}-{n}"
        dest.mkdir(parents=True, exist_ok=True)
        for src in inputs:
            if src.is_dir():
                shutil.copytree(src, dest / src.name, dirs_exist_ok=True)
            else:
                shutil.copy(src, dest)
        (dest / "what.txt").write_text(what)
        faults.append(f"{kind} {n}: {what.splitlines()[0]}")

    def report(kind, n, records_dir, work, inputs):
        site = work / "site"
        verdict, rc, err = run([args.bin, "report", str(records_dir), "--out", str(site)],
                               args.mem_mib, args.timeout)
        if verdict:
            fault(kind, n, f"report: {verdict}\n{err.decode(errors='replace')}", inputs)
            return False
        if rc != 0:
            fault(kind, n, f"report refuses what check accepts: exit {rc}\n{err.decode(errors='replace')}",
                  inputs)
            return False
        if site.exists() and size_of(site) > args.site_mib << 20:
            fault(kind, n, f"report: site of {size_of(site)} bytes", inputs)
            return False
        return True

    for n in range(args.cases):
        with tempfile.TemporaryDirectory(prefix="diskdash-fuzz-") as tmp:
            work = Path(tmp)
            src = rng.choice(tool_files)
            case = work / ("in-" + src.name)
            case.write_bytes(mutate_text(src.read_bytes(), rng))
            out = work / "records"
            counts["import"][0] += 1
            verdict, rc, err = run([args.bin, "import", str(case), "--out", str(out),
                                    "--provider", "p", "--offering", "o"], args.mem_mib, args.timeout)
            if verdict:
                fault("import", n, f"import {src.name}: {verdict}\n{err.decode(errors='replace')}", [case])
                continue
            if out.exists() and any(out.iterdir()):
                verdict, rc, err = run([args.bin, "check", str(out)], args.mem_mib, args.timeout)
                if verdict or rc != 0:
                    fault("import", n, f"check refuses what import wrote from {src.name}: "
                          f"{verdict or rc}\n{err.decode(errors='replace')}", [case, out])
                    continue
                if not report("import", n, out, work, [case]):
                    continue
            counts["import"][1] += 1

    for n in range(args.cases):
        with tempfile.TemporaryDirectory(prefix="diskdash-fuzz-") as tmp:
            work = Path(tmp)
            src = rng.choice(records)
            recs = work / "records"
            recs.mkdir()
            value = json.loads(src.read_text())
            for _ in range(rng.randint(1, 3)):
                value = mutate_json(value, rng)
            case = recs / src.name
            case.write_text(json.dumps(value))
            counts["record"][0] += 1
            verdict, rc, err = run([args.bin, "check", str(recs)], args.mem_mib, args.timeout)
            if verdict:
                fault("record", n, f"check {src.name}: {verdict}\n{err.decode(errors='replace')}", [case])
                continue
            if rc == 0 and not report("record", n, recs, work, [case]):
                continue
            counts["record"][1] += 1

    shutil.rmtree(imported, ignore_errors=True)
    for kind, (tried, held) in counts.items():
        print(f"{kind}: {tried} tried, {held} held")
    for f in faults:
        print("fault:", f)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
