"""`python -m extract.dev.bench --size-mb 200`: prints throughput (messages/s, MB/s) and
peak memory of `python -m extract --messages-only` (part 1 of the extraction: read,
parse, type, clean, store) with 1 worker, of the whole `python -m extract` (part 2
adds the format parsers and the classifier) with 1 worker and with all cores, of a parse-only
baseline (the standard library's `mailbox` reading every message and decoding its
body) and of `perceval mbox` (GrimoireLab), all on the same archives, plus the ratios.

Everything is measured on two message mixes in turn (`--mix` picks one):

- the bench mix: the demo sample the project wrote (data/sample/*.eml: the seeds, the
  demo messages of every format and kind, the hostile test message) and, when
  ../shared is there (or $SHARED_DIR; `--no-shared` leaves it out), the real peer
  archives of ../shared/mbox and the labelled corpus ../shared/corpus/dev, read where
  they are: about a third of it benchmark reports;
- the check mix, built like the accuracy check's (`check_messages`): real messages
  only, one in 20 a benchmark report (the labelled corpora's positives), the rest
  the peer archives and the corpora's negatives.

The archives are built deterministically from a mix, repeated in a fixed order with
unique Message-IDs until the requested size. Each mix is printed first; the archives are
monthly ones of about `--archive-mb` MB (`--archive-mb 0`: one archive). Every
measured program runs in a child process; its peak memory is the largest sum of RSS
over its process tree, sampled every 50 ms from /proc. Perceval is installed with pip into
.bench/perceval-venv on first use (it is not a project dependency).

A benchmark, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from extract.mail.mbox import read_mbox

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
SHARED = Path(os.environ.get("SHARED_DIR") or REPO.parent / "shared")
PERCEVAL_VENV = REPO / ".bench" / "perceval-venv"
_MID = re.compile(rb"^(Message-ID:[ \t]*<)([^>\r\n]*)>", re.I | re.M)


# ---------------------------------------------------------------- the archive


def own_messages() -> list[bytes]:
    """The demo sample's messages (data/sample, written by the project), in a fixed order."""
    return [path.read_bytes() for path in sorted(SAMPLE.rglob("*.eml"))]


def shared_messages(shared: Path = SHARED) -> list[bytes]:
    """The third-party messages of ../shared (peer archives, the dev corpus), read
    where they are; [] when ../shared is not there."""
    msgs = _peer_messages(shared)
    for path in sorted((shared / "corpus" / "dev").glob("*.txt")):
        msgs.append(_corpus_message(path))
    return msgs


def _peer_messages(shared: Path) -> list[bytes]:
    """The messages of ../shared's peer archives and exports (not the ones made to fail)."""
    msgs: list[bytes] = []
    mbox = shared / "mbox"
    for path in sorted(mbox.glob("**/*.mbox")):
        if "fail" not in path.parts:
            msgs += [m.data for m in read_mbox(path)]
    for path in sorted(mbox.glob("**/*.eml")):
        raw = path.read_bytes()
        msgs.append(raw.split(b"\n", 1)[1] if raw.startswith(b"From ") else raw)
    return msgs


def _corpus_message(path: Path) -> bytes:
    # Corpus files start with "Key: value" lines (Subject, From, Date...) and a blank
    # line: they are messages already, given a Message-ID.
    return f"Message-ID: <{path.stem}@corpus.invalid>\n".encode() + path.read_bytes()


def source_messages(use_shared: bool = True) -> tuple[list[bytes], str]:
    """The message mix, in a fixed order, and a line saying what it is made of."""
    own = own_messages()
    if not own:
        raise SystemExit(f"no sample messages in {SAMPLE} (run tests/make_sample.py)")
    extra = shared_messages() if use_shared else []
    mix = f"message mix: {len(own)} sample messages (data/sample)"
    if extra:
        mix += f" + {len(extra)} third-party messages ({SHARED})"
    elif use_shared:
        mix += f"; {SHARED} not found, so no third-party messages"
    return own + extra, mix


# The check's mix: real messages, one in `CHECK_EVERY` a benchmark report.
CHECK_EVERY = 20


def check_messages(shared: Path = SHARED) -> tuple[list[bytes], str]:
    """A mix built like the accuracy check's: real list messages of ../shared (its
    peer archives and the labelled corpora's negatives as the ordinary mail, the
    corpora's positives as the reports), one message in `CHECK_EVERY` a report. Both
    kinds are cycled until every report has been used once, so the list is long
    (the archive builder repeats it); [] when ../shared is not there."""
    ordinary = _peer_messages(shared)
    reports: list[bytes] = []
    for corpus in sorted((shared / "corpus").glob("dev*")):
        labels = corpus / "labels.jsonl"
        if not labels.exists():
            continue
        for line in labels.read_text(encoding="utf-8").splitlines():
            label = json.loads(line) if line.strip() else None
            path = corpus / f"{label['id']}.txt" if label else None
            if path is None or not path.exists():
                continue
            (reports if label.get("is_benchmark") else ordinary).append(_corpus_message(path))
    if not ordinary or not reports:
        return [], f"check mix: {shared} has no labelled corpus, skipped"
    slots = max(len(reports), -(-len(ordinary) // (CHECK_EVERY - 1)))
    mix: list[bytes] = []
    for k in range(slots):
        for j in range(CHECK_EVERY - 1):
            mix.append(ordinary[(k * (CHECK_EVERY - 1) + j) % len(ordinary)])
        mix.append(reports[k % len(reports)])
    line = (
        f"check mix: {len(ordinary)} ordinary and {len(reports)} benchmark messages of "
        f"{shared}, one message in {CHECK_EVERY} a report"
    )
    return mix, line


def _mboxrd(raw: bytes) -> bytes:
    out = []
    for line in raw.replace(b"\r\n", b"\n").splitlines(keepends=True):
        if line.lstrip(b">").startswith(b"From "):
            line = b">" + line
        out.append(line)
    body = b"".join(out)
    return body if body.endswith(b"\n") else body + b"\n"


def build_archives(
    out_dir: Path, size_mb: float, archive_mb: float, sources: list[bytes] | None = None
) -> tuple[list[Path], int, int]:
    """(archive paths, messages, uncompressed bytes) under out_dir/raw/..."""
    target = int(size_mb * 1024 * 1024)
    per_archive = int(archive_mb * 1024 * 1024) if archive_mb > 0 else target + 1
    if sources is None:
        sources = source_messages()[0]
    paths: list[Path] = []
    total, n = _fill(sources, paths, out_dir, target, per_archive)
    return paths, n, total


def _fill(sources, paths, out_dir, target, per_archive) -> tuple[int, int]:
    total = n = month = current_size = 0
    current = None
    while total < target:
        for raw in sources:
            if total >= target:
                break
            if current is None or current_size >= per_archive:
                if current is not None:
                    current.close()
                year, mon = divmod(month, 12)
                path = (
                    out_dir
                    / "raw"
                    / "bench.apache.org"
                    / "issues"
                    / f"{2000 + year}-{mon + 1:02d}.mbox.gz"
                )
                path.parent.mkdir(parents=True, exist_ok=True)
                current = gzip.open(path, "wb", compresslevel=1)  # noqa: SIM115 - closed below
                paths.append(path)
                current_size = 0
                month += 1
            unique = _MID.sub(rb"\1\2.c%d>" % n, raw, count=1)
            chunk = b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970\n" + _mboxrd(unique) + b"\n"
            current.write(chunk)
            current_size += len(chunk)
            total += len(chunk)
            n += 1
    if current is not None:
        current.close()
    return total, n


# ---------------------------------------------------------------- measuring


def _tree_rss(pid: int) -> int:
    """Sum of RSS (bytes) of pid and its descendants."""
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack += [int(c) for c in f.read().split()]
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return total


def measure(cmd: list[str], **kw) -> tuple[float, int, subprocess.CompletedProcess]:
    """(seconds, peak tree RSS in bytes, completed process)."""
    # Output goes to files, not pipes: a chatty child (perceval logs a warning per
    # dropped message) would block on a full pipe while we only sample its memory.
    with tempfile.TemporaryFile("w+") as out_f, tempfile.TemporaryFile("w+") as err_f:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, text=True, **kw)
        peak = 0
        while proc.poll() is None:
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read(), err_f.read()
    return seconds, peak, subprocess.CompletedProcess(cmd, proc.returncode, out, err)


# The library entry point, in a process of its own so that its peak memory is its own.
OURS_EXTRACT = r"""
import sys
import extract
work, db, workers, *flags = sys.argv[1:]
summary = extract.run(work, db=db, workers=int(workers), full=True,
                      messages_only="--messages-only" in flags)
print(summary.line)
"""

# The same run on a Dask LocalCluster (extract/cluster.py); its Parquet dataset is
# written by another process, so that the run's time compares with the pool's.
OURS_DASK = r"""
import sys
import extract
work, db, scheduler = sys.argv[1:]
summary = extract.run(work, db=db, full=True, scheduler=scheduler)
print(summary.line)
"""
OURS_PARQUET = r"""
import sys
import duckdb
from extract.outputs.parquet import write_dataset
db, dataset = sys.argv[1:]
con = duckdb.connect(db)
write_dataset(con, dataset)
con.close()
"""


def bench_dask(work: Path, workers: int, n_bytes: int, results: dict, report) -> None:
    """The Dask path with `workers` local worker processes, next to the built-in pool
    of as many (its overhead), and the size of the hive-partitioned Parquet dataset of
    its database; skipped when Dask (the cluster extra) is not installed."""
    import importlib.util

    name = f"extract, Dask local:{workers}"
    if importlib.util.find_spec("distributed") is None:
        print(f"{name}: skipped, Dask is not installed (make install-cluster)")
        return
    db, dataset = work / "dask.duckdb", work / "dataset"
    cmd = [sys.executable, "-c", OURS_DASK, str(work), str(db), f"local:{workers}"]
    seconds, peak, proc = measure(cmd, cwd=REPO)
    if proc.returncode:
        print(f"{name} failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
        return
    fields = dict(kv.split("=", 1) for kv in proc.stdout.split() if "=" in kv)
    n, run_s = int(fields["messages"]), float(fields["seconds"])
    report(name, seconds, peak, n)
    line = f"{'':<34} {n / run_s:,.0f} msg/s once the cluster is up ({run_s:.1f} s)"
    pool = results.get(f"extract, {workers} worker(s)")
    if pool:
        line += f"; overhead against the pool: {seconds / pool[0] - 1:+.0%} wall"
    print(line)
    export_s, _, proc = measure(
        [sys.executable, "-c", OURS_PARQUET, str(db), str(dataset)], cwd=REPO
    )
    if proc.returncode:
        print(f"Parquet export failed:\n{proc.stderr[-2000:]}", file=sys.stderr)
    size = sum(p.stat().st_size for p in dataset.glob("**/*.parquet"))
    print(
        f"{'':<34} Parquet dataset {size / 1e6:,.1f} MB = {size / n_bytes:.2f} MB per MB of "
        f"mbox (written in {export_s:.1f} s)"
    )
    db.unlink(missing_ok=True)
    shutil.rmtree(dataset, ignore_errors=True)


BASELINE = r"""
import gzip, mailbox, shutil, sys, tempfile
n = 0
for path in sys.argv[1:]:
    with tempfile.NamedTemporaryFile(suffix=".mbox") as plain:
        with gzip.open(path, "rb") as src:
            shutil.copyfileobj(src, plain)
        plain.flush()
        box = mailbox.mbox(plain.name, create=False)
        for key in box.iterkeys():
            msg = box.get_message(key)
            for part in msg.walk():
                if part.is_multipart():
                    continue
                payload = part.get_payload(decode=True) or b""
                try:
                    payload.decode(part.get_content_charset() or "utf-8", "replace")
                except LookupError:
                    payload.decode("latin-1")
            n += 1
        box.close()
print(n)
"""


def stage_breakdown(sample: list[bytes]) -> dict[str, float]:
    """Milliseconds per message spent in each stage of the pipeline, in this process."""
    from extract.mail.clean import clean_body
    from extract.mail.kinds import message_kind
    from extract.mail.message import parse_message
    from extract.results.classify import classify
    from extract.results.formats import extract_results
    from extract.results.message import extraction_text

    spent = dict.fromkeys(("parse", "kind", "clean", "formats", "classify"), 0.0)
    for raw in sample:
        t0 = time.perf_counter()
        try:
            pm = parse_message(raw)
        except Exception:
            continue
        t1 = time.perf_counter()
        kind = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
        t2 = time.perf_counter()
        body = extraction_text(clean_body(pm.text, kind.kind))
        t3 = time.perf_counter()
        tables = extract_results(body)
        t4 = time.perf_counter()
        classify(body, tables, subject=pm.subject, kind=kind.kind)
        t5 = time.perf_counter()
        for stage, dt in zip(spent, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            spent[stage] += dt
    return {stage: 1000 * dt / len(sample) for stage, dt in spent.items()}


def _ordinary(sample: list[bytes]) -> list[tuple[str, str | None, str]]:
    """(text, subject, kind) of the messages of `sample` that the pipeline rejects
    outright: no table with measurements, not a benchmark."""
    from extract.mail.clean import clean_body
    from extract.mail.kinds import message_kind
    from extract.mail.message import parse_message
    from extract.results.message import message_results

    out = []
    for raw in sample:
        try:
            pm = parse_message(raw)
        except Exception:
            continue
        kind = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
        found = message_results(clean_body(pm.text, kind.kind), subject=pm.subject, kind=kind.kind)
        if any(t.measurements for t in found.tables):
            continue
        if not found.verdict.is_benchmark:
            out.append((found.sample, pm.subject, kind.kind))
    return out


def gate_costs(sample: list[bytes]) -> dict[str, float]:
    """The gate on a message mix: the share of messages it lets through, and the
    median µs a message costs from its cleaned body to its verdict (the pipeline's
    `message_results`: gate, then for a passed message the readers, the number model
    and the verdict), for the messages it rejects and for those it passes: what a
    message costs the first time it is seen. Before each call the caches that keep a
    text's answers (the prefilter's, the headings') are emptied: the best of three
    calls then measures the first one less the machine's other jobs, not two repeats
    that find their answers kept."""
    import statistics

    from extract.mail.clean import clean_body
    from extract.mail.kinds import message_kind
    from extract.mail.message import parse_message
    from extract.results.message import gate_body, message_results

    bodies = []
    for raw in sample:
        try:
            pm = parse_message(raw)
        except Exception:
            continue
        kind = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
        bodies.append((clean_body(pm.text, kind.kind), pm.subject, kind.kind))
    rejected, passed = [], []
    for body, subject, kind in bodies:
        best = float("inf")
        for _ in range(3):  # (the best of three: other jobs on the machine only add)
            forget_texts()
            t = time.perf_counter()
            message_results(body, subject=subject, kind=kind)
            best = min(best, time.perf_counter() - t)
        (passed if gate_body(body).passes else rejected).append(1e6 * best)
    forget_texts()
    n = max(1, len(bodies))
    return {
        "pass rate": len(passed) / n,
        "rejected µs": statistics.median(rejected) if rejected else 0.0,
        "passed µs": statistics.median(passed) if passed else 0.0,
        "messages": float(len(bodies)),
    }


def forget_texts() -> None:
    """Empty the caches that keep answers by a message's text, so that the next call
    on a text costs what its first call did. (Caches by a word or by the set of
    names a scan found stay: every message shares them.)"""
    from extract.results import describe, prefilter

    prefilter._forget()
    heading = getattr(describe, "_heading", None)
    if heading is not None and hasattr(heading, "cache_clear"):
        heading.cache_clear()


def reject_cost(ordinary: list[tuple[str, str | None, str]], plain: bool = False) -> float:
    """Microseconds per message to find no results in an ordinary message and reject
    it (format parsers and classifier). `plain=True`: without the prefilter and the
    early exit, every parser and feature run (what they save)."""
    from extract.results.classify import classify
    from extract.results.formats import extract_results

    kw = {"plain": True} if plain else {}
    best = float("inf")
    for _ in range(3):  # the best of three: other jobs on the machine only add
        t = time.perf_counter()
        for body, subject, kind in ordinary:
            classify(body, extract_results(body, **kw), subject=subject, kind=kind, **kw)
        best = min(best, time.perf_counter() - t)
    return 1e6 * best / max(1, len(ordinary))


def reject_breakdown(ordinary: list[tuple[str, str | None, str]]) -> dict[str, float]:
    """Where `reject_cost` goes, in µs per message: the prefilter's scan, the trigger
    checks, each format parser that ran (the costliest first) and the classifier."""
    from extract.results import formats, prefilter
    from extract.results.classify import classify

    spent: dict[str, float] = {}
    clock = time.perf_counter
    for body, subject, kind in ordinary:
        prefilter._forget()
        t = clock()
        prefilter.scan(body)
        spent["prefilter scan"] = spent.get("prefilter scan", 0.0) + clock() - t
        tables = formats.extract_results(body, spent=spent)
        t = clock()
        classify(body, tables, subject=subject, kind=kind)
        spent["classifier"] = spent.get("classifier", 0.0) + clock() - t
    n = max(1, len(ordinary))
    return {k: 1e6 * v / n for k, v in sorted(spent.items(), key=lambda kv: -kv[1])}


def _has_plain_path() -> bool:
    import inspect

    from extract.results.formats import extract_results

    return "plain" in inspect.signature(extract_results).parameters


OURS_PARSE_ONLY = r"""
import sys
from extract.mail.clean import clean_body
from extract.mail.kinds import message_kind
from extract.mail.message import ParseError, parse_message
from extract.mail.mbox import read_mbox
n = 0
for path in sys.argv[1:]:
    for raw in read_mbox(path):
        try:
            pm = parse_message(raw.data, raw.envelope_line)
        except ParseError:
            continue
        kind = message_kind(pm.subject, pm.from_name, pm.from_address, pm.text, pm.headers)
        clean_body(pm.text, kind.kind)
        n += 1
print(n)
"""


MESSAGES_ONLY = "extract --messages-only, 1 worker"


def ensure_perceval() -> Path | None:
    exe = PERCEVAL_VENV / "bin" / "perceval"
    if exe.exists():
        return exe
    print("installing perceval into .bench/perceval-venv ...", file=sys.stderr)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(PERCEVAL_VENV)], check=True)
        # (pip's output only when it fails: a local index makes it warn per package)
        subprocess.run(
            [str(PERCEVAL_VENV / "bin" / "pip"), "install", "-q", "perceval"],
            check=True,
            capture_output=True,
            text=True,
        )
    except subprocess.CalledProcessError as exc:
        print(f"perceval not installed: {exc}\n{exc.stderr or ''}", file=sys.stderr)
        return None
    return exe if exe.exists() else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m extract.dev.bench")
    ap.add_argument("--size-mb", type=float, default=200, help="uncompressed mbox size")
    ap.add_argument("--archive-mb", type=float, default=8, help="size of each monthly archive")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="'all cores' run")
    ap.add_argument("--no-perceval", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the built archives in .bench/")
    ap.add_argument(
        "--no-shared", action="store_true", help="only the sample's messages, not ../shared's"
    )
    ap.add_argument(
        "--mix",
        choices=("bench", "check", "both"),
        default="both",
        help="the bench mix (sample + ../shared), the check's (1 in 20 a report), or both",
    )
    args = ap.parse_args(argv)
    mixes = []
    if args.mix in ("bench", "both"):
        mixes.append(("bench mix", *source_messages(use_shared=not args.no_shared)))
    if args.mix in ("check", "both"):
        check, line = check_messages() if not args.no_shared else ([], "check mix: --no-shared")
        if check:
            mixes.append(("check mix", check, line))
        else:
            print(line)
    for title, sources, line in mixes:
        print(f"== {title}\n{line}")
        if code := bench_mix(sources, args):
            return code
    return 0


def bench_mix(sources: list[bytes], args) -> int:
    """Every measurement of one message mix, on one archive built from it."""
    work = Path(tempfile.mkdtemp(prefix="bench-", dir=REPO / ".bench" if args.keep else None))
    try:
        t = time.perf_counter()
        paths, n_msgs, n_bytes = build_archives(work, args.size_mb, args.archive_mb, sources)
        mb = n_bytes / 1e6
        print(
            f"archive: {n_msgs:,} messages, {mb:,.1f} MB of mbox in {len(paths)} archive(s) "
            f"(built in {time.perf_counter() - t:.1f} s)"
        )
        results: dict[str, tuple[float, int, int]] = {}

        def report(name: str, seconds: float, peak: int, n: int) -> None:
            results[name] = (seconds, peak, n)
            print(
                f"{name:<34} {n / seconds:>9,.0f} msg/s  {mb / seconds:>7.2f} MB/s  "
                f"peak {peak / 1e6:>6.0f} MB  ({seconds:.1f} s, {n:,} messages)",
                flush=True,
            )

        runs = [(MESSAGES_ONLY, 1, ["--messages-only"])]
        runs += [(f"extract, {w} worker(s)", w, []) for w in sorted({1, args.workers})]
        for name, workers, extra in runs:
            db = work / f"w{workers}.duckdb"
            cmd = [sys.executable, "-c", OURS_EXTRACT, str(work), str(db), str(workers), *extra]
            seconds, peak, proc = measure(cmd, cwd=REPO)
            if proc.returncode:
                print(proc.stderr[-2000:], file=sys.stderr)
                return 1
            # (the summary line's `key=value` fields; anything else printed is not one)
            fields = dict(kv.split("=", 1) for kv in proc.stdout.split() if "=" in kv)
            report(name, seconds, peak, int(fields["messages"]))
            db_size = sum(p.stat().st_size for p in work.glob(db.name + "*"))
            print(
                f"{'':<34} database {db_size / 1e6:,.1f} MB = "
                f"{db_size / n_bytes:.2f} MB per MB of mbox"
            )
            db.unlink(missing_ok=True)
        bench_dask(work, args.workers, n_bytes, results, report)
        for name, script in (
            ("ours: read+parse+clean only", OURS_PARSE_ONLY),
            ("baseline: stdlib mailbox", BASELINE),
        ):
            seconds, peak, proc = measure(
                [sys.executable, "-c", script, *map(str, paths)], cwd=REPO
            )
            report(name, seconds, peak, int(proc.stdout.strip() or 0))

        if not args.no_perceval and (exe := ensure_perceval()):
            mbox_dir = work / "raw" / "bench.apache.org" / "issues"
            out_file = work / "perceval.jsonl"
            seconds, peak, proc = measure(
                [
                    str(exe),
                    "mbox",
                    "http://bench",
                    str(mbox_dir),
                    "--json-line",
                    "-o",
                    str(out_file),
                ]
            )
            n = out_file.read_bytes().count(b"\n") if out_file.exists() else 0
            report("perceval mbox", seconds, peak, n)

        # (500 messages at least, 1,000 at most: the check mix's list is long)
        sample = (list(sources) * 2)[: max(min(len(sources), 1000), 500)]
        stage_breakdown(sample)  # warm up: imports, regex compilation, dateparser data
        per_stage = stage_breakdown(sample)
        print(
            "ms per message by stage (1 process, the message mix): "
            + ", ".join(f"{k} {v:.2f}" for k, v in per_stage.items())
        )
        g = gate_costs(sample)
        print(
            f"the gate lets {g['pass rate']:.1%} of the mix's {g['messages']:.0f} messages"
            f" through; from cleaned body to verdict, median µs a message seen the first"
            f" time (its text's cached answers emptied): rejected by the gate"
            f" {g['rejected µs']:.0f}, passed {g['passed µs']:.0f}"
        )
        ordinary = _ordinary(sample)
        cost = f"{reject_cost(ordinary):.0f} µs"
        if _has_plain_path():
            cost += f" ({reject_cost(ordinary, plain=True):.0f} µs with every parser and feature)"
        print(
            f"without the gate, rejecting an ordinary message (formats + classifier,"
            f" {len(ordinary)} of the mix's messages with no results): {cost}"
        )
        parts = reject_breakdown(ordinary)
        print(
            "  of which (µs per message): "
            + ", ".join(f"{k} {v:.0f}" for k, v in list(parts.items())[:8])
        )
        print("ratios (messages/s):")
        rate = {name: n / seconds for name, (seconds, _, n) in results.items() if n}
        for mine in (MESSAGES_ONLY, "extract, 1 worker(s)", "ours: read+parse+clean only"):
            for name in rate:
                if name != mine and not name.startswith(("extract", "ours")):
                    print(f"  {mine} / {name}: {rate[mine] / rate[name]:.2f}x")
        # what finding the results costs: part 2's target is to stay within 25 % of part 1
        print(
            f"  extract, 1 worker(s) / {MESSAGES_ONLY}: "
            f"{rate['extract, 1 worker(s)'] / rate[MESSAGES_ONLY]:.2f}x"
        )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
