"""The verdict model's weights (see `extract.results.verdict`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -3.2908
THRESHOLD = 0.75

WEIGHTS = {
    "family:bug": -3.1891,
    "family:ci": -3.5522,
    "family:config": -1.1697,
    "family:design": -1.7586,
    "family:request": -1.7776,
    "family:template": -1.096,
    "family:vote": -2.948,
    "kind:commit": 0.5192,
    "kind:github": 0.1653,
    "kind:jira": -0.4951,
    "kind:mail": -0.1902,
    "numbers:best": 2.1136,
    "numbers:perf_unit": -0.0663,
    "numbers:sure": 0.9379,
    "numbers:taken": 0.8557,
    "numbers:top3": 2.5855,
    "numbers:unread": -0.5857,
    "reader:ci": -4.0075,
    "reader:diff": -1.4921,
    "reader:dump": 1.1225,
    "reader:field_change": -3.0226,
    "reader:maven": 0.0899,
    "reader:maven_alone": -1.8201,
    "reader:more_perf_tables": 0.0115,
    "reader:more_tools": 0.0001,
    "reader:numeric_block": 1.4538,
    "reader:perf_table": 0.3861,
    "reader:plain_table": 0.0661,
    "reader:prose_compared": 1.4157,
    "reader:prose_one": 0.2518,
    "reader:release": -3.0052,
    "reader:results_cue": 1.2252,
    "reader:stack": -1.5086,
    "reader:text_compared": 2.5655,
    "reader:text_many": 0.195,
    "reader:text_measured": 0.3863,
    "reader:tool": 0.9807,
    "reader:weak_tool": 0.0035,
}
