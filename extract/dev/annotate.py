"""`python -m extract.dev.annotate`: annotate every measured number of a labelled
message, for learning which numbers are measurements (issue 25).

The corpora's `expect` lists are samples (2-6 numbers a message). Learning which
numbers of a message are measurements needs all of them: each measured number of a
positive message, as its character span in the message body (the corpus file after
its header block; for the seeds, the whole file), with its label, metric and unit.
Every other number of that message is then a non-measurement. Negative messages need
no annotation: none of their numbers is a measurement.

The annotations are the project's own data (ids, offsets, short values and names, no
message text) in `extract/dev/annotations/<set>.jsonl`, one message a line:

    {"id": "x-0001", "pass": 1, "numbers": [{"span": [120, 126], "written": "32.993",
     "label": "...", "metric": "Score", "unit": "ms/op", "variant": null}]}

`pass` is 1 once a message is annotated and 2 once a second reader has checked it.

Commands:

    show SET ID         the body with line numbers, then a draft: the extractor's
                        measurements as entries to edit (JSON, one entry a line);
                        `--stored`: the stored annotation instead
    put SET ID FILE     store the entries of FILE (a JSON list, `-` for stdin) for
                        the message; each entry is {"line": L, "written": W, "n": K,
                        "label", "metric", "unit", "variant"}: the K-th (1-based,
                        default 1) free-standing occurrence of W on body line L;
                        `--pass 2` marks the second reading
    status [SET]        which positives are annotated, and in which pass

A measured number is a value a run produced: a time, a rate, a latency, a size or
memory it used, a speed-up, a percentage change, a count of things the run did when
that count is the result. Not measured: settings and parameters (threads, sizes,
iterations asked for), iteration or sample counts (JMH `Cnt`, go's `b.N`), the error,
stdev or interval of a measured value (it belongs to that value), versions, dates,
ids, line numbers, hardware, targets and expectations, numbers quoted from others.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from extract.dev.corpus import (
    CorpusMessage,
    corpus_kind,
    corpus_sets,
    read_labels,
    read_message,
)
from extract.mail.clean import clean_body
from extract.results.message import message_results

HERE = Path(__file__).resolve().parent / "annotations"
SEEDS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "seeds"
FIELDS = ("label", "metric", "unit", "variant")


# ---------------------------------------------------------------- messages


def set_messages(name: str) -> dict[str, CorpusMessage]:
    """The positive messages of a set by id: `dev`, `dev2` (../shared/corpus) or
    `seeds` (the five seed messages in tests/fixtures/seeds)."""
    if name == "seeds":
        return {
            p.stem.split("_")[0]: CorpusMessage(p.stem.split("_")[0], {}, p.read_text("utf-8"))
            for p in sorted(SEEDS.glob("*.txt"))
        }
    corpus = corpus_sets().get(name)
    if corpus is None:
        raise SystemExit(
            f"annotate: no labelled set {name!r} (have: seeds, {', '.join(corpus_sets())})"
        )
    return {
        ident: read_message(corpus / f"{ident}.txt")
        for ident, label in sorted(read_labels(corpus).items())
        if label["is_benchmark"]
    }


def message_kind_of(msg: CorpusMessage) -> str:
    return corpus_kind(msg) if msg.headers else "mail"


# ---------------------------------------------------------------- offsets


class ToRaw:
    """Offsets in a cleaned body -> offsets in the raw body it was cleaned from, or
    None for a character cleaning made (a rejoined line's join). A cleaned body that
    is a part of the raw one is a shift; else the two are aligned character by
    character (difflib; corpus bodies are small, and this runs only in dev tools)."""

    def __init__(self, raw: str, cleaned: str):
        self.shift = raw.find(cleaned) if cleaned else 0
        self.blocks: list[tuple[int, int, int]] = []
        if self.shift < 0:
            matcher = difflib.SequenceMatcher(None, cleaned, raw, autojunk=False)
            self.blocks = [tuple(b) for b in matcher.get_matching_blocks() if b.size]

    def __call__(self, pos: int) -> int | None:
        if self.shift >= 0:
            return pos + self.shift
        k = bisect_right(self.blocks, (pos, float("inf"), 0)) - 1
        if k < 0:
            return None
        a, b, size = self.blocks[k]
        return b + pos - a if pos < a + size else None


def line_starts(text: str) -> list[int]:
    starts, pos = [], 0
    for line in text.split("\n"):
        starts.append(pos)
        pos += len(line) + 1
    return starts


def free_occurrences(line: str, written: str) -> list[int]:
    """Columns where `written` stands on its own in `line` (not inside a longer number)."""
    out, i = [], line.find(written)
    while i >= 0:
        before = line[i - 1] if i > 0 else ""
        after = line[i + len(written) : i + len(written) + 2]
        glued_before = written[:1].isdigit() and (before.isdigit() or before == ".")
        glued_after = written[-1:].isdigit() and (
            after[:1].isdigit() or (after[:1] == "." and after[1:2].isdigit())
        )
        if not glued_before and not glued_after:
            out.append(i)
        i = line.find(written, i + 1)
    return out


@dataclass(slots=True)
class Entry:
    line: int
    written: str
    n: int = 1
    label: str | None = None
    metric: str | None = None
    unit: str | None = None
    variant: str | None = None


def resolve(body: str, entry: Entry) -> tuple[int, int]:
    """The span of an entry in the body; ValueError says what does not fit."""
    lines = body.split("\n")
    if not 1 <= entry.line <= len(lines):
        raise ValueError(f"line {entry.line} is not in the body (1..{len(lines)})")
    cols = free_occurrences(lines[entry.line - 1], entry.written)
    if len(cols) < entry.n:
        raise ValueError(
            f"line {entry.line} has {len(cols)} free-standing {entry.written!r}, not {entry.n}:"
            f" {lines[entry.line - 1][:120]!r}"
        )
    start = line_starts(body)[entry.line - 1] + cols[entry.n - 1]
    return start, start + len(entry.written)


def entry_at(body: str, span: tuple[int, int], **fields) -> Entry:
    """The line-based entry of a span of the body."""
    starts = line_starts(body)
    k = bisect_right(starts, span[0]) - 1
    line = body.split("\n")[k]
    written = body[span[0] : span[1]]
    col = span[0] - starts[k]
    n = (
        free_occurrences(line, written).index(col) + 1
        if col in free_occurrences(line, written)
        else 1
    )
    return Entry(k + 1, written, n, **fields)


# ---------------------------------------------------------------- storage


def annotation_file(name: str) -> Path:
    return HERE / f"{name}.jsonl"


def load(name: str) -> dict[str, dict]:
    path = annotation_file(name)
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["id"]] = row
    return out


def save(name: str, rows: dict[str, dict]) -> None:
    path = annotation_file(name)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for ident in sorted(rows):
            f.write(json.dumps(rows[ident], ensure_ascii=False) + "\n")
    tmp.replace(path)


# ---------------------------------------------------------------- commands


def draft(msg: CorpusMessage) -> list[Entry]:
    """The extractor's measurements of a message as entries (spans in the raw body)."""
    kind = message_kind_of(msg)
    cleaned = clean_body(msg.body, kind)
    found = message_results(cleaned, subject=msg.headers.get("Subject"), kind=kind)
    to_raw = ToRaw(msg.body, cleaned)
    out = []
    for table in found.tables:
        for m in table.measurements:
            if m.span is None:
                continue
            start = to_raw(found.to_body(m.span[0]))
            if start is None or msg.body[start : start + len(m.written)] != m.written:
                continue
            out.append(
                entry_at(
                    msg.body,
                    (start, start + len(m.written)),
                    label=m.label,
                    metric=m.metric,
                    unit=m.unit,
                    variant=m.variant,
                )
            )
    return out


def stored(name: str, msg: CorpusMessage) -> list[Entry] | None:
    """The message's stored annotation as entries, or None when it has none."""
    row = load(name).get(msg.id)
    if row is None:
        return None
    return [
        entry_at(msg.body, tuple(n["span"]), **{f: n.get(f) for f in FIELDS})
        for n in row["numbers"]
    ]


def show(name: str, ident: str, out=sys.stdout, *, from_store: bool = False) -> None:
    msg = set_messages(name)[ident]
    for k, line in enumerate(msg.body.split("\n"), 1):
        print(f"{k:4d}| {line}", file=out)
    entries = stored(name, msg) if from_store else None
    if entries is None:
        print("\n--- draft (the extractor's measurements; edit, then `put`):", file=out)
        entries = draft(msg)
    else:
        row = load(name)[ident]
        print(f"\n--- stored annotation (pass {row.get('pass', 1)}; edit, then `put`):", file=out)
    print("[", file=out)
    for k, e in enumerate(entries):
        comma = "," if k < len(entries) - 1 else ""
        print("  " + json.dumps(_entry_json(e), ensure_ascii=False) + comma, file=out)
    print("]", file=out)


def _entry_json(e: Entry) -> dict:
    d = {"line": e.line, "written": e.written}
    if e.n != 1:
        d["n"] = e.n
    for f in FIELDS:
        d[f] = getattr(e, f)
    return d


def put(name: str, ident: str, entries: list[dict], passed: int = 1) -> list[dict]:
    msg = set_messages(name).get(ident)
    if msg is None:
        raise SystemExit(f"annotate: {ident} is not a positive message of {name}")
    numbers, problems = [], []
    for raw in entries:
        e = Entry(
            int(raw["line"]),
            str(raw["written"]),
            int(raw.get("n", 1)),
            **{f: raw.get(f) for f in FIELDS},
        )
        try:
            span = resolve(msg.body, e)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        numbers.append(
            {"span": list(span), "written": e.written, **{f: getattr(e, f) for f in FIELDS}}
        )
    if problems:
        raise SystemExit("annotate: nothing stored; fix these entries:\n  " + "\n  ".join(problems))
    spans = sorted(tuple(n["span"]) for n in numbers)
    if len(set(spans)) != len(spans):
        raise SystemExit("annotate: nothing stored; two entries point at the same number")
    rows = load(name)
    rows[ident] = {"id": ident, "pass": passed, "numbers": sorted(numbers, key=lambda n: n["span"])}
    save(name, rows)
    return numbers


def status(names: list[str]) -> None:
    for name in names:
        rows = load(name)
        msgs = set_messages(name)
        done = [i for i in msgs if i in rows]
        second = [i for i in done if rows[i].get("pass", 1) >= 2]
        print(
            f"{name}: {len(done)}/{len(msgs)} positives annotated, {len(second)} checked twice,"
            f" {sum(len(rows[i]['numbers']) for i in done)} numbers"
        )
        missing = [i for i in msgs if i not in rows]
        if missing:
            print("  not yet: " + " ".join(missing))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m extract.dev.annotate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("show")
    p.add_argument("set")
    p.add_argument("id")
    p.add_argument("--stored", action="store_true", help="the stored annotation, not a draft")
    p = sub.add_parser("put")
    p.add_argument("set")
    p.add_argument("id")
    p.add_argument("file")
    p.add_argument("--pass", dest="passed", type=int, default=1, choices=(1, 2))
    p = sub.add_parser("status")
    p.add_argument("set", nargs="*")
    args = ap.parse_args(argv)
    if args.command == "show":
        show(args.set, args.id, from_store=args.stored)
    elif args.command == "put":
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        numbers = put(args.set, args.id, json.loads(text), args.passed)
        print(f"annotate: {args.set}/{args.id}: {len(numbers)} numbers stored (pass {args.passed})")
    else:
        status(args.set or ["seeds", *corpus_sets()])
    return 0


if __name__ == "__main__":
    sys.exit(main())
