"""The real-world format samples of ../shared/formats (other people's text, read where
it is): every sample parses as its `.expect.json` says, with values and units
compared strictly and names loosely (see `formats_match`), and negatives give nothing.
The project's own golden fixtures, checked exactly, are in tests/formats/."""

from __future__ import annotations

import json

import pytest

from extract.results.formats import extract_results
from tests.conftest import SHARED
from tests.shared.formats_match import find

pytestmark = pytest.mark.shared

SAMPLES = SHARED / "formats"
CASES = sorted(
    f"{p.parent.name}/{p.stem}"
    for p in SAMPLES.glob("*/*.txt")
    if p.with_name(p.stem + ".expect.json").exists()
)


def test_the_samples_are_there():
    assert len(CASES) >= 80, SAMPLES


@pytest.mark.parametrize("case", CASES)
def test_sample(case):
    text = (SAMPLES / f"{case}.txt").read_text(encoding="utf-8")
    expect = json.loads((SAMPLES / f"{case}.expect.json").read_text(encoding="utf-8"))
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
