"""Mail damage for the format tests: what archives and gateways do to tool output
(flattened, wrapped at 72, CRLF, GitBox's indent, Latin-1 mojibake, `?` for
non-ASCII), and checks that a fixture's rows survive it; also the check of a
third-party sample of ../shared/formats where it lives."""

from __future__ import annotations

import json
import math
import textwrap

from extract.results.formats import extract_results
from tests.conftest import shared_path
from tests.formats.golden import FIXTURES, cases, diff, expected, rows_of, text_of


def flatten(text: str) -> str:
    """A GitHub -> list notification: the whole comment on one line."""
    return " ".join(text.split())


def wrap72(text: str) -> str:
    """A gateway that hard-wraps long lines at 72 columns, at spaces."""
    out = []
    for line in text.split("\n"):
        if len(line) <= 72:
            out.append(line)
        else:
            out.extend(
                textwrap.wrap(line, 72, break_long_words=False, break_on_hyphens=False) or [""]
            )
    return "\n".join(out)


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def gitbox(text: str) -> str:
    """GitBox quotes a comment indented by three spaces."""
    return "\n".join("   " + line if line else line for line in text.split("\n"))


def latin1(text: str) -> str:
    """UTF-8 read as Windows-1252: `±` -> `Â±`, `σ` -> `Ïƒ`."""
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
            continue
        for b in ch.encode("utf-8"):
            try:
                out.append(bytes([b]).decode("cp1252"))
            except UnicodeDecodeError:
                out.append(chr(b))
    return "".join(out)


def question(text: str) -> str:
    """A console without UTF-8: every non-ASCII character becomes `?`."""
    return "".join(ch if ord(ch) < 128 else "?" for ch in text)


DAMAGE = {f.__name__: f for f in (flatten, wrap72, crlf, gitbox, latin1, question)}
VALUES = ("format", "metric", "value", "unit")  # what must survive any damage


def own_cases(fmt: str) -> list[str]:
    """The fixtures made here (by a tool script or from a spec), not third-party copies."""
    made = [c for c in cases(fmt) if (FIXTURES / f"{c}.expect.json").is_file()]
    return [
        c
        for c in made
        if expected(c).get("made_by", "").startswith(("tests/fixtures/tools/", "written from"))
    ]


def check_damaged(case: str, damage: str, keys: tuple[str, ...] | None = None) -> None:
    """Exactly the expected rows of `case` come out of its damaged text (compared on
    `keys` only, when given: a flattened mail may lose a heading)."""
    want = expected(case)["rows"]
    got = rows_of(DAMAGE[damage](text_of(case)))
    if keys is not None:
        want = [{k: r[k] for k in keys} for r in want]
        got = [{k: r[k] for k in keys} for r in got]
    missing, extra = diff(want, got)
    assert not missing and not extra, (
        f"{case} ({damage}): {len(missing)} missing, {len(extra)} unexpected\n"
        f"missing: {json.dumps(missing[:5], ensure_ascii=False)}\n"
        f"unexpected: {json.dumps(extra[:5], ensure_ascii=False)}"
    )


def _same_unit(a: str | None, b: str | None) -> bool:
    alias = {"count": "", "sec": "s", "seconds": "s", "us": "µs", "μs": "µs"}
    a, b = (a or "").lower(), (b or "").lower()
    return alias.get(a, a) == alias.get(b, b)


def check_shared_sample(directory: str, name: str) -> None:
    """A third-party sample in ../shared/formats: every row its expect file lists is
    found by value and unit (its names are suggestions, the catalogue says), and a
    negative sample gives nothing."""

    path = shared_path("formats", directory, f"{name}.txt")
    expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
    found = [m for t in extract_results(path.read_text(encoding="utf-8")) for m in t.measurements]
    if expect.get("negative"):
        assert found == []
        return
    missing = [
        r
        for r in expect["rows"]
        if not any(
            math.isclose(m.value, float(r["value"]), rel_tol=1e-6, abs_tol=1e-9)
            and _same_unit(m.unit, r.get("unit"))
            for m in found
        )
    ]
    assert not missing, missing


def rows(text: str, fmt: str | None = None) -> list[tuple]:
    return [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in extract_results(text, strict=True)
        for m in t.measurements
        if fmt is None or t.format == fmt
    ]


# --- the fixtures ---------------------------------------------------------------------
