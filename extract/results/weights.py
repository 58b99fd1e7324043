"""The classifier's weights (see `extract.results.classify.features` for what each
feature is). Written by `python -m extract.dev.fit --write` from a logistic
regression on the labelled corpora; do not edit by hand."""

THRESHOLD = 3.1604
# score = logistic(SCALE * (sum of weights - THRESHOLD))
SCALE = 1.0

WEIGHTS = {
    "tool": 7.0185,
    "weak_tool": 1.5,
    "more_tools": 0.5005,
    "perf_table": 5.9445,
    "more_perf_tables": 0.6506,
    "plain_table": 2.676,
    "prose_compared": 4.9261,
    "prose_one": 4.9872,
    "text_compared": 5.5151,
    "text_many": 1.5779,
    "text_measured": 1.5479,
    "numeric_block": 2.2069,
    "results_cue": 1.3844,
    "ci": -5.1709,
    "maven": 0.176,
    "maven_alone": -2.0623,
    "release": -3.0206,
    "stack": -1.5,
    "diff": -1.1178,
    "field_change": -3.0404,
    "dump": 0.1522,
    "note": 0.0,
}
