"""solr: Solr's query time (QTime), from its request log line and its JSON and XML
response headers, written from Solr's documented output."""

from __future__ import annotations

import time

import pytest

from extract.results.formats import solr
from tests.formats.damage import MAIL_DAMAGE, VALUES, check_damaged, own_cases


@pytest.mark.parametrize("damage", MAIL_DAMAGE)
@pytest.mark.parametrize("case", own_cases("solr"))
def test_fixture_survives_mail_damage(case, damage):
    # (a flattened mail loses the line starts its names and headings are found by)
    check_damaged(case, damage, VALUES if damage == "flattened" else None)


def found(text: str) -> list[tuple[float, str | None, str | None]]:
    return [(m.value, t.variant, t.caption) for t in solr.parse(text) for m in t.measurements]


def test_a_log_level_names_no_run_and_the_lines_of_one_log_share_its_heading():
    text = (
        "Before the patch:\n"
        "INFO: [core1] webapp=/solr path=/select params={q=a} hits=0 status=0 QTime=10\n"
        "INFO: [core1] webapp=/solr path=/select params={q=b} hits=0 status=0 QTime=11\n"
    )
    assert found(text) == [
        (10.0, "Before the patch", "/select q=a"),
        (11.0, "Before the patch", "/select q=b"),
    ]


def test_a_version_that_leads_the_line_names_its_run():
    text = (
        "8.11.2: webapp=/solr path=/select params={q=*:*} hits=9 status=0 QTime=412\n"
        "9.5.0: webapp=/solr path=/select params={q=*:*} hits=9 status=0 QTime=9012\n"
    )
    assert [v for _, v, _ in found(text)] == ["8.11.2", "9.5.0"]


def test_a_response_header_is_named_by_the_heading_above_its_document():
    text = (
        'Before:\n{"responseHeader":{\n  "status":0,\n  "QTime":900}}\n\n'
        'After:\n{"responseHeader":{"status":0,"QTime":400}}\n'
    )
    assert [(v, n) for v, n, _ in found(text)] == [(900.0, "Before"), (400.0, "After")]


def test_a_time_that_ends_a_sentence_is_read_and_hits_are_not():
    assert [v for v, _, _ in found("With the patch QTime=87. Before it was 1530.")] == [87.0]
    assert [v for v, _, _ in found('It says "QTime":87.')] == [87.0]
    assert found("hits=1203344 status=0") == []


def test_a_line_of_many_times_is_read_in_linear_time():
    # (each time's line and request were once looked for from the line's start: a
    # 100 kB line of times took 17 s)
    for unit in ("QTime=1 ", '"QTime":1,', "path=/a QTime=1 "):
        text = unit * (100_000 // len(unit))
        start = time.process_time()
        assert len(solr.parse(text)) == 100_000 // len(unit)
        assert time.process_time() - start < 2.0, unit
