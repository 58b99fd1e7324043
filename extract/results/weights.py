"""The classifier's weights (see `extract.results.classify.features` for what each
feature is). Written by `python -m extract.dev.fit --write` from a logistic
regression on the labelled corpora; do not edit by hand."""

THRESHOLD = 2.8365
# score = logistic(SCALE * (sum of weights - THRESHOLD))
SCALE = 1.0

WEIGHTS = {
    "tool": 6.6536,
    "weak_tool": 1.5,
    "more_tools": 0.5007,
    "perf_table": 5.7689,
    "more_perf_tables": 0.8262,
    "plain_table": -0.433,
    "prose_compared": 4.6973,
    "prose_one": 4.7778,
    "text_compared": 5.2884,
    "text_many": 1.5669,
    "text_measured": 1.3877,
    "numeric_block": 3.3546,
    "results_cue": 1.4411,
    "ci": -5.2256,
    "maven": 0.1822,
    "maven_alone": -2.028,
    "release": -3.0282,
    "stack": -1.5,
    "diff": -1.2706,
    "field_change": -3.0551,
    "dump": -1.0153,
    "note": 0.0,
}
