"""The classifier's weights (see `extract.results.classify.features` for what each
feature is). Written by `python -m extract.dev.fit --write` from a logistic
regression on the labelled corpora; do not edit by hand."""

THRESHOLD = 3.1591
# score = logistic(SCALE * (sum of weights - THRESHOLD))
SCALE = 1.0

WEIGHTS = {
    "tool": 7.0105,
    "weak_tool": 1.5,
    "more_tools": 0.5005,
    "perf_table": 5.941,
    "more_perf_tables": 0.6445,
    "plain_table": 2.6749,
    "prose_compared": 4.9251,
    "prose_one": 4.986,
    "text_compared": 5.5575,
    "text_many": 1.5786,
    "text_measured": 1.5469,
    "numeric_block": 2.1993,
    "results_cue": 1.486,
    "ci": -5.193,
    "maven": 0.1769,
    "maven_alone": -2.0624,
    "release": -3.0206,
    "stack": -1.5,
    "diff": -1.1369,
    "field_change": -3.0405,
    "dump": 0.1519,
    "note": 0.0,
}
