"""Mail damage for the format tests: what archives and gateways do to tool output
(flattened, wrapped at 72, CRLF, GitBox's indent, Latin-1 mojibake, `?` for
non-ASCII), and checks that a fixture's rows survive it; also the check of a
third-party sample of ../shared/formats where it lives."""

from __future__ import annotations

import json
import math
import textwrap

from extract.dev import transforms
from extract.results.formats import extract_results
from tests.conftest import shared_path
from tests.formats.golden import FIXTURES, cases, diff, expected, rows_of, text_of

# The damage real archives do, as `make eval` applies it (extract.dev.transforms).
flatten = transforms.flattened
crlf = transforms.crlf
gitbox = transforms.gitbox_indent


def hard_wrap(width: int):
    """A gateway that hard-wraps long lines at `width` columns, at spaces."""

    def wrap(text: str) -> str:
        out = []
        for line in text.split("\n"):
            if len(line) <= width:
                out.append(line)
            else:
                out.extend(
                    textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
                    or [""]
                )
        return "\n".join(out)

    wrap.__name__ = f"wrap{width}"
    return wrap


wrap72 = hard_wrap(72)


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


def pipe_prefixed(text: str) -> str:
    """Log lines quoted with a `| ` gutter."""
    return "".join("| " + line for line in text.splitlines(True))


# Every damage real archives and gateways do, by name: the one table the tests use.
DAMAGE = {
    "flattened": flatten,
    "wrapped-72": wrap72,
    "wrapped-80": hard_wrap(80),
    "crlf": crlf,
    "gitbox-indent": gitbox,
    "pipe-prefixed": pipe_prefixed,
    "latin1": latin1,
    "question": question,
}
# What mail does to a tool's output (`check_damaged`), and what the big systems' logs
# go through on their way to a list (`FormatChecks`).
MAIL_DAMAGE = ("crlf", "flattened", "gitbox-indent", "latin1", "question", "wrapped-72")
SYSTEM_DAMAGE = ("flattened", "crlf", "gitbox-indent", "pipe-prefixed", "wrapped-80", "wrapped-72")
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


# --- the checks of one format, comparing its rows as sorted values ----------------


class FormatChecks:
    """`rows`, `values`, `damaged`, `shared_found` and `damage_cases` for one format."""

    def __init__(self, fmt: str, damage: dict | None = None):
        self.fmt = fmt
        self.damage = damage or {name: DAMAGE[name] for name in SYSTEM_DAMAGE}

    def rows(self, text: str, fmt: str | None = "") -> list[tuple]:
        """(label, variant, metric, value, unit) of every measurement the registry
        finds, of this format (or of `fmt`; None = any)."""
        fmt = self.fmt if fmt == "" else fmt
        return [
            (m.label, m.variant, m.metric, m.value, m.unit)
            for t in extract_results(text, strict=True)
            for m in t.measurements
            if fmt is None or t.format == fmt
        ]

    def values(self, text: str) -> list[tuple]:
        """(label, metric, value, unit), sorted: what damage to the text must not change."""
        return sorted(
            (label or "", metric, -1.0 if math.isnan(value) else round(value, 9), unit or "")
            for label, _, metric, value, unit in self.rows(text)
        )

    def damaged(self, case: str, damage: str) -> None:
        text = text_of(case)
        expect = self.values(text)
        assert expect, f"{case} has no {self.fmt} rows"
        assert self.values(self.damage[damage](text)) == expect

    def shared_found(self, directory: str, sample: str) -> None:
        """Every row a third-party sample's expect file lists is found (value and unit)."""
        path = shared_path("formats", directory, f"{sample}.txt")
        expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
        found = self.rows(path.read_text(encoding="utf-8"))
        for row in expect["rows"]:
            unit = (row.get("unit") or "").lower()
            assert any(
                math.isclose(value, row["value"], rel_tol=1e-9) and (u or "").lower() == unit
                for *_, value, u in found
            ), row

    def damage_cases(self, limits: dict[tuple[str, str], str]) -> list[tuple[str, str]]:
        """(fixture, damage) pairs to check: every positive fixture, every damage but
        the documented `limits`."""
        return [
            (case, damage)
            for case in cases(self.fmt)
            if self.values(text_of(case))
            for damage in self.damage
            if (case, damage) not in limits
        ]
