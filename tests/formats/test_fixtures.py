"""Every fixture pair of every format, once: the registry gives exactly the rows its
expect file lists (tests/formats/golden.py). Ids are `<format>--<case>`:
`pytest tests/formats/test_fixtures.py -k go-bench` runs one format's."""

from __future__ import annotations

import pytest

from tests.formats.golden import cases, check


@pytest.mark.parametrize("case", cases(), ids=str)
def test_fixture(case):
    check(case)
