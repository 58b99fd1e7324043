"""The database schema, declared once. `store` creates it, the README documents it
from here (`python -m extract.db.schema --markdown`), tests and the report rely on it.

Each table is a list of (column, DuckDB type, meaning).
"""

from __future__ import annotations

import sys

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
        ("benchmark_score", "DOUBLE", "the classifier's confidence, 0..1"),
        ("benchmark_reasons", "VARCHAR[]", "the features that decided it, e.g. 'jmh table', 'quoted only'"),
        ("formats", "VARCHAR[]", "formats of the result tables found in the message's own text"),
        ("body", "VARCHAR", "the message's own text: no quoted replies, issue blocks, footers"),
        ("text", "VARCHAR", "the full decoded text before cleaning (nothing is lost)"),
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
        ("value", "DOUBLE", "as written, separators removed (0:02.10 is 2.1 seconds)"),
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
    ],
    "errors": [
        ("archive", "VARCHAR", "raw archive path, relative to DATA_DIR; a directory (ending in /) that could not be listed"),
        ("position", "INTEGER", "0-based index of the message in the archive; NULL for the whole archive"),
        ("message_id", "VARCHAR", "Message-ID, when it could be read"),
        ("stage", "VARCHAR", "read, parse, clean, classify, extract or store"),
        ("reason", "VARCHAR", "what went wrong"),
    ],
    "archives": [
        ("path", "VARCHAR", "raw archive path, relative to DATA_DIR"),
        ("list", "VARCHAR", "list address"),
        ("month", "VARCHAR", "YYYY-MM"),
        ("sha256", "VARCHAR", "sha256 of the compressed file's bytes when extracted"),
        ("size", "BIGINT", "compressed size in bytes"),
        ("n_messages", "INTEGER", "messages in the archive (stored + errors)"),
        ("n_errors", "INTEGER", "messages of this archive in errors"),
        ("extracted_at", "TIMESTAMPTZ", "when it was extracted"),
        ("results", "BOOLEAN", "benchmark results were looked for (false after --messages-only)"),
        ("extractor", "VARCHAR", "digest of the extraction code that made the rows; other code re-extracts"),
    ],
}
# fmt: on


def create_statements() -> list[str]:
    """CREATE TABLE IF NOT EXISTS for every table."""
    return [
        f"CREATE TABLE IF NOT EXISTS {name} ("
        + ", ".join(f'"{col}" {typ}' for col, typ, _ in cols)
        + ")"
        for name, cols in TABLES.items()
    ]


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


def columns(table: str) -> list[str]:
    return [col for col, _, _ in TABLES[table]]


def markdown() -> str:
    out = []
    for name, cols in TABLES.items():
        out.append(f"#### `{name}`\n\n| column | type | meaning |\n|---|---|---|")
        out += [f"| `{c}` | {t} | {m} |" for c, t, m in cols]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    if "--markdown" in sys.argv:
        print(markdown())
    else:
        print(";\n".join(create_statements()) + ";")
