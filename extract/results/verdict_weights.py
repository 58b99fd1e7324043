"""The verdict model's weights (see `extract.results.verdict`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -3.2149
THRESHOLD = 0.8

WEIGHTS = {
    "family:bug": -3.1682,
    "family:ci": -3.5343,
    "family:config": -1.2805,
    "family:design": -1.5912,
    "family:request": -1.9912,
    "family:template": -1.2408,
    "family:vote": -3.0934,
    "kind:commit": 0.5076,
    "kind:github": 0.2106,
    "kind:jira": -0.302,
    "kind:mail": -0.417,
    "numbers:best": 2.2588,
    "numbers:perf_unit": -0.0978,
    "numbers:sure": 1.0152,
    "numbers:taken": 0.7258,
    "numbers:top3": 2.4844,
    "numbers:unread": -0.5933,
    "reader:ci": -4.0091,
    "reader:diff": -1.6297,
    "reader:dump": 0.9832,
    "reader:field_change": -3.0246,
    "reader:maven": 0.1274,
    "reader:maven_alone": -1.7893,
    "reader:more_perf_tables": 0.0155,
    "reader:more_tools": 0.0002,
    "reader:numeric_block": 1.3521,
    "reader:perf_table": 0.2135,
    "reader:plain_table": -0.0858,
    "reader:prose_compared": 1.1543,
    "reader:prose_one": 0.2531,
    "reader:release": -3.013,
    "reader:results_cue": 1.3189,
    "reader:stack": -1.5044,
    "reader:text_compared": 2.6874,
    "reader:text_many": 0.1843,
    "reader:text_measured": 0.1033,
    "reader:tool": 0.8792,
    "reader:weak_tool": 0.0029,
}
