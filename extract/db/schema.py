"""The database schema, declared once. `store` creates it, the README documents it
from here (`python -m extract.db.schema --markdown`), tests and the report rely on it.

Each table is a list of (column, DuckDB type, meaning).

Text is stored once. A message's `body` (its own text) is most of its decoded `text`:
the text minus quoted replies, issue blocks and footers. So `messages.text` is a
virtual column (DuckDB computes it when read, it takes no space): `text_parts(text,
body)` keeps what of the text is not the body (`text_rest`) and where the body goes
in it (`text_map`: where the body starts when the body is a part of the text, else
for each line of the text the line of the body or of text_rest it is); `TEXT_SQL`
puts them together again, exactly (`text_of` in Python). Readers select `text` as
before; `text_rest` and `text_map` are storage, left out of exports (`public_select`).
The long text columns (`COMPRESSED`) are stored with zstd where the database file's
storage version has it (DuckDB >= 1.2 files); older files keep DuckDB's default.
"""

from __future__ import annotations

import sys
from bisect import bisect_left

# fmt: off
TABLES: dict[str, list[tuple[str, str, str]]] = {
    "messages": [
        ("msg_key", "VARCHAR", "stable unique key: <list>/<YYYY-MM>/<Message-ID> (sha256:<16 hex> of the raw bytes when absent), #2, #3 ... when an id repeats in an archive"),
        ("list", "VARCHAR", "list address, e.g. issues@kudu.apache.org"),
        ("archive", "VARCHAR", "raw archive path, relative to DATA_DIR"),
        ("position", "INTEGER", "0-based index of the message in its archive"),
        ("offset", "BIGINT", "byte offset of the message's envelope line in the uncompressed archive"),
        ("message_id", "VARCHAR", "Message-ID without <>; NULL when absent"),
        ("in_reply_to", "VARCHAR", "In-Reply-To without <>"),
        ("refs", "VARCHAR[]", "References, without <>"),
        ("sent_at", "TIMESTAMPTZ", "from the Date header, else dateparser, else the envelope date"),
        ("date_source", "VARCHAR", "header, dateparser, envelope or NULL (years outside 1900-2100 are not used)"),
        ("notes", "VARCHAR[]", "what the reader could only read in part: MIME or HTML nested past its depth cap, unusable dates"),
        ("from_name", "VARCHAR", "decoded display name"),
        ("from_address", "VARCHAR", "sender address"),
        ("subject", "VARCHAR", "decoded, unfolded subject"),
        ("kind", "VARCHAR", "jira, github, commit or mail"),
        ("action", "VARCHAR", "what happened: Commented, Created, Work logged, commented on pull request, pushed ..."),
        ("actor", "VARCHAR", "who did it: the JIRA commenter, the GitHub user, the pusher"),
        ("issue_key", "VARCHAR", "JIRA issue key, e.g. KUDU-1930"),
        ("repo", "VARCHAR", "repository, e.g. hive"),
        ("pr_number", "BIGINT", "pull request or GitHub issue number (NULL when the mail's number does not fit)"),
        ("branch", "VARCHAR", "branch of a commit mail"),
        ("commit_id", "VARCHAR", "commit id (or svn revision) of a commit mail"),
        ("url", "VARCHAR", "the comment/issue/PR/commit link the message itself gives"),
        ("permalink", "VARCHAR", "link to the message on lists.apache.org"),
        ("content_type", "VARCHAR", "MIME type the body was taken from (text/plain or text/html)"),
        ("attachments", "VARCHAR[]", "attachments as 'name (type)'"),
        ("size", "INTEGER", "raw message size in bytes"),
        ("is_benchmark", "BOOLEAN", "the message reports measured benchmark numbers (NULL: not looked at, --messages-only)"),
        ("benchmark_score", "DOUBLE", "the verdict's confidence that it is a report, 0..1 (the gate's score when the gate turned it away)"),
        ("benchmark_reasons", "VARCHAR[]", "the features that decided it, e.g. 'jmh table', 'quoted only'"),
        ("formats", "VARCHAR[]", "formats of the result tables found in the message's own text"),
        ("body", "VARCHAR", "the message's own text: no quoted replies, issue blocks, footers"),
        ("text_rest", "VARCHAR", "storage of `text` (read `text`): what of it is not the body; all of it when text_map is NULL; NULL when the text is the body"),
        ("text_map", "INTEGER[]", "storage of `text` (read `text`): [0, n] when the body is in it after n characters of text_rest; else for each of its lines, the 1-based index of that line in the body's lines followed by text_rest's; NULL when text_rest (or the body) is the whole text"),
        ("text", "VARCHAR", "the full decoded text before cleaning (nothing is lost); computed from body, text_rest and text_map, never stored twice"),
    ],
    "result_tables": [
        ("table_id", "VARCHAR", "msg_key + '#' + ordinal"),
        ("msg_key", "VARCHAR", "the message it came from"),
        ("ordinal", "INTEGER", "0-based position among the message's tables"),
        ("format", "VARCHAR", "jmh, jira-table, markdown-table, html-table, ascii-table, gnu-time, bash-time, hbase-pe, ycsb, ..."),
        ("caption", "VARCHAR", "the table's title, when it has one"),
        ("variant", "VARCHAR", "the run or setting the whole table belongs to (the heading before it)"),
        ("columns", "VARCHAR[]", "column names"),
        ("n_rows", "INTEGER", "number of rows"),
        ("rows", "VARCHAR[][]", "the cells, as written"),
        ("source", "VARCHAR", "the text it came from"),
    ],
    "measurements": [
        ("msg_key", "VARCHAR", "the message"),
        ("table_id", "VARCHAR", "the table; NULL for numbers found in prose"),
        ("ordinal", "INTEGER", "0-based position among the message's measurements"),
        ("label", "VARCHAR", "benchmark or row name"),
        ("variant", "VARCHAR", "the run or setting, e.g. Before patch, with 4 MM threads"),
        ("metric", "VARCHAR", "Score, real, Avg latency, a column name"),
        ("value", "DOUBLE", "as written, separators removed (0:02.10 is 2.1 seconds); a range's lower end"),
        ("value_max", "DOUBLE", "the upper end when the number is a range (2-5x: 5), in the unit of `value`"),
        ("written", "VARCHAR", "the number exactly as written"),
        ("unit", "VARCHAR", "as written: ms/op, s, us, %, rows/s"),
        ("value_si", "DOUBLE", "value in unit_si, where the unit is known"),
        ("unit_si", "VARCHAR", "s, B, B/s, 1/s or 1 (fractions for %, counts, factors)"),
        ("params", "VARCHAR", "what identifies the quantity besides the label: @Param values, column groups (size=100 / GCS)"),
        ("side", "VARCHAR", "before or after: its side of a comparison the message makes; change: a stated change; NULL: not compared"),
        ("side_name", "VARCHAR", "the side as the text names it: Before patch, baseline, No changes"),
        ("quantity", "VARCHAR", "what is compared: the metric without the side's name (QPS for 'QPS baseline')"),
        ("quantity_key", "VARCHAR", "<rule>|...: equal for the numbers of one quantity in one comparison; the comparisons view pairs a before and an after of one key"),
        ("noise", "DOUBLE", "the stated error of the number relative to it (0.05 = ±5 %): its row's Error, ±, StdDev or interval"),
        ("error", "DOUBLE", "the stated error of the number, in its unit: the ± after it, its row's Error or interval half-width"),
        ("stdev", "DOUBLE", "the stated standard deviation of the number, in its unit (its row's StdDev, σ)"),
        ("samples", "DOUBLE", "how many samples or iterations the number summarises (JMH Cnt, go's b.N, n)"),
        ("span_start", "INTEGER", "where the number starts in the message's `body` (0-based character offset)"),
        ("span_end", "INTEGER", "where it ends in `body` (exclusive): body[span_start:span_end] is `written`"),
        ("score", "DOUBLE", "the number model's confidence that this is a measurement, 0..1"),
        ("claim_factor", "DOUBLE", "on an after number: the speed-up over its baseline that the message's words state for this pair (before: 4.81x slower is 4.81); on the number of a claim no pair carries (prose's 3x faster): that claim, read the same way"),
        ("claim_words", "VARCHAR", "the words of that claim, as written (4.81x slower, 7% speedup)"),
    ],
    "errors": [
        ("archive", "VARCHAR", "raw archive path, relative to DATA_DIR; a directory (ending in /) that could not be listed"),
        ("position", "INTEGER", "0-based index of the message in the archive; NULL for the whole archive"),
        ("message_id", "VARCHAR", "Message-ID, when it could be read"),
        ("stage", "VARCHAR", "read, parse, kind, clean, extract, classify or store"),
        ("reason", "VARCHAR", "what went wrong"),
    ],
    "archives": [
        ("path", "VARCHAR", "raw archive path, relative to DATA_DIR"),
        ("list", "VARCHAR", "list address"),
        ("month", "VARCHAR", "YYYY-MM"),
        ("sha256", "VARCHAR", "sha256 of the compressed file's bytes when extracted"),
        ("size", "BIGINT", "compressed size in bytes"),
        ("n_messages", "INTEGER", "messages in the archive (stored or in errors: a message over its time budget is both)"),
        ("n_errors", "INTEGER", "messages of this archive in errors"),
        ("extracted_at", "TIMESTAMPTZ", "when it was extracted"),
        ("results", "BOOLEAN", "benchmark results were looked for (false after --messages-only)"),
        ("extractor", "VARCHAR", "digest of the extraction code that made the rows; other code re-extracts"),
    ],
}
# fmt: on


# The views' columns and their meanings (the views themselves are built in
# extract/db/views.py and findings.py). "@table" means: as that table's column of the
# same name, "@table.column" as that column. `views.create_views` stores each as a
# COMMENT ON COLUMN, as for the tables; tests/test_docs.py checks that every column
# of every view has one and that none is left over.
# fmt: off
_MSG = "@messages"
_CLAIM = {
    "msg_key": "the benchmark message that makes the claim",
    "project": "@benchmark_messages",
    "list": _MSG,
    "sent_at": _MSG,
    "kind": _MSG,
    "from_name": _MSG,
    "subject": _MSG,
    "issue_key": _MSG,
    "repo": _MSG,
    "pr_number": _MSG,
    "ref": "what the claim is about: the JIRA key, else repo#PR",
    "pairs": "before/after pairs of the message (rows of comparisons)",
    "improvements": "pairs whose change is an improvement (a verdict past the noise only)",
    "regressions": "pairs whose change is a regression (a verdict past the noise only)",
    "within_noise": "pairs whose change is within their stated noise",
    "no_noise_stated": "pairs whose change is inside the default threshold where no noise is stated",
    "best_ratio": "ratio (after / before) of the best pair",
    "worst_ratio": "ratio (after / before) of the worst pair",
    "best_speedup": "how many times better the best pair is: before/after for lower-is-better, after/before for higher-is-better",
    "worst_speedup": "the same for the worst pair (below 1: a regression)",
    "best_pair": "the best pair: label / params / metric",
    "worst_pair": "the worst pair: label / params / metric",
    "direction": "improvement, regression, mixed, within noise or no noise stated, from its pairs; NULL without pairs",
    "noise_stated": "some pair states its noise (an error, a spread of runs)",
    "outside_noise": "some pair with stated noise changes beyond it; NULL when no pair states its noise",
    "claimed_words": "the message's own words of a change: '3x faster', '20 % slower', hyperfine's '1.23 ± 0.02 times faster'",
    "claimed_factor": "the factor those words state, as the change's speed-up over its baseline whichever side they describe (3x faster 3, 20 % slower 1/1.2, 'before: 4.81x slower' 4.81): the one farthest from 1",
    "claim_check": "the words against the numbers of the pairs they are about: agrees, contradicts or unconfirmed; NULL when no pair carries them",
}
VIEW_COLUMNS: dict[str, dict[str, str]] = {
    "benchmark_messages": {
        "msg_key": _MSG, "project": "from the list's domain: kudu for issues@kudu.apache.org, apache for @apache.org lists",
        "list": _MSG, "sent_at": _MSG, "from_name": _MSG, "from_address": _MSG,
        "subject": _MSG, "kind": _MSG, "issue_key": _MSG, "repo": _MSG, "pr_number": _MSG,
        "url": _MSG, "permalink": _MSG, "formats": _MSG,
        "n_tables": "result tables found in the message",
        "n_measurements": "measurements found in the message",
        "benchmark_score": _MSG, "benchmark_reasons": _MSG, "body": _MSG,
    },
    "comparisons": {
        "msg_key": "the message that compares",
        "table_id": "the table of the after value; NULL in prose",
        "label": "benchmark or row name; NULL when the labels are the sides (rows | master | / | this PR |, settings lists); a run number is dropped when runs are averaged",
        "params": "what else identifies the quantity: @Param values, column groups (size=100 / GCS)",
        "metric": "the quantity compared: Score, QPS (for QPS baseline / QPS my_modified_version), time/op",
        "before": "the before side as the message names it: Before patch, baseline, No changes",
        "after": "the after side as the message names it",
        "before_value": "the before number, in unit (a before written in another unit is converted into it)",
        "after_value": "the after number as written, in unit",
        "unit": "unit of the after value as written",
        "unit_si": "its SI unit: s, B, B/s, 1/s or 1",
        "ratio": "after / before, in SI units when known",
        "change_pct": "100 × (ratio − 1), rounded to 0.01",
        "direction": "which way is better: lower (times, latency, memory) or higher (rates, throughput); NULL when unknown",
        "change": "improvement or regression by the direction when |ratio − 1| exceeds the threshold; inside it within noise (noise stated) or no noise stated; NULL when the direction is unknown",
        "noise": "the stated relative error of both sides added (Error, ±, StdDev, interval), or the spread of repeated runs; NULL when none is stated",
        "comparison": "<before> vs <after>",
        "rule": "how the sides were found: format, variants, settings, columns, rows, claims, reference or stated change",
        "better": "kept for older queries: true for an improvement, false for a regression, else NULL",
        "threshold": "what a change must exceed to get a verdict: noise, else the default (5 %; SET VARIABLE noise_default = 0.02 changes it in a session)",
        "speedup": "how many times better the after is: before/after for lower-is-better, after/before for higher-is-better",
        "claimed_factor": "the speed-up the message's own words state for this pair, whichever side they describe ('before: 4.81x slower' is 4.81)",
        "claimed_words": "those words",
        "claim": "the words against the numbers: agrees, contradicts (the numbers go the other way past the threshold) or unconfirmed (they stay inside it while the words state more)",
    },
    "by_list": {
        "list": _MSG, "project": "@benchmark_messages",
        "messages": "messages of the list",
        "benchmark_messages": "of them, the messages that report benchmarks",
        "benchmark_share": "benchmark_messages / messages, 4 decimals",
        "tables": "result tables in its benchmark messages",
        "measurements": "measurements in its benchmark messages",
        "first_message": "date of its first message", "last_message": "date of its last message",
    },
    "by_project": {
        "project": "@benchmark_messages", "lists": "lists of the project",
        "messages": "messages of its lists",
        "benchmark_messages": "of them, the messages that report benchmarks",
        "benchmark_share": "benchmark_messages / messages, 4 decimals",
        "tables": "result tables in its benchmark messages",
        "measurements": "measurements in its benchmark messages",
        "first_benchmark": "date of its first benchmark message",
        "last_benchmark": "date of its last benchmark message",
    },
    "measurement_series": {
        "msg_key": "@measurements", "table_id": "@measurements", "ordinal": "@measurements",
        "project": "@benchmark_messages", "list": _MSG, "sent_at": _MSG,
        "label": "@measurements", "params": "@measurements", "variant": "@measurements",
        "metric": "@measurements", "value": "@measurements", "unit": "@measurements",
        "value_si": "@measurements", "unit_si": "@measurements", "noise": "@measurements",
        "series_key": "16 hex digits of an md5 of project, normalised label, parameters, metric and SI unit: the same benchmark in another message (or the other side of a comparison) gets the same key",
    },
    "series": {
        "series_key": "@measurement_series", "project": "@benchmark_messages",
        "label": "the label as first written", "params": "its parameters as first written",
        "metric": "its metric as first written", "unit": "its SI unit, else the unit as written",
        "messages": "messages with a measurement of the series",
        "measurements": "measurements of the series",
        "first_seen": "date of its first message", "last_seen": "date of its last message",
        "lists": "the lists it was seen on",
    },
    "claims": _CLAIM,
    "commit_links": {
        "msg_key": "the commit mail (or GitHub merged notification)",
        "list": _MSG, "kind": _MSG, "repo": _MSG, "branch": _MSG, "commit_id": _MSG,
        "url": _MSG, "committed_at": "@messages.sent_at", "actor": _MSG,
        "title": "the commit's title: its subject without the list's prefix",
        "link": "issue or pr: what the commit names",
        "issue_key": "the JIRA key it names (link = issue)",
        "pr_repo": "the repository of the pull request it names (link = pr)",
        "pr_number": "the pull request it names (link = pr)",
        "found_in": "where: subject, message, (#N), closes #N, pull link or merged notification",
    },
    "jira_resolutions": {
        "msg_key": "the JIRA mail", "list": _MSG, "issue_key": _MSG, "sent_at": _MSG,
        "action": _MSG, "actor": _MSG, "url": _MSG,
        "status": "Resolved, Closed or Reopened, when the mail changes the status",
        "resolution": "Resolution: Fixed, Won't Fix ...",
        "fix_versions": "Fix Version/s, with the values continued below it, (was: ...) dropped",
    },
    "resolutions": {
        "issue_key": _MSG,
        "resolved": "the latest status event is Resolved or Closed (a reopened issue is not)",
        "resolved_at": "when it was last resolved or closed",
        "resolution": "the resolution of the latest mail that states one",
        "fix_versions": "the fix versions of the latest mail that states them",
        "mails": "its JIRA mails that change status, resolution or fix versions",
    },
    "landed": {
        **_CLAIM,
        "committed": "a commit mail names the claim's issue key or pull request",
        "n_commits": "commit mails that name it",
        "first_committed_at": "date of the first of them",
        "last_committed_at": "date of the last of them",
        "commits": "those commits: commit_id, repo, branch, committed_at, title, url, found_in, msg_key",
        "resolved": "@resolutions", "resolved_at": "@resolutions",
        "resolution": "@resolutions", "fix_versions": "@resolutions",
    },
}
# fmt: on


def view_meaning(view: str, column: str) -> str | None:
    """The meaning of `view`.`column` from VIEW_COLUMNS (references followed); None
    when it has none."""
    meaning = VIEW_COLUMNS.get(view, {}).get(column)
    for _ in range(4):  # (a reference may name another reference)
        if meaning is None or not meaning.startswith("@"):
            return meaning
        source, _, other = meaning[1:].partition(".")
        other = other or column
        if source in TABLES:
            meaning = next((m for c, _, m in TABLES[source] if c == other), None)
        else:
            meaning = VIEW_COLUMNS.get(source, {}).get(other)
    return meaning


# `text` from its storage: the body when both are NULL, text_rest alone when there is
# no map, NULL for an empty map; [0, n]: the body inside text_rest after its first n
# characters; else the map's lines picked from the body's lines followed by text_rest's.
TEXT_SQL = (
    "CASE WHEN text_map IS NULL THEN coalesce(text_rest, body) WHEN len(text_map) = 0 THEN NULL "
    "WHEN text_map[1] = 0 THEN left(text_rest, text_map[2]) || body "
    "|| substr(text_rest, text_map[2] + 1) "
    "ELSE array_to_string(list_select(list_concat(string_split(coalesce(body, ''), chr(10)), "
    "string_split(coalesce(text_rest, ''), chr(10))), text_map), chr(10)) END"
)
# (table, column) -> the expression of a virtual column: computed when read, not stored
GENERATED = {("messages", "text"): TEXT_SQL}
# columns of long text, stored with zstd (DuckDB's default leaves long strings uncompressed)
COMPRESSED = {("messages", "body"), ("messages", "text_rest")}
# per table, the columns that are storage only: exports and datasets leave them out
STORAGE_ONLY = {"messages": ("text_rest", "text_map")}
# A map whose own lines are most of the text saves nothing: the text is kept whole.
_WHOLE_SHARE = 0.8


def project_sql(col: str) -> str:
    """SQL expression: the project of a list address, e.g. kudu for issues@kudu.apache.org;
    'apache' for lists of apache.org itself, the whole domain for other domains (the
    views and the findings both group by it)."""
    domain = f"lower(split_part({col}, '@', 2))"
    return (
        f"CASE WHEN {domain} = 'apache.org' THEN 'apache' "
        f"WHEN {domain} LIKE '%.apache.org' THEN split_part({domain}, '.', 1) "
        f"ELSE {domain} END"
    )


def _column_sql(table: str, col: str, typ: str, compress: bool) -> str:
    if (table, col) in GENERATED:
        return f'"{col}" {typ} GENERATED ALWAYS AS ({GENERATED[table, col]}) VIRTUAL'
    if compress and (table, col) in COMPRESSED:
        return f'"{col}" {typ} USING COMPRESSION zstd'
    return f'"{col}" {typ}'


def create_statement(table: str, *, name: str | None = None, compress: bool = True) -> str:
    """CREATE TABLE IF NOT EXISTS for `table` (under `name`); `compress=False` for
    database files whose storage version has no zstd for strings."""
    return (
        f'CREATE TABLE IF NOT EXISTS "{name or table}" ('
        + ", ".join(_column_sql(table, col, typ, compress) for col, typ, _ in TABLES[table])
        + ")"
    )


def create_statements(*, compress: bool = True) -> list[str]:
    """CREATE TABLE IF NOT EXISTS for every table."""
    return [create_statement(name, compress=compress) for name in TABLES]


def public_select(table: str, have: set[str] | None = None) -> str:
    """`SELECT` list of `table`'s columns for readers: every column but storage ones
    (of those in `have`, the columns the database has, when given: an older file may
    lack them)."""
    hidden = [c for c in STORAGE_ONLY.get(table, ()) if have is None or c in have]
    return f"* EXCLUDE ({', '.join(hidden)})" if hidden else "*"


def text_parts(text: str | None, body: str | None) -> tuple[str | None, list[int] | None]:
    """(text_rest, text_map) that store `text` beside `body`: see the module docstring.
    When the body is a part of the text, text_rest is the text without it and the map
    [0, where it starts]; else the body's lines are looked for in order through the
    text's lines, and the text's lines between them are text_rest's. Reversible for
    every text and body: `text_of(body, *text_parts(text, body)) == text`."""
    if text == body:
        return None, None
    if text is None:
        return None, []  # (an empty text still has one line)
    if body is None:
        return text, None
    if body and (start := text.find(body)) >= 0:  # the body is a part of the text
        return text[:start] + text[start + len(body) :], [0, start]
    lines = text.split("\n")
    n_lines = len(lines)
    at: dict[str, list[int]] | None = None  # line -> where the text has it, when needed
    body_lines = body.split("\n")
    rest: list[str] = []
    out: list[int] = []
    next_rest = len(body_lines) + 1  # the map's index of text_rest's next line
    i = 0  # the first line of the text not yet taken
    for j, line in enumerate(body_lines, 1):
        # (most body lines are the text's next line, the first place a lookup finds:
        # only the others need the index of every line)
        if i < n_lines and lines[i] == line:
            out.append(j)
            i += 1
            continue
        if at is None:
            at = {}
            for k, text_line in enumerate(lines):
                at.setdefault(text_line, []).append(k)
        where = at.get(line)
        if where is None:
            continue  # a line of the body's own (cleaning rewrote it)
        p = bisect_left(where, i) if where[0] < i else 0
        if p == len(where):
            continue
        k = where[p]
        if k > i:
            out.extend(range(next_rest, next_rest + k - i))
            rest.extend(lines[i:k])
            next_rest += k - i
        out.append(j)
        i = k + 1
    out.extend(range(next_rest, next_rest + len(lines) - i))
    rest.extend(lines[i:])
    rest_text = "\n".join(rest)
    if len(rest_text) >= _WHOLE_SHARE * len(text):
        return text, None
    return rest_text, out


def text_of(body: str | None, text_rest: str | None, text_map: list[int] | None) -> str | None:
    """`text` from its storage, as TEXT_SQL computes it."""
    if text_map is None:
        return text_rest if text_rest is not None else body
    if not text_map:
        return None
    if text_map[0] == 0:
        start = text_map[1]
        return (text_rest or "")[:start] + (body or "") + (text_rest or "")[start:]
    lines = (body or "").split("\n") + (text_rest or "").split("\n")
    return "\n".join(lines[k - 1] for k in text_map)


def comment_statements() -> list[str]:
    """COMMENT ON COLUMN for every column, from its meaning, so any DuckDB client
    (`duckdb_columns()`, DBeaver, a notebook) shows what a column holds."""

    def quoted(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    return [
        f'COMMENT ON COLUMN "{name}"."{col}" IS {quoted(meaning)}'
        for name, cols in TABLES.items()
        for col, _, meaning in cols
    ]


def view_comment_statements(have: list[tuple[str, str]]) -> list[str]:
    """COMMENT ON COLUMN for the view columns in `have` ((view, column) pairs, those the
    database has) that VIEW_COLUMNS gives a meaning."""

    def quoted(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    return [
        f'COMMENT ON COLUMN "{view}"."{col}" IS {quoted(meaning)}'
        for view, col in have
        if (meaning := view_meaning(view, col)) is not None
    ]


def columns(table: str) -> list[str]:
    """The stored columns of `table`: those an INSERT gives (virtual ones are computed)."""
    return [col for col, _, _ in TABLES[table] if (table, col) not in GENERATED]


def markdown() -> str:
    out = []
    for name, cols in TABLES.items():
        out.append(f"#### `{name}`\n\n| column | type | meaning |\n|---|---|---|")
        out += [
            f"| `{c}` | {t}{' (virtual)' if (name, c) in GENERATED else ''} | {m} |"
            for c, t, m in cols
        ]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    if "--markdown" in sys.argv:
        print(markdown())
    else:
        print(";\n".join(create_statements()) + ";")
