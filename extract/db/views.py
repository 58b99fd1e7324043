"""Views in the database for the common questions; `create_views(con)` creates them.

Returns nothing: it (re)creates, idempotently, on an open DuckDB connection whose
tables come from `extract.db.schema`:

- `benchmark_messages`: one row per message that reports benchmark numbers, with its
  project, the number of tables and measurements, and its links.
- `comparisons`: before/after pairs from one message, with their ratio (rule below).
- `by_project`: per project (from the list's domain): lists, messages, benchmark
  messages, their share, tables, measurements, first and last benchmark date.
- `by_list`: the same per list.

The comparison rule, for measurements of one message with the same label and metric:
1. variants: when they differ, each variant is compared with the baseline, which is the
   first variant named like a baseline (before, old, baseline, base, without, master,
   trunk, main, original, unpatched, vanilla, current, reference), else the first variant
   in the text. This covers before/after tables and multi-variant runs.
2. columns: within one table row with no variant, a column named like a baseline is
   compared with the columns named like a change (after, new, patch, patched, with,
   fix, optimized, proposed, pr, branch) in the same row, e.g. `| query | before | after |`.
Metrics that describe a run (Cnt, Error, samples, Stdev(ms), Relative, ...) are not compared.
Values are compared in SI units when both have them, else only when written in the
same unit. `ratio` = after / before; `better` says whether the change is an
improvement when the unit tells the direction (time: lower, rates: higher).
"""

from __future__ import annotations

import duckdb

# Words (whole words, case-insensitive) that name the baseline or the changed run.
BASELINE_WORDS = (
    "before|old|baseline|base|without|master|trunk|main|original|unpatched|vanilla|"
    "current|reference|ref"
)
CHANGE_WORDS = "after|new|patch|patched|with|fix|fixed|optimi[sz]ed|proposed|pr|branch"
# Metrics that describe a run rather than measure it (JMH's Cnt and Error columns, ...):
# never compared.
NOT_COMPARED = (
    r"^\s*(cnt|count|samples|iterations|iters|n|error|err|±|\+/-|std\s?dev|stdev|sd|relative)"
    r"\s*(\(.*\))?\s*$"
)

VIEW_NAMES = ("benchmark_messages", "comparisons", "by_project", "by_list")


def _project(col: str) -> str:
    """SQL expression: the project of a list address, e.g. kudu for issues@kudu.apache.org;
    'apache' for lists of apache.org itself, the whole domain for other domains."""
    domain = f"lower(split_part({col}, '@', 2))"
    return (
        f"CASE WHEN {domain} = 'apache.org' THEN 'apache' "
        f"WHEN {domain} LIKE '%.apache.org' THEN split_part({domain}, '.', 1) "
        f"ELSE {domain} END"
    )


def statements() -> list[str]:
    """The CREATE OR REPLACE VIEW statements, in dependency order."""
    baseline = f"'(^|[^a-z])({BASELINE_WORDS})([^a-z]|$)'"
    change = f"'(^|[^a-z])({CHANGE_WORDS})([^a-z]|$)'"
    counts = """
        SELECT m.msg_key, coalesce(t.n, 0) AS n_tables, coalesce(x.n, 0) AS n_measurements
        FROM messages m
        LEFT JOIN (SELECT msg_key, count(*) AS n FROM result_tables GROUP BY 1) t USING (msg_key)
        LEFT JOIN (SELECT msg_key, count(*) AS n FROM measurements GROUP BY 1) x USING (msg_key)
    """
    benchmark_messages = f"""
        CREATE OR REPLACE VIEW benchmark_messages AS
        SELECT m.msg_key, {_project("m.list")} AS project, m.list, m.sent_at, m.from_name,
               m.from_address, m.subject, m.kind, m.issue_key, m.repo, m.pr_number, m.url,
               m.permalink, m.formats, c.n_tables, c.n_measurements, m.benchmark_score,
               m.benchmark_reasons, m.body
        FROM messages m JOIN ({counts}) c USING (msg_key)
        WHERE m.is_benchmark
    """
    comparisons = f"""
        CREATE OR REPLACE VIEW comparisons AS
        WITH m AS (
            SELECT *,
                   coalesce(unit_si, unit, '') AS unit_key,
                   coalesce(value_si, value) AS cmp_value,
                   regexp_matches(lower(coalesce(variant, '')), {baseline}) AS variant_is_base,
                   regexp_matches(lower(coalesce(metric, '')), {baseline}) AS metric_is_base,
                   regexp_matches(lower(coalesce(metric, '')), {change}) AS metric_is_change
            FROM measurements
            WHERE NOT regexp_matches(lower(coalesce(metric, '')), '{NOT_COMPARED}')
        ),
        -- rule 1: one value per (message, label, metric, unit, variant): the first written
        runs AS (
            SELECT msg_key, coalesce(label, '') AS label_key, metric, unit_key, variant,
                   arg_min(cmp_value, ordinal) AS cmp_value, arg_min(value, ordinal) AS value,
                   arg_min(unit, ordinal) AS unit, arg_min(unit_si, ordinal) AS unit_si,
                   arg_min(table_id, ordinal) AS table_id, min(ordinal) AS first_ordinal,
                   bool_or(variant_is_base) AS is_base
            FROM m WHERE variant IS NOT NULL
            GROUP BY ALL
        ),
        baseline AS (
            SELECT msg_key, label_key, metric, unit_key,
                   arg_min(variant, (NOT is_base, first_ordinal)) AS base_variant
            FROM runs GROUP BY ALL HAVING count(*) >= 2
        ),
        by_variant AS (
            SELECT b.msg_key, a.table_id, nullif(b.label_key, '') AS label, b.metric,
                   a.unit, a.unit_si, b.variant AS before, a.variant AS after,
                   b.value AS before_value, a.value AS after_value,
                   b.cmp_value AS before_cmp, a.cmp_value AS after_cmp, 'variants' AS rule,
                   a.first_ordinal AS ordinal
            FROM baseline s
            JOIN runs b ON b.msg_key = s.msg_key AND b.label_key = s.label_key
                 AND b.metric IS NOT DISTINCT FROM s.metric AND b.unit_key = s.unit_key
                 AND b.variant = s.base_variant
            JOIN runs a ON a.msg_key = s.msg_key AND a.label_key = s.label_key
                 AND a.metric IS NOT DISTINCT FROM s.metric AND a.unit_key = s.unit_key
                 AND a.variant <> s.base_variant AND NOT a.is_base
        ),
        -- rule 2: before/after columns of one row (variant absent)
        by_column AS (
            SELECT b.msg_key, b.table_id, b.label, b.metric || ' → ' || a.metric AS metric,
                   a.unit, a.unit_si, b.metric AS before, a.metric AS after,
                   b.value AS before_value, a.value AS after_value,
                   b.cmp_value AS before_cmp, a.cmp_value AS after_cmp, 'columns' AS rule,
                   a.ordinal
            FROM m b JOIN m a
              ON a.msg_key = b.msg_key AND a.table_id = b.table_id
             AND a.label IS NOT DISTINCT FROM b.label AND a.unit_key = b.unit_key
             AND b.variant IS NULL AND a.variant IS NULL
             AND b.metric_is_base AND a.metric_is_change AND NOT a.metric_is_base
             -- same row: the measurements of one row are written next to each other
             AND abs(a.ordinal - b.ordinal) < 8
        ),
        pairs AS (SELECT * FROM by_variant UNION ALL SELECT * FROM by_column)
        SELECT msg_key, table_id, label, metric, before, after, before_value, after_value,
               unit, unit_si,
               CASE WHEN before_cmp <> 0 THEN after_cmp / before_cmp END AS ratio,
               CASE WHEN before_cmp <> 0 THEN round(100 * (after_cmp / before_cmp - 1), 2)
                    END AS change_pct,
               CASE WHEN unit_si = 's' THEN after_cmp < before_cmp
                    WHEN unit_si IN ('1/s', 'B/s') THEN after_cmp > before_cmp END AS better,
               rule
        FROM pairs
        ORDER BY msg_key, ordinal
    """
    by_list = f"""
        CREATE OR REPLACE VIEW by_list AS
        SELECT m.list, {_project("m.list")} AS project, count(*) AS messages,
               count(*) FILTER (WHERE m.is_benchmark) AS benchmark_messages,
               round(count(*) FILTER (WHERE m.is_benchmark) / count(*), 4) AS benchmark_share,
               coalesce(sum(c.n_tables) FILTER (WHERE m.is_benchmark), 0)::BIGINT AS tables,
               coalesce(sum(c.n_measurements) FILTER (WHERE m.is_benchmark), 0)::BIGINT
                   AS measurements,
               min(m.sent_at) AS first_message, max(m.sent_at) AS last_message
        FROM messages m JOIN ({counts}) c USING (msg_key)
        GROUP BY m.list
        ORDER BY benchmark_messages DESC, messages DESC, m.list
    """
    by_project = f"""
        CREATE OR REPLACE VIEW by_project AS
        SELECT {_project("m.list")} AS project, count(DISTINCT m.list) AS lists,
               count(*) AS messages,
               count(*) FILTER (WHERE m.is_benchmark) AS benchmark_messages,
               round(count(*) FILTER (WHERE m.is_benchmark) / count(*), 4) AS benchmark_share,
               coalesce(sum(c.n_tables) FILTER (WHERE m.is_benchmark), 0)::BIGINT AS tables,
               coalesce(sum(c.n_measurements) FILTER (WHERE m.is_benchmark), 0)::BIGINT
                   AS measurements,
               min(m.sent_at) FILTER (WHERE m.is_benchmark) AS first_benchmark,
               max(m.sent_at) FILTER (WHERE m.is_benchmark) AS last_benchmark
        FROM messages m JOIN ({counts}) c USING (msg_key)
        GROUP BY ALL
        ORDER BY benchmark_messages DESC, messages DESC, project
    """
    return [benchmark_messages, comparisons, by_list, by_project]


def create_views(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)create every view; the tables of `extract.db.schema` must exist."""
    for sql in statements():
        con.execute(sql)
