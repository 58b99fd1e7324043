"""What holds for every registered format: fixtures named after it, its own test file,
and the shared properties (never raises, silent on text with no results)."""

from __future__ import annotations

from pathlib import Path

import pytest

from extract.results.formats import PARSERS
from tests.formats.golden import FIXTURES, cases

HERE = Path(__file__).resolve().parent
NAMES = sorted(mod.INFO.name for mod in PARSERS)


def test_every_fixture_is_named_after_a_registered_format():
    prefixes = {c.split("--", 1)[0] for c in cases()}
    assert prefixes <= set(NAMES), sorted(prefixes - set(NAMES))


def test_every_fixture_has_its_expected_rows():
    lonely = [c for c in cases() if not (FIXTURES / f"{c}.expect.json").is_file()]
    assert not lonely


@pytest.mark.parametrize("name", NAMES)
def test_every_format_has_fixtures_and_a_test_file(name):
    module = next(m for m in PARSERS if m.INFO.name == name).__name__.rsplit(".", 1)[-1]
    assert (HERE / f"test_{module}.py").is_file(), f"tests/formats/test_{module}.py"
    assert cases(name), f"no tests/fixtures/formats/{name}--*.txt"
