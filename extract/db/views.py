"""Views in the database for the common questions; `create_views(con)` creates them.

Returns nothing: it (re)creates, idempotently, on an open DuckDB connection whose
tables come from `extract.db.schema`:

- `benchmark_messages`: one row per message that reports benchmark numbers, with its
  project, the number of tables and measurements, and its links.
- `comparisons`: before/after pairs from one message, with their ratio, direction,
  change and noise (below).
- `by_project`: per project (from the list's domain): lists, messages, benchmark
  messages, their share, tables, measurements, first and last benchmark date.
- `by_list`: the same per list.

`comparisons` (columns stable; `claims` and the report build on them): one row per pair
of measurements of the same quantity in one message, one from each side of a
comparison the message makes. Which measurement is on which side, and what
identifies its quantity, is decided when the extractor writes it
(`extract.results.comparisons`: the measurement columns `side`, `side_name`, `params`,
`quantity`, `quantity_key`, `noise`); this view pairs each `before` with each `after`
of the same `quantity_key`. Repeated runs of one side are averaged and their spread is
noise. Columns:

- `msg_key`, `table_id` (of the after value; NULL in prose), `label` (NULL when the
  labels are the sides: rows `| master | ... |` / `| this PR | ... |`, settings), `params`
  (@Param values, column groups: `size=100 / GCS`), `metric` (the quantity compared,
  `QPS` for `QPS baseline` / `QPS my_modified_version`);
- `before`, `after`: the sides as named (`Before patch`, `baseline`, `No changes`);
  `before_value`, `after_value`: the numbers as written, in `unit` (a before written in
  another unit is converted into it); `unit`, `unit_si`;
- `ratio` = after / before (in SI when known), `change_pct` = 100 × (ratio − 1);
- `direction`: `lower` or `higher`, which is better: from the unit (times lower, rates
  higher), else the metric's words, then the label's (latency, CPU, memory lower;
  throughput higher);
  NULL when unknown;
- `noise`: the stated relative error of both sides added (Error, ±, StdDev, interval
  columns), or the spread of repeated runs; NULL when none is stated;
- `change`: `improvement` or `regression` by the direction when |ratio − 1| exceeds
  the `threshold`; inside it `within noise` (noise stated) or `no noise stated`; NULL
  when the direction is unknown;
- `comparison`: `<before> vs <after>`; `rule`: `format`, `variants`, `settings`,
  `columns`, `rows`, `claims`, `reference` or `stated change` (a change whose before is
  not written: criterion's `change:`, before_value derived from it);
- `better`: kept for older queries: true for an improvement, false for a regression;
- `threshold`: what a change must exceed to get a verdict: `noise`, else
  `NOISE_DEFAULT` (5 %; `SET VARIABLE noise_default = 0.02` changes it in a session);
- `speedup`: how many times better the after is (before/after for lower-is-better,
  after/before for higher-is-better);
- `claimed_factor`, `claimed_words`: the speed-up the message's words state for this
  pair ("before: 4.81x slower" is 4.81) and the words; `claim`: `agrees`,
  `contradicts` (the numbers go the other way beyond the threshold) or `unconfirmed`
  (they stay inside it while the words state more).
"""

from __future__ import annotations

import duckdb

from extract.db import findings, schema
from extract.results.claims import HIGHER_WORDS, LOWER_WORDS


# Which way is better, from the unit and then the metric's words, then the label's:
# times lower, rates higher; memory and CPU shares lower. Unknown stays NULL. (The same
# words as `extract.results.comparisons.direction`, which matches claims to pairs.)
def _direction(metric: str, label: str) -> str:
    return f"""
    WHEN unit_si = 's' THEN 'lower'
    WHEN unit_si IN ('1/s', 'B/s') THEN 'higher'
    WHEN regexp_matches(lower(coalesce({metric}, '')), '{LOWER_WORDS}') THEN 'lower'
    WHEN regexp_matches(lower(coalesce({metric}, '')), '{HIGHER_WORDS}') THEN 'higher'
    WHEN regexp_matches(lower(coalesce({label}, '')), '{LOWER_WORDS}') THEN 'lower'
    WHEN regexp_matches(lower(coalesce({label}, '')), '{HIGHER_WORDS}') THEN 'higher'
"""


# The noise a change must exceed to be called an improvement or a regression when the
# message states none (no error, ±, stdev, interval, repeated runs): 5 %, as a fraction.
# A setting: `SET VARIABLE noise_default = 0.02;` in `make sql` judges again with 2 %.
NOISE_DEFAULT = 0.05


def _noise_default() -> str:
    return f"coalesce(TRY_CAST(getvariable('noise_default') AS DOUBLE), {NOISE_DEFAULT})"


_RUN_SUFFIX = (
    r"(^|[\s,;:(/-]+)([Rr]un|[Ii]teration|[Ii]ter|[Tt]rial|[Aa]ttempt|[Rr]ound|[Tt]ry|[Pp]ass)"
    r"\s*#?\d+\)?\s*$"
)

VIEW_NAMES = ("benchmark_messages", "comparisons", "by_project", "by_list")


def statements() -> list[str]:
    """The CREATE OR REPLACE VIEW statements, in dependency order."""
    counts = """
        SELECT m.msg_key, coalesce(t.n, 0) AS n_tables, coalesce(x.n, 0) AS n_measurements
        FROM messages m
        LEFT JOIN (SELECT msg_key, count(*) AS n FROM result_tables GROUP BY 1) t USING (msg_key)
        LEFT JOIN (SELECT msg_key, count(*) AS n FROM measurements GROUP BY 1) x USING (msg_key)
    """
    benchmark_messages = f"""
        CREATE OR REPLACE VIEW benchmark_messages AS
        SELECT m.msg_key, {schema.project_sql("m.list")} AS project, m.list, m.sent_at, m.from_name,
               m.from_address, m.subject, m.kind, m.issue_key, m.repo, m.pr_number, m.url,
               m.permalink, m.formats, c.n_tables, c.n_measurements, m.benchmark_score,
               m.benchmark_reasons, m.body
        FROM messages m JOIN ({counts}) c USING (msg_key)
        WHERE m.is_benchmark
    """
    comparisons = f"""
        CREATE OR REPLACE VIEW comparisons AS
        WITH m AS (
            SELECT *, coalesce(value_si, value) AS v
            FROM measurements WHERE quantity_key IS NOT NULL AND value IS NOT NULL
        ),
        -- one value per side; repeated runs of one side are averaged, their spread is noise
        runs AS (
            SELECT msg_key, quantity_key, side, side_name,
                   arg_min(table_id, ordinal) AS table_id,
                   -- repeated runs (`summary, run 2`): the label without the run number
                   CASE WHEN count(*) = 1 THEN arg_min(label, ordinal)
                        ELSE nullif(regexp_replace(arg_min(label, ordinal), '{_RUN_SUFFIX}', ''),
                                    '') END AS label,
                   arg_min(params, ordinal) AS params, arg_min(quantity, ordinal) AS quantity,
                   avg(v) AS v, avg(value) AS value, arg_min(unit, ordinal) AS unit,
                   count(DISTINCT coalesce(unit, '')) AS n_units,
                   arg_min(unit_si, ordinal) AS unit_si, min(ordinal) AS ordinal,
                   max(noise) AS noise,
                   CASE WHEN count(*) > 1 AND avg(v) <> 0
                        THEN (max(v) - min(v)) / 2 / abs(avg(v)) END AS spread,
                   any_value(claim_factor) AS claim_factor,
                   any_value(claim_words) AS claim_words
            FROM m GROUP BY msg_key, quantity_key, side, side_name
        ),
        pairs AS (
            SELECT a.msg_key, a.table_id,
                   -- rows named like the sides, labels that list the settings, labels
                   -- that are the sides: the label holds the side (the other settings
                   -- are the params)
                   CASE WHEN a.quantity_key NOT LIKE 'rows|%'
                         AND a.quantity_key NOT LIKE 'settings|%'
                         AND a.side_name IS DISTINCT FROM a.label
                        THEN coalesce(a.label, b.label) END AS label,
                   coalesce(a.label, b.label) AS named, a.params,
                   a.quantity AS metric, b.side_name AS before, a.side_name AS after,
                   CASE WHEN b.unit IS NOT DISTINCT FROM a.unit AND b.n_units = 1 THEN b.value
                        WHEN a.v <> 0 THEN b.v * a.value / a.v END AS before_value,
                   a.value AS after_value, a.unit, a.unit_si, b.v AS bv, a.v AS av,
                   CASE WHEN coalesce(b.noise, b.spread, a.noise, a.spread) IS NOT NULL
                        THEN coalesce(b.noise, b.spread, 0) + coalesce(a.noise, a.spread, 0)
                        END AS noise,
                   a.claim_factor, a.claim_words,
                   split_part(a.quantity_key, '|', 1) AS rule, a.ordinal
            FROM runs b JOIN runs a
              ON a.msg_key = b.msg_key AND a.quantity_key = b.quantity_key
             AND b.side = 'before' AND a.side = 'after'
        ),
        -- a stated change (criterion's `change:`) of a value whose before is not written
        stated AS (
            SELECT a.msg_key, a.table_id, a.label, a.label AS named, a.params,
                   a.quantity AS metric, 'baseline' AS before, a.side_name AS after,
                   a.value / (1 + c.value / 100) AS before_value, a.value AS after_value,
                   a.unit, a.unit_si, a.v / (1 + c.value / 100) AS bv, a.v AS av,
                   c.noise, a.claim_factor, a.claim_words, 'stated change' AS rule, a.ordinal
            FROM runs c JOIN runs a
              ON a.msg_key = c.msg_key AND a.quantity_key = c.quantity_key
             AND c.side = 'change' AND a.side = 'after' AND c.value > -100
            WHERE NOT EXISTS (SELECT 1 FROM runs b WHERE b.msg_key = a.msg_key
                              AND b.quantity_key = a.quantity_key AND b.side = 'before')
        ),
        judged AS (
            SELECT *,
                   CASE WHEN bv <> 0 THEN av / bv END AS ratio,
                   CASE {_direction("metric", "named")} END AS direction,
                   -- no verdict inside the noise: the stated one, else the default
                   coalesce(noise, {_noise_default()}) AS threshold
            FROM (SELECT * FROM pairs UNION ALL SELECT * FROM stated)
        ),
        verdicts AS (
            SELECT *,
                   CASE WHEN ratio > 0 AND direction = 'lower' THEN 1 / ratio
                        WHEN ratio > 0 AND direction = 'higher' THEN ratio END AS speedup,
                   CASE WHEN ratio IS NULL AND av <> bv THEN NULL
                        WHEN av = bv OR abs(ratio - 1) <= threshold
                            THEN CASE WHEN noise IS NULL THEN 'no noise stated'
                                      ELSE 'within noise' END
                        WHEN direction = 'lower' AND ratio < 1 THEN 'improvement'
                        WHEN direction = 'lower' THEN 'regression'
                        WHEN direction = 'higher' AND ratio > 1 THEN 'improvement'
                        WHEN direction = 'higher' THEN 'regression' END AS change
            FROM judged
        )
        SELECT msg_key, table_id, label, params, metric, before, after, before_value,
               after_value, unit, unit_si, ratio,
               round(100 * (ratio - 1), 2) AS change_pct, direction, change,
               round(noise, 6) AS noise, before || ' vs ' || after AS comparison, rule,
               CASE WHEN change = 'improvement' THEN true
                    WHEN change = 'regression' THEN false END AS better,
               round(threshold, 6) AS threshold, speedup,
               claim_factor AS claimed_factor, claim_words AS claimed_words,
               -- the words against the numbers: the other way beyond the noise, a
               -- change the numbers do not show beyond it, else agreeing
               CASE WHEN claim_factor IS NULL OR claim_factor <= 0 OR change IS NULL THEN NULL
                    WHEN (claim_factor > 1 AND change = 'regression')
                      OR (claim_factor < 1 AND change = 'improvement') THEN 'contradicts'
                    WHEN change IN ('within noise', 'no noise stated')
                     AND abs(ln(claim_factor)) > threshold THEN 'unconfirmed'
                    ELSE 'agrees' END AS claim
        FROM verdicts
        ORDER BY msg_key, ordinal
    """
    by_list = f"""
        CREATE OR REPLACE VIEW by_list AS
        SELECT m.list, {schema.project_sql("m.list")} AS project, count(*) AS messages,
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
        SELECT {schema.project_sql("m.list")} AS project, count(DISTINCT m.list) AS lists,
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
    """(Re)create every view, with its columns' meanings as comments (from
    `schema.VIEW_COLUMNS`, as the tables'); the tables of `extract.db.schema` must
    exist."""
    for sql in statements() + findings.statements():
        con.execute(sql)
    have = con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE schema_name = 'main' "
        "AND table_name IN (SELECT view_name FROM duckdb_views() WHERE NOT internal) "
        "ORDER BY table_name, column_index"
    ).fetchall()
    for sql in schema.view_comment_statements(have):
        con.execute(sql)
