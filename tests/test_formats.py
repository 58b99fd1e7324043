"""Every format sample from the real world parses as its `.expect.json` says (jc-style:
`tests/fixtures/formats/<format>--<case>.txt` next to `<format>--<case>.expect.json`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extract.results.formats import PARSERS, extract_results
from tests.formats_match import find

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
CASES = sorted(p.name.removesuffix(".txt") for p in FIXTURES.glob("*--*.txt"))


def test_fixtures_exist():
    assert len(CASES) >= 80


@pytest.mark.parametrize("case", CASES)
def test_fixture(case):
    text = (FIXTURES / f"{case}.txt").read_text(encoding="utf-8")
    expect = json.loads((FIXTURES / f"{case}.expect.json").read_text(encoding="utf-8"))
    tables = extract_results(text, strict=True)
    if expect.get("negative"):
        found = [(t.format, m) for t in tables for m in t.measurements]
        assert found == [], f"negative sample gave rows: {found[:5]}"
        return
    missing = [row for row in expect["rows"] if find(row, tables) is None]
    got = [
        (t.format, m.label, m.variant, m.metric, m.value, m.unit)
        for t in tables
        for m in t.measurements
    ]
    assert not missing, f"missing {missing}\nfound {got[:40]}"


def test_registry_is_well_formed():
    names = [mod.INFO.name for mod in PARSERS]
    assert len(names) == len(set(names))
    for mod in PARSERS:
        assert mod.INFO.kind in ("result", "noise")
        assert callable(mod.parse)


def test_a_failing_parser_costs_only_its_own_tables(monkeypatch):
    from extract.results.formats import by_name

    text = (FIXTURES / "jmh--jmh-golden-text-root.txt").read_text(encoding="utf-8")
    assert any(t.format == "jmh" for t in extract_results(text))

    def broken(_text):
        raise RuntimeError("parser bug")

    monkeypatch.setattr(by_name("ascii-table"), "parse", broken)
    assert any(t.format == "jmh" for t in extract_results(text))
    with pytest.raises(RuntimeError):
        extract_results(text, strict=True)
