"""The held-out written set (`extract.dev.heldout`): what it declares holds, its
values are read as the sealed score reads them, and no fit reads it."""

import re

import pytest

from extract.dev import fit_judge, heldout


def _fields(path):
    head = path.read_text("utf-8").partition("\n\n")[0]
    return dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)


SOURCES = sorted(p for folder in heldout.SETS for p in folder.glob("*.txt"))


@pytest.mark.parametrize(("folder", "least"), [(heldout.HELDOUT, 90), (heldout.HELDOUT2, 70)])
def test_each_source_declares_its_verdict_and_a_report_its_numbers(folder, least):
    sources = sorted(folder.glob("*.txt"))
    assert len(sources) >= least
    for path in sources:
        fields = _fields(path)
        body = path.read_text("utf-8").partition("\n\n")[2]
        assert fields["Expect"] in ("benchmark", "none"), path.name
        items = [i for i in fields.get("Numbers", "").split(";") if i.strip()]
        assert bool(items) == (fields["Expect"] == "benchmark"), path.name
        for item in items:
            written = item.partition("|")[0].strip()
            assert heldout.written_values(written), (path.name, written)
            digits = re.search(r"\d[\d.,]*", written).group()
            assert digits in body, (path.name, written)


@pytest.mark.parametrize(
    ("written", "value"),
    [("12 ms", 12.0), ("2h 41m", 9660.0), ("00:08:28", 508.0), ("4分12秒", 252.0),
     ("1.2万 QPS", 12000.0), ("~38k msg/s", 38000.0), ("1,240", 1240.0), ("-58.117 %", 58.117)],
)  # fmt: skip
def test_a_written_value_is_read_as_stored(written, value):
    assert value in heldout.written_values(written)
    assert 1.0e3 * 12 not in heldout.written_values("12 ms")  # (`ms` is no magnitude)


def test_no_fit_reads_the_held_out_sets():
    held = {p.stem for p in SOURCES}
    assert held and not held & {e.id for e in fit_judge.written_examples()}
    assert fit_judge.WRITTEN not in heldout.SETS
