"""The crawl's files in bounded memory (crawler/storage.py): the streaming scan and join of
week slices agree with the in-memory rules of crawler/archive.py on any input, the staged
gzip is what gzip.compress writes, and the filesystem probe for case."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crawler import storage
from crawler.archive import count_messages, join_slices, split_mbox
from crawler.storage import (
    SlicedMonthTooLarge,
    case_sensitive,
    join_slice_files,
    scan_messages,
    stage_body,
)

DATES = [
    "Tue, 31 May 2016 23:59:59 +0000",  # the day before the month: dropped
    "Wed, 01 Jun 2016 00:00:00 +0000",
    "Tue, 07 Jun 2016 23:59:59 +0000",
    "Thu, 30 Jun 2016 23:59:59 +0000",
    "Fri, 01 Jul 2016 00:00:00 +0000",  # the day after: dropped
    None,  # no Date: kept
]
# Body lines that look like envelopes or nearly so: only `^From ` starts a message.
LINES = ["run 1: 12 ms", ">From the earlier run", "From the bench", " From x", "Fro", "", "m "]


@st.composite
def messages(draw) -> bytes:
    date = draw(st.sampled_from(DATES))
    body = draw(st.lists(st.sampled_from(LINES), max_size=6))
    head = f"From x@y  Mon Jun  6 10:00:00 2016\nSubject: s{draw(st.integers(0, 9))}\n"
    head += f"Date: {date}\n" if date else ""
    return (head + "\n" + "\n".join(body) + draw(st.sampled_from(["\n", "\n\n", ""]))).encode()


@st.composite
def slices(draw) -> list[bytes]:
    """Up to five overlapping slices drawn from one pool of messages (the seams repeat
    messages), each possibly starting with stray bytes before its first envelope."""
    pool = draw(st.lists(messages(), min_size=1, max_size=8))
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        chosen = draw(st.lists(st.sampled_from(pool), max_size=5))
        prefix = draw(st.sampled_from([b"", b"\n", b"junk\n"]))
        parts.append(prefix + b"".join(chosen))
    return parts


# Small reads put envelope lines across chunk boundaries.
CHUNKS = pytest.mark.parametrize("chunk", [5, 64, 1 << 20], ids=lambda n: f"chunk{n}")


def write_slices(folder: Path, parts: list[bytes]) -> list[Path]:
    paths = []
    for index, data in enumerate(parts):
        path = folder / f"slice{index}"
        path.write_bytes(data)
        paths.append(path)
    return paths


@CHUNKS
@settings(max_examples=30, deadline=None)
@given(data=slices())
def test_scan_splits_as_split_mbox(tmp_path_factory, chunk, data):
    folder = tmp_path_factory.mktemp("scan")
    for path, part in zip(write_slices(folder, data), data, strict=True):
        scanned = list(scan_messages(path, chunk))
        expected = split_mbox(part)
        assert [part[o : o + n] for o, n, _, _ in scanned] == expected
        assert [d for _, _, d, _ in scanned] == [hashlib.sha256(m).digest() for m in expected]


@CHUNKS
@settings(max_examples=30, deadline=None)
@given(data=slices())
def test_streamed_join_is_the_in_memory_join(tmp_path_factory, chunk, data):
    folder = tmp_path_factory.mktemp("join")
    paths = write_slices(folder, data)
    staged = join_slice_files(paths, "2016-06", folder / "stage", 0, chunk)
    expected = join_slices(data, "2016-06")
    assert gzip.decompress(staged.path.read_bytes()) == expected
    assert staged.size == len(expected)
    assert staged.sha256 == hashlib.sha256(expected).hexdigest()
    assert staged.messages == count_messages(expected)


def test_a_joined_month_over_its_cap_is_refused_before_writing(tmp_path):
    message = b"From x@y  Mon Jun  6 10:00:00 2016\nDate: Mon, 06 Jun 2016 10:00:00 +0000\n\n"
    parts = [message + b"a" * 100 + b"\n", message + b"b" * 100 + b"\n"]
    paths = write_slices(tmp_path, parts)
    fits = join_slice_files(paths, "2016-06", tmp_path / "stage", 1000)
    assert fits.size == sum(map(len, parts))
    fits.path.unlink()
    with pytest.raises(SlicedMonthTooLarge, match=r"SLICED_MONTH_MAXSIZE \(200 B\)"):
        join_slice_files(paths, "2016-06", tmp_path / "stage", 200)
    assert list((tmp_path / "stage").iterdir()) == []  # nothing staged, nothing left


def test_staged_gzip_is_what_gzip_compress_writes(tmp_path):
    body = b"From a\nx\nFrom b\n>From c\n" * 1000
    staged = stage_body(body, tmp_path)
    assert staged.path.read_bytes() == gzip.compress(body, mtime=0)  # as before staging
    assert (staged.size, staged.messages) == (len(body), 2000)
    assert staged.path.name.startswith(storage.TMP_PREFIX)  # swept after a kill


def test_case_probe(tmp_path):
    assert case_sensitive(tmp_path)  # Linux filesystems tell `Issues` from `issues`
    assert list(tmp_path.iterdir()) == []  # the probe is gone
