"""The gate (`extract.results.gate`): one scan decides whether a message could be a
report at all. It must let every labelled report and every format fixture through."""

import math
from pathlib import Path

import pytest

from extract.dev.fit_judge import fixture_texts
from extract.results.formats import triggered
from extract.results.gate import counts, gate, layout_names, load_model, score
from extract.results.message import extraction_text, message_results
from tests.conftest import shared_path

REPO = Path(__file__).resolve().parents[2]


def test_the_counts_say_what_a_report_is_made_of():
    report = counts("The scan went from 412 s to 236 s (1.75x faster), p99 38 ms, 12k ops/s.")
    assert report["num_time"] > 0 and report["num_factor"] > 0 and report["num_rate"] > 0
    note = counts("Thanks, merged to master. See you at the meetup on the 12th.")
    assert note["num_time"] == note["num_factor"] == note["num_rate"] == 0
    # (and whether each family is there at all)
    assert report["num_time:any"] == report["num_factor:any"] == 1.0
    assert "num_time:any" not in note and "num_factor:any" not in note
    # (a rate in words, whatever is counted: `inserts a second`, `commits every minute`)
    for text in ("I get 1450 inserts a second.", "we merge 12 commits every minute."):
        assert counts(text)["num_rate"] > 0, text
    for text in ("we talked for a second, then ran it 3 times a day", "22 queries a second time"):
        assert counts(text)["num_rate"] == 0, text
    assert counts("System achieved 412345 NOPM from 948112 PostgreSQL TPM")["num_rate"] > 0


def test_a_column_s_unit_in_its_header_is_counted():
    table = counts("chunk   write 1 GB key (s)   read (s)   DN RSS (MB)\n1 MB   11.8   7.9   610\n")
    assert table["unit_header"] == math.log1p(2)  # (the first counts for nothing)
    assert counts("See (a) and (b) in the doc (draft).")["unit_header"] == 0
    assert counts("The file(s) and test(s) it changes.")["unit_header"] == 0
    assert counts("Set the locale to English (US) first.")["unit_header"] == 0


def test_a_conversation_s_dates_and_addresses_are_counted():
    # (a sender's address and a quoted one are in reports too: from the third on)
    two = counts("From: ana@example.org\nOn Jan 12, bo@example.net wrote: 12 ms")
    assert two["date"] > 0 and two["emails"] == 0 and "emails:any" not in two
    many = counts("Author: a@x.org\nCommitter: b@x.org\nReviewed: c@y.org, d@y.org\n2024-01-12")
    assert many["emails"] == math.log1p(2) and many["emails:any"] == 1.0 and many["date"] > 0


# (ASCII texts: there the gate's own scan finds the readers' triggers as the
# prefilter's does; a non-ASCII text it reads as its bytes, the prefilter decides more)
WRITTEN = (
    "Benchmark                 Mode  Cnt    Score   Error  Units\n"
    "MyBench.parse            thrpt   25  1234.5    12.3  ops/s\n",
    "| query | before (ms) | after (ms) |\n|---|---|---|\n| q1 | 412 | 236 |\n",
    "Requests/sec:  12034.55\nTransfer/sec:      1.52MB\n",
    "2024-03-01 10:00:01,123 INFO Flush took 812 ms for 3 regions\n",
    "Thanks, merged to master. See you at the meetup on the 12th.",
    "",
)


@pytest.mark.parametrize("text", WRITTEN)
def test_the_readers_triggers_are_counted_as_the_readers_find_them(text):
    tools, generic = triggered(text)
    feats = counts(text)
    assert (feats["trigger_tool"], feats["trigger_generic"]) == (
        math.log1p(tools),
        math.log1p(generic),
    )


def test_each_generic_layout_is_a_feature_and_the_ascii_table_s_parts_each():
    names = layout_names()
    assert "layout:prose" in names and "layout:records" in names
    assert [n for n in names if n.startswith("layout:ascii-table")] == [
        f"layout:ascii-table:{j}" for j in range(5)
    ]
    assert not any(n.startswith("layout:jmh") for n in names)  # (a tool's is not one)


@pytest.mark.parametrize(
    ("text", "layouts"),
    [
        # (two numbers in a row: the trigger of a table run onto one line, and no more)
        ("Moved the call to 10 30 as agreed.", ["layout:ascii-table:3"]),
        # (aligned gaps on two lines; the bar rows of a box)
        ("name      before    after\nscan      412       236\n", ["layout:ascii-table:2"]),
        ("| a | b |\n| 1 | 2 |\n", ["layout:ascii-table:0", "layout:ascii-table:1"]),
        ("The full build took 12 s on my laptop.", ["layout:prose"]),
        ("heap: 512 MB\n", ["layout:records"]),
        ("Thanks, merged.", []),
    ],
)
def test_the_generic_layouts_found_are_counted_each(text, layouts):
    feats = counts(text)
    found = [k for k in feats if k.startswith("layout:")]
    assert set(layouts) <= set(found) and all(feats[k] == 1.0 for k in found)
    if not layouts:
        assert found == [] and feats["trigger_generic"] == 0


@pytest.mark.parametrize("text", WRITTEN)
def test_the_gate_scores_as_the_fitted_model_does(text):
    # (the gate weighs the counts from tables of its weights, without the features'
    # dict: the same float as the model's score of the features)
    model = load_model()
    assert gate(text) == (score(counts(text), model) >= model[2], score(counts(text), model))


@pytest.mark.parametrize(("name", "text"), fixture_texts(), ids=lambda x: x if len(x) < 60 else "")
def test_every_format_fixture_passes(name, text):
    passes, score = gate(extraction_text(text))
    assert passes, (name, score)


def test_a_rejected_message_is_looked_at_by_nothing_else():
    found = message_results("Thanks, merged to master. Closing the issue now.")
    assert not found.verdict.is_benchmark and found.verdict.reasons[0].startswith("gate:")
    assert found.tables == [] and found.numbers == []


@pytest.mark.shared
def test_every_labelled_report_passes():
    from extract.dev.annotate import message_kind_of, set_messages
    from extract.dev.transforms import flattened
    from extract.mail.clean import clean_body

    shared_path("corpus")
    rejected = []
    for name in ("seeds", "dev", "dev2"):
        for ident, msg in set_messages(name).items():
            # (as written, and as GitBox delivers a comment: flattened onto one line)
            for how, body in (("", msg.body), (" flattened", flattened(msg.body))):
                sample = extraction_text(clean_body(body, message_kind_of(msg)))
                if not gate(sample)[0]:
                    rejected.append(f"{name}/{ident}{how}")
    assert rejected == []


def test_an_aligned_table_of_results_passes_whatever_is_said_around_it():
    # (a layout the readers read results from never weighs against a report: fitted
    # freely, aligned columns, common in ordinary mail too, weighed against one, and
    # a vote's words after such a table turned it away)
    table = (
        "Two runs on the staging box, 4 GB of segments each:\n\n"
        "codec    ratio   load MB/s   scan MB/s   RSS MB\n"
        "plain    1.00    1210        2480        310\n"
        "snappy   1.90    1130        2210        322\n"
        "brotli   2.70    640         1390        355\n\n"
    )
    for after in ("", "+1 (binding). Checked signatures and checksums.\n"):
        assert gate(table + after)[0], after
    weights = load_model()[0]
    assert all(w >= 0 for name, w in weights.items() if name.startswith("layout:"))


def test_every_report_written_for_the_verdict_passes():
    # (reports in forms no reader knows: the gate's fit holds them as reports)
    from extract.dev.fit_judge import written_examples

    reports = [e for e in written_examples() if e.positive]
    assert reports and [e.id for e in reports if not gate(e.results.sample)[0]] == []


def test_a_long_run_of_tool_output_passes_as_a_short_one_does():
    # (capped counts against an uncapped length: a 20 KB JMH run with its percentiles
    # scored as a log would, and was turned away)
    rows = ["Benchmark" + " " * 80 + "Mode     Cnt      Score    Error  Units"]
    for k in range(40):
        name = f"CodecBench.encodeVariant{k}"
        rows.append(f"{name:<89}sample  301234     {50 + k}.904 ±  1.399  ns/op")
        for p in ("0.00", "0.50", "0.90", "0.99", "0.999", "1.00"):
            rows.append(
                f"{name + ':' + name.split('.')[1] + '·p' + p:<89}sample"
                f"             {60 + k}.000           ns/op"
            )
    long_run = "Numbers on JDK 17:\n\n```\n" + "\n".join(rows) + "\n```\n"
    short_run = "Numbers on JDK 17:\n\n```\n" + "\n".join(rows[:8]) + "\n```\n"
    assert len(long_run) > 20_000
    assert gate(short_run)[0] and gate(long_run)[0]
