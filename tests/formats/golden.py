"""The fixture harness of the format parsers (jc-style golden files).

`tests/fixtures/formats/<format>--<case>.txt` is a text the project made: output of
the real tool (the script that made it is in `tests/fixtures/tools/`) or written
here in the tool's documented format. Next to it, `<format>--<case>.expect.json`:

    {"made_by": "tests/fixtures/tools/hyperfine.sh" | "written from <spec or doc>",
     "rows": [{"format": "hyperfine", "label": ..., "variant": ..., "metric": ...,
               "value": 1.23, "unit": "s"}, ...]}

`check(case)` runs the whole registry on the text, as the pipeline does, and requires
exactly the expected rows: every one, from the named parser or another, and no
other (extras fail too). `rows: []` is a negative: nothing may come out.
`<format>` is a registered parser name (a test checks it).

After a deliberate change, review what a parser now gives and rewrite the file:

    .venv/bin/python -m tests.formats.golden jmh--text-avgt [--write]
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from extract.results.formats import extract_results, run

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "formats"
KEYS = ("format", "label", "variant", "metric", "value", "unit")


def cases(fmt: str | None = None) -> list[str]:
    """Fixture cases (file names without `.txt`), of one format or all."""
    pattern = f"{fmt}--*.txt" if fmt else "*--*.txt"
    return sorted(p.name.removesuffix(".txt") for p in FIXTURES.glob(pattern))


def text_of(case: str) -> str:
    """The fixture's text as stored: CRLF and CR line ends are kept (mail has them)."""
    with open(FIXTURES / f"{case}.txt", encoding="utf-8", newline="") as f:
        return f.read()


def expected(case: str) -> dict:
    return json.loads((FIXTURES / f"{case}.expect.json").read_text(encoding="utf-8"))


def rows_of(text: str) -> list[dict]:
    """Every measurement the registry finds in `text`, as fixture rows (a tool's
    warm-ups aside: read, so that no number of theirs is taken for a result, but not
    what the tool reports)."""
    return [
        {
            "format": t.format,
            "label": m.label,
            "variant": m.variant,
            "metric": m.metric,
            "value": m.value,
            "unit": m.unit,
        }
        for t in extract_results(text, strict=True)
        for m in t.measurements
        if m.role != "warmup"
    ]


def claimed_text(parser, text: str) -> str:
    """The text a recogniser (`parser`, a format module) claims in `text`, its spans'
    texts one to a line: what a noise recogniser's tests look at."""
    return "\n".join(t.source(text) for t in run(parser, text))


def _same(a: dict, b: dict) -> bool:
    for k in KEYS:
        x, y = a.get(k), b.get(k)
        if k == "value":
            if x is None or y is None:
                if x is not y:
                    return False
            elif not (
                (math.isnan(x) and math.isnan(y))
                or math.isclose(float(x), float(y), rel_tol=1e-9, abs_tol=1e-12)
            ):
                return False
        elif (x or None) != (y or None):
            return False
    return True


def diff(expect: list[dict], got: list[dict]) -> tuple[list[dict], list[dict]]:
    """(expected rows not found, found rows not expected), as multisets."""
    left = list(got)
    missing = []
    for row in expect:
        for i, g in enumerate(left):
            if _same(row, g):
                del left[i]
                break
        else:
            missing.append(row)
    return missing, left


def check(case: str) -> None:
    """Assert that the registry gives exactly the expected rows for `case`."""
    missing, extra = diff(expected(case)["rows"], rows_of(text_of(case)))
    assert not missing and not extra, (
        f"{case}: {len(missing)} expected rows missing, {len(extra)} unexpected rows\n"
        f"missing: {json.dumps(missing[:10], ensure_ascii=False)}\n"
        f"unexpected: {json.dumps(extra[:10], ensure_ascii=False)}"
    )


def write(case: str, made_by: str | None = None) -> Path:
    """Rewrite `case`'s expect file from what the parsers give now (review it!)."""
    path = FIXTURES / f"{case}.expect.json"
    old = json.loads(path.read_text("utf-8")) if path.exists() else {}
    data = {"made_by": made_by or old.get("made_by", "?"), "rows": rows_of(text_of(case))}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    do_write = "--write" in argv
    names = [a for a in argv if not a.startswith("--")]
    for name in names:
        for case in cases(name) if "--" not in name else [name]:
            if do_write:
                print(f"wrote {write(case)}")
                continue
            got = rows_of(text_of(case))
            print(f"# {case}: {len(got)} rows")
            for r in got:
                print("  " + json.dumps(r, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
