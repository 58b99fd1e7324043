"""The verdict model's weights (see `extract.results.verdict`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -3.3156
THRESHOLD = 0.8

WEIGHTS = {
    "family:bug": -3.2314,
    "family:ci": -3.5438,
    "family:config": -1.3431,
    "family:design": -1.4755,
    "family:request": -2.2906,
    "family:template": -1.1796,
    "family:vote": -3.2249,
    "kind:commit": 0.4334,
    "kind:github": 0.2407,
    "kind:jira": -0.3214,
    "kind:mail": -0.3535,
    "numbers:best": 2.0907,
    "numbers:perf_unit": 0.2051,
    "numbers:sure": 1.0226,
    "numbers:taken": 0.7912,
    "numbers:top3": 2.6927,
    "numbers:unread": -0.6854,
    "reader:ci": -4.007,
    "reader:diff": -1.5378,
    "reader:dump": 0.895,
    "reader:field_change": -3.0182,
    "reader:maven": 0.2047,
    "reader:maven_alone": -1.8785,
    "reader:more_perf_tables": 0.008,
    "reader:more_tools": 0.0001,
    "reader:numeric_block": 1.5095,
    "reader:perf_table": 0.1751,
    "reader:plain_table": -0.1887,
    "reader:prose_compared": 1.2884,
    "reader:prose_one": 0.2559,
    "reader:release": -3.0075,
    "reader:results_cue": 1.2576,
    "reader:stack": -1.5079,
    "reader:text_compared": 2.3907,
    "reader:text_many": 0.256,
    "reader:text_measured": 0.2261,
    "reader:tool": 0.588,
    "reader:weak_tool": 0.0033,
}
