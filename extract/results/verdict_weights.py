"""The verdict model's weights (see `extract.results.verdict`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -3.349
THRESHOLD = 0.8

WEIGHTS = {
    "family:bug": -3.0093,
    "family:ci": -3.4398,
    "family:config": -1.2832,
    "family:design": -1.534,
    "family:request": -2.1385,
    "family:template": -0.6831,
    "family:vote": -2.9112,
    "kind:commit": 0.5647,
    "kind:github": 0.2399,
    "kind:jira": -0.3685,
    "kind:mail": -0.437,
    "numbers:best": 1.6296,
    "numbers:blind_best": 1.2462,
    "numbers:blind_taken": 0.2254,
    "numbers:perf_unit": 0.0107,
    "numbers:sure": 0.7026,
    "numbers:taken": 0.5827,
    "numbers:top3": 2.1032,
    "numbers:unread": -0.8925,
    "reader:ci": -4.0089,
    "reader:diff": -1.4227,
    "reader:dump": 0.992,
    "reader:field_change": -3.0209,
    "reader:maven": 0.2311,
    "reader:maven_alone": -1.7001,
    "reader:more_perf_tables": 0.006,
    "reader:more_tools": 0.0001,
    "reader:numeric_block": 1.62,
    "reader:perf_table": 1.3135,
    "reader:plain_table": -0.3657,
    "reader:prose_compared": 1.2404,
    "reader:prose_one": 0.2471,
    "reader:release": -3.0115,
    "reader:results_cue": 1.3176,
    "reader:stack": -1.5045,
    "reader:text_compared": 2.6731,
    "reader:text_many": 0.3138,
    "reader:text_measured": 0.4473,
    "reader:tool": 1.1729,
    "reader:weak_tool": 0.0112,
}
