"""The annotation tool's offsets: entries by line resolve to spans and back."""

import pytest

from extract.dev.annotate import Entry, ToRaw, entry_at, free_occurrences, resolve

BODY = "Results:\nread 12 ms, 112 ms, 12.5 ms and 12 ms\nwrite 7 s\n"


def test_free_occurrences_skip_numbers_inside_longer_ones():
    assert free_occurrences("read 12 ms, 112 ms, 12.5 ms and 12 ms", "12") == [5, 32]


def test_an_entry_resolves_to_its_span_and_back():
    span = resolve(BODY, Entry(2, "12", n=2))
    assert BODY[span[0] : span[1]] == "12" and BODY[span[0] - 4 : span[0]] == "and "
    back = entry_at(BODY, span)
    assert (back.line, back.written, back.n) == (2, "12", 2)


def test_an_entry_that_does_not_fit_says_why():
    with pytest.raises(ValueError, match="free-standing"):
        resolve(BODY, Entry(3, "12"))
    with pytest.raises(ValueError, match="not in the body"):
        resolve(BODY, Entry(9, "7"))


def test_cleaned_offsets_map_to_the_raw_body():
    raw = "> quoted 99 ms\nkept 12 ms\n-- \nfooter 3\n"
    cleaned = "kept 12 ms\n"
    to_raw = ToRaw(raw, cleaned)
    assert raw[to_raw(5) : to_raw(5) + 2] == "12"
    joined = "read 12\nms and 7 s"
    to_raw = ToRaw(joined, "read 12 ms and 7 s")  # a rejoined line
    pos = "read 12 ms and 7 s".index("7")
    assert joined[to_raw(pos)] == "7"
