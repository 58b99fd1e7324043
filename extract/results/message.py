"""What one message reports: the one function that the pipeline, `make eval`, `make fit`
and `make bench` all call per message, so that every figure measures the real path.

`message_results(body, subject=..., kind=...)` takes a message's cleaned body
(`extract.mail.clean.clean_body`) and returns its `MessageResults`: the part of the
body the readers see (`sample`, with `to_body` mapping its offsets back to the body),
the result tables found in it and the classifier's verdict.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from extract.results.classify import Verdict, classify
from extract.results.formats import ResultTable, extract_results

# Only this much of a body goes to the format parsers and the classifier: result
# posts are far shorter, and a 10 MB log pasted into a mail must not stall a run.
MAX_EXTRACT_CHARS = 100_000
# Runs of this many non-space characters (base64, hex dumps, a 10 MB line) are cut
# short for the parsers: no table cell is that long, and regexes with nested
# quantifiers take quadratic time or worse on them.
# (only from a token's start: trying every position inside long tokens took 0.1 ms a message)
_LONG_TOKEN = re.compile(r"(?<!\S)\S{1000,}")
_LONG_TOKEN_KEEP = 100
_LONG_TOKEN_MARK = " [...]"

# A file's section of a git diff (commit mail): from its `diff --git` line to the next.
_DIFF_FILE = re.compile(r"^diff --git a/\S+ b/(\S+)[^\n]*\n", re.M)
# Source code and markup: numbers in their hunks are code, not results. (Results
# files, `*-results.txt`, `*.md`, `*.csv`, `*.json`, `*.log`, stay.)
_CODE_FILE = re.compile(
    r"\.(?:java|scala|kt|groovy|gradle|py|pyx|js|jsx|mjs|ts|tsx|go|rs|c|cc|cpp|cxx|h|hh|hpp"
    r"|cs|rb|php|pl|lua|sh|bash|bat|cmd|ps1|css|scss|less|html?|xml|xsl|xsd|ya?ml|toml"
    r"|properties|proto|thrift|avsc|sql|vue|svg|cmake|mk|r|m|swift|erl|ex|exs|clj|hs"
    r"|png|jpe?g|gif|ico|jar|zip|gz)$|(?:^|/)(?:Makefile|Dockerfile|pom\.xml|BUILD)$",
    re.I,
)


@dataclass(slots=True)
class OffsetMap:
    """Where the characters of a text cut out of another came from: `pieces` are
    (start in the cut text, start in the original), each piece running on unchanged
    to the next piece's start; `then` maps on from that original, when it was itself
    cut out of another. No pieces: the cut text is a prefix of the original."""

    pieces: list[tuple[int, int]] = field(default_factory=list)
    then: OffsetMap | None = None

    def __call__(self, pos: int) -> int:
        k = bisect_right(self.pieces, (pos, float("inf"))) - 1
        if k >= 0:
            cut, original = self.pieces[k]
            pos = original + pos - cut
        return self.then(pos) if self.then is not None else pos


def _without_code_hunks(text: str) -> tuple[str, list[tuple[int, int]]]:
    """`text` with the hunks of source files in a git diff left out, each file's
    `diff --git` line kept (so the classifier still sees a code diff): a commit of
    40 kB of HTML or Java would otherwise cost the parsers and the classifier 10 ms
    for numbers that are code. Hunks of other files (results, docs, data) stay.
    Also the pieces of an `OffsetMap` back to `text`."""
    files = list(_DIFF_FILE.finditer(text))
    if not files:
        return text, []
    out = [text[: files[0].start()]]
    pieces = [(0, 0)]
    length = len(out[0])
    for f, nxt in zip(files, [*files[1:], None], strict=True):
        end = nxt.start() if nxt else len(text)
        kept_end = f.end() if _CODE_FILE.search(f.group(1)) else end
        pieces.append((length, f.start()))
        out.append(text[f.start() : kept_end])
        length += kept_end - f.start()
    return "".join(out), pieces


def _shorten_long_tokens(text: str) -> tuple[str, list[tuple[int, int]]]:
    out, pieces, last, length = [], [], 0, 0
    for m in _LONG_TOKEN.finditer(text):
        keep_end = m.start() + _LONG_TOKEN_KEEP
        out.append(text[last:keep_end])
        pieces.append((length, last))
        length += keep_end - last
        out.append(_LONG_TOKEN_MARK)
        # (the mark stands for the cut part: it maps to where the cut begins)
        pieces.append((length, keep_end))
        length += len(_LONG_TOKEN_MARK)
        last = m.end()
    if not out:
        return text, []
    out.append(text[last:])
    pieces.append((length, last))
    return "".join(out), pieces


def extraction_text(body: str) -> str:
    """The part of a cleaned body that the format parsers and the classifier see."""
    return extraction_sample(body)[0]


def extraction_sample(body: str) -> tuple[str, OffsetMap]:
    """`extraction_text(body)` and the map of its offsets back to `body`."""
    to_body = OffsetMap()
    if "diff --git " in body:
        body_cut, pieces = _without_code_hunks(body)
        to_body = OffsetMap(pieces)
    else:
        body_cut = body
    sample = body_cut[:MAX_EXTRACT_CHARS]
    # (a token that long needs a line that long: a cheap test spares most bodies the scan)
    if len(sample) < 1000 or max(map(len, sample.splitlines())) < 1000:
        return sample, to_body
    sample, pieces = _shorten_long_tokens(sample)
    return sample, OffsetMap(pieces, then=to_body) if pieces else to_body


@dataclass(slots=True)
class MessageResults:
    sample: str  # what the readers saw: `extraction_text(body)`
    to_body: OffsetMap  # offsets in `sample` -> offsets in the body
    tables: list[ResultTable]
    verdict: Verdict


def message_results(
    body: str,
    *,
    subject: str | None = None,
    kind: str | None = None,
    on_stage: Callable[[str], None] | None = None,
) -> MessageResults:
    """The tables and the verdict of one cleaned message body. `on_stage` is told the
    stage each step starts (`extract`, `classify`), for the pipeline's error rows."""
    if on_stage:
        on_stage("extract")
    sample, to_body = extraction_sample(body)
    tables = extract_results(sample)
    if on_stage:
        on_stage("classify")
    verdict = classify(sample, tables, subject=subject, kind=kind)
    return MessageResults(sample, to_body, tables, verdict)
