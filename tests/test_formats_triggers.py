"""A format's `INFO.trigger` is a necessary condition: on every real text we have
(format samples, the dev corpus, the seeds, the fixture archives' bodies; each also
flattened onto one line as GitBox mail delivers it), when the trigger does not match,
the parser finds nothing. So skipping a parser on its trigger never loses a result."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from extract.clean import clean_body
from extract.formats import PARSERS, may_match
from extract.parse import parse_message
from extract.read import iter_messages

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def texts() -> list[str]:
    out = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / "formats").glob("*.txt"))]
    out += [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / "seeds").glob("*.txt"))]
    for p in sorted((FIXTURES / "corpus" / "dev").glob("*.txt")):
        body = p.read_text(encoding="utf-8").split("\n\n", 1)[-1]
        out += [body, clean_body(body)]
    for p in sorted((FIXTURES / "mbox").rglob("*.mbox")):
        with p.open("rb") as f:
            for raw in iter_messages(f):
                try:
                    out.append(parse_message(raw.data, raw.envelope_line).text)
                except Exception:  # broken fixtures are the reader's tests' business
                    continue
    return out + [re.sub(r"\s+", " ", t) for t in out]


@pytest.mark.parametrize("parser", PARSERS, ids=lambda mod: mod.INFO.name)
def test_trigger_is_a_necessary_condition(parser):
    if not parser.INFO.trigger:
        return
    re.compile(parser.INFO.trigger)
    lost = [t[:120] for t in texts() if not may_match(parser, t) and parser.parse(t)]
    assert not lost, f"{parser.INFO.name} finds results its trigger misses: {lost[:3]}"
