"""From numbers to findings: views that follow a benchmark across messages and a claimed
speed-up to the commit and the release that carried it. `statements()` returns their
CREATE OR REPLACE VIEW statements; `extract.db.views.create_views` runs them after its
own (they read `messages`, `measurements` and the `comparisons` view).

- `measurement_series`: every measurement of a benchmark message with its project,
  date, `params`, `noise` and `series_key`, a stable fingerprint (16 hex digits of an md5) of
  project, normalised label (lower case, whitespace collapsed), parameters (lower case,
  in sorted order), metric and SI unit. Not the variant: the before and after runs of
  one benchmark share a series. Numbers that qualify others (Error, Cnt, stdev
  columns) are not series: a measurement's stated error is its `noise`.
- `series`: one row per series_key: label, params, metric, unit, messages, measurements,
  first and last date, lists.
- `claims`: one row per benchmark message that reports a comparison: its `ref` (the
  JIRA key, else `repo#PR`), the pairs and how many improved, regressed, stayed within
  the stated noise or within the default threshold with no noise stated (a verdict
  only past the noise), the best and worst pair (`speedup` = how many times better:
  before/after for lower-is-better, after/before for higher-is-better), the message's
  own words (`claimed_words`: "3x faster", "20 % slower") with the factor they state,
  read as the change's speed-up over its baseline whichever side they describe
  (`claimed_factor`: "before: 4.81x slower" is 4.81), and whether the numbers of the
  pairs the words are about agree (`claim_check`).
- `commit_links`: commit mail (and GitHub "merged" notifications) linked to the issue
  keys and pull requests they name: `KEY-1: ...` in the subject or message, `(#123)`,
  `Closes #123`, `This closes #123`, a github.com/apache/<repo>/pull/N link.
- `jira_resolutions`: JIRA mail that changes an issue's status, resolution or fix
  versions (`[Resolved]` / `[Closed]` / `[Reopened]` notifications, `Resolution: Fixed`,
  `Fix Version/s: 2.1.0`), read from the fields above the quoted issue block.
- `resolutions`: per issue: resolved or not (the latest status event), when, the
  resolution and the fix versions (of the latest mail that states them).
- `landed`: per claim, its `claims` columns and: committed (the commits, first and last
  date), resolved (when, resolution, fix versions).
"""

from __future__ import annotations

from extract.db import schema
from extract.mail.kinds import _NOT_JIRA
from extract.results.claims import CLAIM_PATTERN
from extract.results.formats._grid import COUNT_NAMES

VIEW_NAMES = (
    "measurement_series",
    "series",
    "claims",
    "commit_links",
    "jira_resolutions",
    "resolutions",
    "landed",
)

# `name=value` pairs in a variant or heading: the parameters of a run (JMH @Param
# columns come out as `bufferSupplierStr=CREATE, bytes=RANDOM`).
PARAM_PAIR = r"[A-Za-z_][A-Za-z0-9_.-]*=[^,;\s)\"`]+"
# The message's own words: "3x faster", "2.5 times quicker", "20% slower", "30 % less",
# "down by 30%", "提升了 30%" (`extract.results.claims`, which reads them).
FASTER = r"faster|quicker|speed-?ups?|improvements?|better|gains?|boost|提升|提高|加速|快"
SLOWER = r"slower|worse|regressions?|degradations?|slow-?downs?|penalty|drops?|慢"
CLAIM_WORDS = CLAIM_PATTERN
ISSUE_KEY = r"\b([A-Z][A-Z0-9_]{1,30}-[0-9]{1,7})\b"
CLOSES = (
    r"(?i)\b(?:this\s+)?(?:closes|closed|close|fixes|fixed|fix|resolves|resolved|resolve)"
    r"\s*:?\s+(?:apache/[A-Za-z0-9_.-]+)?#([0-9]{1,9})\b"
)
PULL_URL = r"github\.com/apache/([A-Za-z0-9_.-]+)/pull/([0-9]{1,9})"
RESOLVED_STATES = ("Resolved", "Closed")
# Numbers that qualify others rather than measure (JMH's Error and Cnt, stdev, counts):
# not series of their own; a measurement's stated error is its `noise`.
QUALIFIER = (
    r"(?i)(^|[^a-z])(error|err|std ?dev|stdev|stddev|ci|confidence|margin|deviation|variance)"
    rf"([^a-z]|$)|±|\+/-|^\s*({COUNT_NAMES})"
    r"\s*(\(.*\))?\s*$"
)


def _sql_list(words) -> str:
    return ", ".join("'" + w.replace("'", "''") + "'" for w in sorted(words))


def _params_expr() -> str:
    """The run's parameters: the measurements' own `params` column when the schema has
    one, else the `name=value` pairs of its variant, sorted."""
    derived = (
        "nullif(array_to_string(list_sort(list_distinct("
        f"regexp_extract_all(coalesce(m.variant, ''), '{PARAM_PAIR}'))), ', '), '')"
    )
    if "params" in schema.columns("measurements"):
        return f"coalesce(nullif(m.params, ''), {derived})"
    return derived


def statements() -> list[str]:
    noise = "m.noise" if "noise" in schema.columns("measurements") else "NULL::DOUBLE AS noise"
    norm_label = "lower(trim(regexp_replace(m.label, '\\s+', ' ', 'g')))"
    measurement_series = f"""
        CREATE OR REPLACE VIEW measurement_series AS
        WITH m AS (
            SELECT m.*, {schema.project_sql("g.list")} AS project, g.list, g.sent_at,
                   {_params_expr()} AS params
            FROM measurements m JOIN messages g USING (msg_key)
            WHERE g.is_benchmark AND m.label IS NOT NULL AND trim(m.label) <> ''
              AND NOT regexp_matches(coalesce(m.metric, ''), '{QUALIFIER}')
        )
        SELECT m.msg_key, m.table_id, m.ordinal, m.project, m.list, m.sent_at, m.label,
               m.params, m.variant, m.metric, m.value, m.unit, m.value_si, m.unit_si,
               {noise},
               left(md5(concat_ws(chr(31), m.project, {norm_label},
                   coalesce(array_to_string(list_sort(string_split(lower(m.params), ', ')),
                                            ', '), ''),
                   lower(trim(coalesce(m.metric, ''))),
                   coalesce(m.unit_si, lower(m.unit), ''))), 16) AS series_key
        FROM m
    """
    series = """
        CREATE OR REPLACE VIEW series AS
        SELECT series_key, any_value(project) AS project,
               arg_min(label, (sent_at, msg_key, ordinal)) AS label,
               arg_min(params, (sent_at, msg_key, ordinal)) AS params,
               arg_min(metric, (sent_at, msg_key, ordinal)) AS metric,
               arg_min(coalesce(unit_si, unit), (sent_at, msg_key, ordinal)) AS unit,
               count(DISTINCT msg_key) AS messages, count(*) AS measurements,
               min(sent_at) AS first_seen, max(sent_at) AS last_seen,
               list_sort(list_distinct(list(list))) AS lists
        FROM measurement_series
        GROUP BY series_key
        ORDER BY messages DESC, measurements DESC, series_key
    """
    # The factor words state, as a speed-up, where the extractor tied them to no number
    # (it reads them right, `measurements.claim_factor`): "3x faster" 3, "3x slower"
    # 1/3, "20% faster" 1.2, "20% slower" 1/1.2; NULL when the words give no direction.
    claim_factor = f"""
        CASE WHEN regexp_matches(w, '[%％]') THEN
                 CASE WHEN regexp_matches(w, '(?i)({SLOWER})') THEN 1 / (1 + n / 100)
                      WHEN regexp_matches(w, '(?i)({FASTER})') THEN 1 + n / 100 END
             WHEN regexp_matches(w, '(?i)({SLOWER})') AND n > 0 THEN 1 / n
             WHEN regexp_matches(w, '(?i)({FASTER})') THEN n END
    """
    claims = f"""
        CREATE OR REPLACE VIEW claims AS
        WITH per_message AS (
            SELECT msg_key, count(*) AS pairs,
                   count(*) FILTER (WHERE change = 'improvement') AS improvements,
                   count(*) FILTER (WHERE change = 'regression') AS regressions,
                   count(*) FILTER (WHERE change = 'within noise') AS within_noise,
                   count(*) FILTER (WHERE change = 'no noise stated') AS no_noise_stated,
                   count(*) FILTER (WHERE noise IS NOT NULL) AS with_noise,
                   count(*) FILTER (WHERE noise IS NOT NULL
                                    AND change IN ('improvement', 'regression')) AS beyond_noise,
                   count(*) FILTER (WHERE claim = 'agrees') AS agree,
                   count(*) FILTER (WHERE claim = 'contradicts') AS contradict,
                   count(*) FILTER (WHERE claim = 'unconfirmed') AS unconfirmed,
                   max(speedup) AS best_speedup, min(speedup) AS worst_speedup,
                   arg_max(ratio, speedup) AS best_ratio, arg_min(ratio, speedup) AS worst_ratio,
                   arg_max(concat_ws(' / ', label, params, metric), speedup) AS best_pair,
                   arg_min(concat_ws(' / ', label, params, metric), speedup) AS worst_pair
            FROM comparisons GROUP BY msg_key
        ),
        -- the claims the extractor read, on the pairs they are about or on their own
        -- numbers: the one farthest from "no change" speaks for the message
        read AS (
            SELECT msg_key, arg_max(claim_factor, abs(ln(claim_factor))) AS read_factor
            FROM measurements WHERE claim_factor > 0 GROUP BY msg_key
        ),
        words AS (
            SELECT msg_key, regexp_extract_all(coalesce(body, ''), '{CLAIM_WORDS}')
                       AS claimed_words
            FROM messages WHERE is_benchmark
        ),
        stated AS (
            SELECT msg_key, w,
                   TRY_CAST(regexp_extract(w, '[0-9]+(\\.[0-9]+)?') AS DOUBLE) AS n
            FROM (SELECT msg_key, unnest(claimed_words) AS w FROM words)
        ),
        said AS (
            SELECT w.msg_key, w.claimed_words,
                   coalesce(r.read_factor, f.claimed_factor) AS claimed_factor
            FROM words w
            LEFT JOIN read r USING (msg_key)
            LEFT JOIN (
                SELECT msg_key, arg_max(factor, abs(ln(factor))) AS claimed_factor
                FROM (SELECT msg_key, {claim_factor} AS factor FROM stated)
                WHERE factor > 0 GROUP BY msg_key
            ) f USING (msg_key)
        )
        SELECT b.msg_key, b.project, b.list, b.sent_at, b.kind, b.from_name, b.subject,
               b.issue_key, b.repo, b.pr_number,
               coalesce(b.issue_key, b.repo || '#' || b.pr_number) AS ref,
               coalesce(p.pairs, 0) AS pairs, coalesce(p.improvements, 0) AS improvements,
               coalesce(p.regressions, 0) AS regressions,
               coalesce(p.within_noise, 0) AS within_noise,
               coalesce(p.no_noise_stated, 0) AS no_noise_stated,
               p.best_ratio, p.worst_ratio, p.best_speedup, p.worst_speedup,
               p.best_pair, p.worst_pair,
               -- a verdict only beyond the noise (stated, else the default threshold)
               CASE WHEN p.improvements > 0 AND p.regressions > 0 THEN 'mixed'
                    WHEN p.improvements > 0 THEN 'improvement'
                    WHEN p.regressions > 0 THEN 'regression'
                    WHEN p.within_noise > 0 THEN 'within noise'
                    WHEN p.no_noise_stated > 0 THEN 'no noise stated' END AS direction,
               p.with_noise > 0 AS noise_stated,
               -- NULL when no pair states its noise
               CASE WHEN p.with_noise > 0 THEN p.beyond_noise > 0 END AS outside_noise,
               s.claimed_words, s.claimed_factor,
               -- the words against the numbers of the pairs they are about
               CASE WHEN p.contradict > 0 THEN 'contradicts'
                    WHEN p.agree > 0 THEN 'agrees'
                    WHEN p.unconfirmed > 0 THEN 'unconfirmed' END AS claim_check
        FROM benchmark_messages b
        LEFT JOIN per_message p USING (msg_key)
        LEFT JOIN said s USING (msg_key)
        WHERE p.pairs > 0 OR len(s.claimed_words) > 0
        ORDER BY b.sent_at, b.msg_key
    """
    not_jira = _sql_list(_NOT_JIRA)
    own_text = (
        "split_part(split_part(left(coalesce(m.body, ''), 20000), chr(10) || 'diff --git ', 1),"
        " chr(10) || '---' || chr(10), 1)"
    )
    title = (
        "regexp_replace(m.subject, '^\\[[^]]+\\]\\s+(?:(?:branch|tag)\\s+\\S+\\s+updated:"
        "|[0-9]+/[0-9]+:)\\s*', '')"
    )
    commit_links = f"""
        CREATE OR REPLACE VIEW commit_links AS
        WITH c AS (
            SELECT m.msg_key, m.list, m.kind, m.repo, m.branch, m.commit_id, m.url,
                   m.sent_at AS committed_at, m.actor, {title} AS title,
                   coalesce(m.subject, '') AS subject, {own_text} AS own,
                   m.pr_number AS mail_pr, m.action
            FROM messages m
            WHERE m.kind = 'commit' AND coalesce(m.action, '') NOT IN ('created', 'deleted')
        ),
        keys AS (
            SELECT msg_key, unnest(list_distinct(regexp_extract_all(subject, '{ISSUE_KEY}', 1)))
                       AS issue_key, 'subject' AS found_in
            FROM c
            UNION ALL
            SELECT msg_key, unnest(list_distinct(regexp_extract_all(own, '{ISSUE_KEY}', 1))),
                   'message'
            FROM c
        ),
        prs AS (
            SELECT msg_key, NULL AS pr_repo,
                   unnest(list_distinct(regexp_extract_all(subject || chr(10) || own,
                                                           '\\(#([0-9]{{1,9}})\\)', 1)))
                       AS pr_text, '(#N)' AS found_in
            FROM c
            UNION ALL
            SELECT msg_key, NULL, unnest(list_distinct(regexp_extract_all(own, '{CLOSES}', 1))),
                   'closes #N'
            FROM c
            UNION ALL
            SELECT msg_key, regexp_extract(link, '{PULL_URL}', 1),
                   regexp_extract(link, '{PULL_URL}', 2), 'pull link'
            FROM (SELECT msg_key, unnest(regexp_extract_all(own, '{PULL_URL}')) AS link
                  FROM c)
        ),
        links AS (
            SELECT msg_key, 'issue' AS link, k.issue_key, NULL::VARCHAR AS pr_repo,
                   NULL::BIGINT AS pr_number,
                   CASE WHEN bool_or(found_in = 'subject') THEN 'subject' ELSE min(found_in) END
                       AS found_in
            FROM keys k
            WHERE split_part(k.issue_key, '-', 1) NOT IN ({not_jira})
            GROUP BY ALL
            UNION ALL
            SELECT msg_key, 'pr', NULL, pr_repo, TRY_CAST(pr_text AS BIGINT), min(found_in)
            FROM prs WHERE TRY_CAST(pr_text AS BIGINT) > 0
            GROUP BY ALL
        ),
        merged AS (  -- GitHub's "merged pull request #N" notifications
            SELECT m.msg_key, m.list, m.kind, m.repo, m.branch, m.commit_id, m.url,
                   m.sent_at AS committed_at, m.actor, m.subject AS title,
                   'pr' AS link, NULL::VARCHAR AS issue_key, m.pr_number,
                   'merged notification' AS found_in
            FROM messages m
            WHERE m.kind = 'github' AND m.action ILIKE 'merged%' AND m.pr_number IS NOT NULL
        )
        SELECT c.msg_key, c.list, c.kind, c.repo, c.branch, c.commit_id, c.url,
               c.committed_at, c.actor, c.title, l.link, l.issue_key,
               coalesce(l.pr_repo, c.repo) AS pr_repo, l.pr_number, l.found_in
        FROM c JOIN links l USING (msg_key)
        UNION ALL
        SELECT msg_key, list, kind, repo, branch, commit_id, url, committed_at, actor, title,
               link, issue_key, repo, pr_number, found_in
        FROM merged
    """
    # The fields of a JIRA change mail sit above the quoted issue block (`> ...`).
    fields = "split_part(left(coalesce(m.text, ''), 20000), chr(10) || '>', 1)"
    # `Fix Version/s: 2.1.0` and the values continued below it, `(was: ...)` included
    fix_block = (
        "(?m)^[ \\t]*Fix Version/s:[ \\t]*([^\\n]*"
        "(?:\\n[ \\t]{6,}(?:\\(was:[^\\n]*|[^\\s>:][^\\n:]*))*)"
    )
    states = _sql_list(("Resolved", "Closed", "Reopened"))
    jira_resolutions = f"""
        CREATE OR REPLACE VIEW jira_resolutions AS
        WITH j AS (
            SELECT m.msg_key, m.list, m.issue_key, m.sent_at, m.action, m.actor, m.url,
                   {fields} AS head
            FROM messages m
            WHERE m.kind = 'jira' AND m.issue_key IS NOT NULL
        ),
        f AS (
            SELECT *,
                   nullif(trim(regexp_extract(head,
                       '(?m)^[ \\t]*Resolution:[ \\t]*([^\\n(]*)', 1)), '') AS resolution,
                   nullif(trim(regexp_extract(head,
                       '(?m)^[ \\t]*Status:[ \\t]*([A-Za-z][A-Za-z ]*?)[ \\t]*(?:\\(was|$)', 1)),
                       '') AS status_field,
                   regexp_extract(head, '{fix_block}', 1) AS fix_text,
                   regexp_matches(head, '(?m)^[ \\t]*Fix Version/s:') AS states_fix
            FROM j
        )
        SELECT msg_key, list, issue_key, sent_at, action, actor, url,
               CASE WHEN action IN ({states}) THEN action
                    WHEN status_field IN ({states}) THEN status_field END AS status,
               resolution,
               CASE WHEN states_fix THEN list_filter(
                   list_transform(
                       regexp_split_to_array(
                           regexp_replace(fix_text, '\\(was:[^)]*\\)', '', 'g'), '[,\\n]'),
                       lambda v: trim(v)),
                   lambda v: v <> '') END AS fix_versions
        FROM f
        WHERE action IN ({states}) OR status_field IN ({states}) OR resolution IS NOT NULL
           OR states_fix
    """
    resolved = _sql_list(RESOLVED_STATES)
    resolutions = f"""
        CREATE OR REPLACE VIEW resolutions AS
        SELECT issue_key,
               arg_max(status, sent_at) FILTER (WHERE status IS NOT NULL) IN ({resolved})
                   AS resolved,
               max(sent_at) FILTER (WHERE status IN ({resolved})) AS resolved_at,
               arg_max(resolution, sent_at) FILTER (WHERE resolution IS NOT NULL)
                   AS resolution,
               arg_max(fix_versions, sent_at) FILTER (WHERE fix_versions IS NOT NULL)
                   AS fix_versions,
               count(*) AS mails
        FROM jira_resolutions
        GROUP BY issue_key
    """
    landed = """
        CREATE OR REPLACE VIEW landed AS
        WITH c AS MATERIALIZED (SELECT * FROM claims),  -- (computed once: it is costly)
        -- (two joins, not one with OR: each is a hash join)
        links AS (
            SELECT c.msg_key, l.* EXCLUDE (msg_key), l.msg_key AS commit_msg
            FROM c JOIN commit_links l ON l.link = 'issue' AND l.issue_key = c.issue_key
            -- GH-N keys number GitHub issues: only within their repository
            WHERE l.issue_key NOT LIKE 'GH-%'
               OR lower(l.repo) IS NOT DISTINCT FROM lower(c.repo)
            UNION ALL
            SELECT c.msg_key, l.* EXCLUDE (msg_key), l.msg_key
            FROM c JOIN commit_links l
              ON l.link = 'pr' AND l.pr_number = c.pr_number AND lower(l.pr_repo) = lower(c.repo)
        ),
        hits AS (
            SELECT msg_key, commit_msg, commit_id, repo, branch, committed_at, title, url,
                   string_agg(DISTINCT found_in, ', ' ORDER BY found_in) AS found_in
            FROM links GROUP BY ALL
        ),
        commits AS (
            SELECT msg_key,
                   list({'commit_id': commit_id, 'repo': repo, 'branch': branch,
                         'committed_at': committed_at, 'title': title, 'url': url,
                         'found_in': found_in, 'msg_key': commit_msg}
                        ORDER BY committed_at, commit_msg) AS commits,
                   count(DISTINCT commit_msg) AS n_commits,
                   min(committed_at) AS first_committed_at,
                   max(committed_at) AS last_committed_at
            FROM hits GROUP BY msg_key
        )
        SELECT c.*,
               coalesce(k.n_commits, 0) > 0 AS committed, coalesce(k.n_commits, 0) AS n_commits,
               k.first_committed_at, k.last_committed_at, k.commits,
               coalesce(r.resolved, false) AS resolved, r.resolved_at, r.resolution,
               r.fix_versions
        FROM c
        LEFT JOIN commits k USING (msg_key)
        LEFT JOIN resolutions r ON r.issue_key = c.issue_key
        ORDER BY c.sent_at, c.msg_key
    """
    return [
        measurement_series,
        series,
        claims,
        commit_links,
        jira_resolutions,
        resolutions,
        landed,
    ]
