"""A message that runs out of its time budget is still stored (issue 27, point 2):
with its headers and what was computed before the stage that ran out, that stage
named in its `errors` row; never dropped. (The budget through `python -m extract`
and on Dask workers: tests/test_isolation.py, tests/test_cluster.py.)"""

from __future__ import annotations

import signal
import time

import pytest

from extract import pipeline
from extract.results import message
from tests.archives import to_mbox, write_archive
from tests.mail.mboxes import make_message

MARK = "STALL-HERE"


@pytest.fixture
def budget():
    """The message budget on in this process (as in a worker), 0.3 s; off afterwards."""
    old = signal.getsignal(signal.SIGALRM)
    assert pipeline.enable_message_budget(0.3)
    yield 0.3
    pipeline._budget = None
    signal.signal(signal.SIGALRM, old)


def _stalling(real, text_of):
    def stall(*args, **kwargs):
        while MARK in text_of(*args):
            pass
        return real(*args, **kwargs)

    return stall


# stage -> (the module and function that stalls, where it finds the text)
STAGES = {
    "parse": (pipeline, "parse_message", lambda data, *_: data.decode("utf-8", "replace")),
    "kind": (pipeline, "message_kind", lambda subject, name, address, text, *_: text),
    "clean": (pipeline, "clean_body", lambda text, *_: text),
    "extract": (message, "extract_results", lambda text, *_: text),
    "classify": (message, "decide", lambda text, *_: text),
}


@pytest.mark.parametrize("stage", sorted(STAGES))
def test_a_message_out_of_time_in_any_stage_is_stored(tmp_path, monkeypatch, budget, stage):
    module, name, text_of = STAGES[stage]
    monkeypatch.setattr(module, name, _stalling(getattr(module, name), text_of))
    # (two rows: a one-row table is a borderline verdict, which each refit may move;
    # this test is of the time budget, not of the verdict)
    body = (
        "Benchmark  Mode  Cnt  Score  Error  Units\n"
        "Foo.bar  thrpt  5  12.3 ± 0.1  ops/s\n"
        "Foo.baz  thrpt  5  15.8 ± 0.2  ops/s\n"
    )
    messages = [
        make_message(body, message_id="before@x", subject="first"),
        make_message(f"{MARK}\n{body}", message_id="late@x", subject="the late one"),
        make_message(body, message_id="after@x", subject="third"),
    ]
    path = write_archive(tmp_path, "dev@p.apache.org", "2020-01", to_mbox(messages))
    started = time.monotonic()
    rows = pipeline.process_archive(path, tmp_path)
    assert time.monotonic() - started < 5
    stored = {m["message_id"]: m for m in rows.messages}
    assert sorted(stored) == ["after@x", "before@x", "late@x"]  # nothing dropped
    late = stored["late@x"]
    assert (late["position"], late["subject"]) == (1, "the late one")
    assert late["from_address"] == "jane@example.org" and late["sent_at"].startswith("2020-01-02")
    assert late["is_benchmark"] is None and late["formats"] == []  # no results
    assert [t for t in rows.result_tables if t["msg_key"] == late["msg_key"]] == []
    # what was computed before the late stage is kept
    assert (late["kind"] is None) == (stage in ("parse", "kind"))
    assert (late["body"] is None) == (stage in ("parse", "kind", "clean"))
    if stage == "parse":
        assert late["notes"] == ["headers only: the body was not read"]
    ((position, message_id, error_stage, reason),) = [
        (e["position"], e["message_id"], e["stage"], e["reason"]) for e in rows.errors
    ]
    assert (position, message_id, error_stage) == (1, "late@x", stage)
    assert reason.startswith("message took over 0.3 s (in ") and "stored with its headers" in reason
    # every position is in messages or errors, the count of the archive too
    assert rows.archive["n_messages"] == 3 and rows.archive["n_errors"] == 1
    assert stored["before@x"]["is_benchmark"] and stored["after@x"]["is_benchmark"]


def test_a_message_whose_headers_cannot_be_read_in_time_either_is_an_errors_row(
    tmp_path, monkeypatch, budget
):
    stall = _stalling(pipeline.parse_message, STAGES["parse"][2])
    monkeypatch.setattr(pipeline, "parse_message", stall)
    monkeypatch.setattr(pipeline, "parse_headers", stall)
    messages = [make_message(f"{MARK}\n", message_id="late@x"), make_message("ok")]
    path = write_archive(tmp_path, "dev@p.apache.org", "2020-01", to_mbox(messages))
    rows = pipeline.process_archive(path, tmp_path)
    assert [m["position"] for m in rows.messages] == [1]
    ((position, stage, reason),) = [(e["position"], e["stage"], e["reason"]) for e in rows.errors]
    assert (position, stage) == (0, "parse") and "not stored" in reason
