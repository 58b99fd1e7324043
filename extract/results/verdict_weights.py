"""The verdict model's weights (see `extract.results.verdict`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -3.584
THRESHOLD = 0.85

WEIGHTS = {
    "family:bug": -3.2593,
    "family:ci": -3.3897,
    "family:config": -1.1586,
    "family:design": -1.7455,
    "family:request": -1.9488,
    "family:template": -1.2517,
    "family:vote": -3.2018,
    "kind:commit": 0.5691,
    "kind:github": 0.311,
    "kind:jira": -0.3824,
    "kind:mail": -0.4986,
    "numbers:best": 1.536,
    "numbers:blind_best": 1.4386,
    "numbers:blind_taken": 0.3452,
    "numbers:perf_unit": 0.1574,
    "numbers:sure": 0.3273,
    "numbers:taken": 0.7329,
    "numbers:top3": 2.4585,
    "numbers:unread": -0.7939,
    "reader:ci": -4.0068,
    "reader:diff": -1.5396,
    "reader:dump": 1.1004,
    "reader:field_change": -3.0158,
    "reader:maven": 0.5511,
    "reader:maven_alone": -1.7819,
    "reader:more_perf_tables": 0.02,
    "reader:more_tools": 0.0002,
    "reader:numeric_block": 1.378,
    "reader:perf_table": 0.2627,
    "reader:plain_table": -0.265,
    "reader:prose_compared": 1.194,
    "reader:prose_one": 0.2856,
    "reader:release": -3.0093,
    "reader:results_cue": 1.0786,
    "reader:stack": -1.5033,
    "reader:text_compared": 2.5291,
    "reader:text_many": 0.3397,
    "reader:text_measured": 0.317,
    "reader:tool": 0.923,
    "reader:weak_tool": 0.0033,
}
