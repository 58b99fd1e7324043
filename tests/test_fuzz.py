"""The fuzz suite's short run (issue 12, point 7): a seeded, bounded batch of mutated
archives through the real pipeline, and proof that the checks would catch a broken
counter or reader. The long run is `make fuzz` (extract/dev/fuzz.py)."""

from __future__ import annotations

import copy
import gzip
import multiprocessing
import time

import pytest

from extract.dev import fuzz
from extract.pipeline import process_archive

ARCHIVES = 300
SEED = 7
SCALE = 1 << 16  # huge lines of 64-320 KiB here (1-5 MiB in `make fuzz`)


@pytest.fixture(scope="module")
def summary(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("fuzz")
    return fuzz.fuzz(ARCHIVES, SEED, workers=2, scale=SCALE, data_dir=data_dir)


def test_no_crash(summary):
    assert summary.archives == ARCHIVES
    assert summary.messages > ARCHIVES
    assert summary.crashes == 0, fuzz.report(summary)
    assert summary.run and not summary.run["unstored"]


def test_no_message_lost(summary):
    assert summary.invariant_failures == 0, fuzz.report(summary)
    assert summary.messages_lost == 0, fuzz.report(summary)


def test_no_hang(summary):
    hangs = [f for f in summary.failures if f["kind"] == "hang"]
    assert len(hangs) == summary.hangs
    assert not hangs, fuzz.report(summary)


def test_mutations_all_used(summary):
    kinds = {
        *fuzz.MESSAGE_MUTATIONS,
        *fuzz.LIST_MUTATIONS,
        *fuzz.ARCHIVE_MUTATIONS,
        *fuzz.GZIP_MUTATIONS,
    }
    assert kinds <= set(summary.mutations)


# ------------------------------------------------------------------ the checks themselves


def _archive(tmp_path, mbox: bytes, gz: bytes | None = None):
    path = tmp_path / "raw" / "example.org" / "dev" / "2020-01.mbox.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gz if gz is not None else gzip.compress(mbox, mtime=0))
    return path


def _messages(n: int) -> list[bytes]:
    return [
        f"From: a@e.org\nSubject: s{i}\nMessage-ID: <m{i}@x>\n\nFrom here on {i} ms\n".encode()
        for i in range(n)
    ]


def test_counter_by_hand():
    assert fuzz.count_envelopes(b"") == 0
    assert fuzz.count_envelopes(b"\n\n") == 0
    assert fuzz.count_envelopes(b"From a\nx\n\nFrom b\ny\nFrom c\n") == 2
    assert fuzz.count_envelopes(b"text first\n\nFrom a\nx\n") == 2
    assert fuzz.count_envelopes(b"From a\r\n\r\nFrom b\r\n\r\n>From c\n") == 2
    assert fuzz.count_envelopes(fuzz.to_mbox(_messages(4))) == 4
    assert fuzz.count_envelopes(fuzz.to_mbox(_messages(4), escape=False)) == 8


def test_invariant_holds_on_a_clean_archive(tmp_path):
    mbox = fuzz.to_mbox(_messages(3))
    path = _archive(tmp_path, mbox)
    rows = process_archive(path, tmp_path)
    expected, damaged = fuzz.expected_count(path.read_bytes())
    assert (expected, damaged) == (3, False)
    assert fuzz.check_invariant(rows, expected, damaged) == []


def test_a_wrong_counter_is_caught(tmp_path):
    path = _archive(tmp_path, fuzz.to_mbox(_messages(3)))
    rows = process_archive(path, tmp_path)
    assert fuzz.check_invariant(rows, 4, False)  # a counter one too high
    assert fuzz.check_invariant(rows, 2, False)  # one too low


def test_a_reader_that_drops_a_message_is_caught(tmp_path):
    path = _archive(tmp_path, fuzz.to_mbox(_messages(3)))
    rows = process_archive(path, tmp_path)
    dropped = copy.deepcopy(rows)  # the last message vanished, counts and all
    dropped.messages.pop()
    dropped.archive["n_messages"] -= 1
    assert fuzz.check_invariant(dropped, 3, False)
    silent = copy.deepcopy(rows)  # counted, but neither stored nor an errors row
    silent.messages.pop(0)
    assert fuzz.check_invariant(silent, 3, False)


def test_truncated_gzip_counts_the_prefix(tmp_path):
    mbox = fuzz.to_mbox(_messages(50))
    gz = gzip.compress(mbox, mtime=0)
    cut = gz[: len(gz) // 2]
    expected, damaged = fuzz.expected_count(cut)
    assert damaged and 0 < expected < 50
    rows = process_archive(_archive(tmp_path, b"", cut), tmp_path)
    assert fuzz.check_invariant(rows, expected, damaged) == []
    assert fuzz.check_invariant(rows, expected + 2, damaged)


def _zlib_says(gz: bytes) -> str:
    import zlib

    try:
        zlib.decompress(gz, 16 + zlib.MAX_WBITS)
    except zlib.error as exc:
        return str(exc)
    return "check passed"


@pytest.mark.parametrize("where", ["middle", "trailer"])
def test_a_damaged_gzip_loses_nothing_before_the_damage(tmp_path, where):
    """Issue 27: the reader lost the whole 64 KiB input piece where zlib failed, and
    every message of a file whose only damage was its trailer."""
    import random

    rng = random.Random(5)
    body = lambda: " ".join(str(rng.randrange(10**9)) for _ in range(400))  # noqa: E731
    msgs = [f"From: a@e.org\nMessage-ID: <m{i}@x>\n\n{body()}\n".encode() for i in range(80)]
    gz = bytearray(gzip.compress(fuzz.to_mbox(msgs), mtime=0))
    assert len(gz) > 2 * fuzz._GZIP_INPUT
    if where == "middle":  # the first byte from 3/5 on that zlib refuses when flipped
        at = len(gz) * 3 // 5  # (a flipped bit may well inflate to other text)
        while "check" in _zlib_says(bytes(gz[:at]) + bytes([gz[at] ^ 0x08]) + gz[at + 1 :]):
            at += 1
        gz[at] ^= 0x08
    else:
        gz[-6] ^= 0x08
    expected, damaged = fuzz.expected_count(bytes(gz))
    assert damaged == (where == "middle") and expected > (80 if damaged else 79) * 3 // 5 - 2
    rows = process_archive(_archive(tmp_path, b"", bytes(gz)), tmp_path)
    assert fuzz.check_invariant(rows, expected, damaged) == []
    if where == "trailer":
        assert len(rows.messages) == expected == 80


def test_a_slow_message_is_reported(tmp_path, monkeypatch):
    path = _archive(tmp_path, fuzz.to_mbox(_messages(2)))
    archive = fuzz.FuzzArchive("raw/example.org/dev/2020-01.mbox.gz", path, ["none"])
    monkeypatch.setattr(fuzz, "MESSAGE_SECONDS", 0.2)
    monkeypatch.setattr("extract.pipeline.clean_body", lambda *a: time.sleep(5))
    slow = fuzz.check_archives([archive], tmp_path, workers=1)
    assert slow.slow_messages == 2 and not slow.ok and slow.invariant_failures == 0


def test_a_hang_and_a_crash_are_reported(tmp_path, monkeypatch):
    path = _archive(tmp_path, fuzz.to_mbox(_messages(2)))
    archive = fuzz.FuzzArchive("raw/example.org/dev/2020-01.mbox.gz", path, ["none"])
    monkeypatch.setattr("extract.pipeline.process_archive", lambda *a: time.sleep(30))
    hung = fuzz.check_archives([archive], tmp_path, workers=1, timeout=0.5)
    assert hung.hangs == 1 and not hung.ok
    monkeypatch.setattr("extract.pipeline.process_archive", lambda *a: 1 / 0)
    crashed = fuzz.check_archives([archive], tmp_path, workers=1)
    assert crashed.crashes == 1 and "ZeroDivisionError" in crashed.failures[0]["detail"]


def _pytest_benchmark_row(digits: int) -> None:
    from extract.results.formats import extract_results

    big = "-" + "1" * digits
    extract_results(
        "Name (time in ms)  Min  Max  Mean  StdDev  Median  IQR  Outliers  OPS  Rounds  "
        "Iterations\n"
        f"test_categorical_to_arrow  12.4310 (1.0)  {big} (1.0)  12.8816 (1.0)  0.3301 (1.0)  "
        f"12.8101 (1.0)  0.3870 (1.0)  {big};2  {big} (1.0)  75  1\n"
    )


def test_pytest_benchmark_long_numbers_are_fast():
    """The fuzzer found it: the row pattern once backtracked cubically on a long
    negative digit run (400 digits: 6-24 s)."""
    worker = multiprocessing.get_context("fork").Process(target=_pytest_benchmark_row, args=(500,))
    worker.start()
    worker.join(3.0)  # a 500-digit number in a table row: milliseconds when linear
    alive = worker.is_alive()
    if alive:
        worker.kill()
        worker.join()
    assert not alive
