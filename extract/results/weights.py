"""The classifier's weights (see `extract.results.classify.features` for what each
feature is). Written by `python -m extract.dev.fit --write` from a logistic
regression on the labelled corpora; do not edit by hand."""

THRESHOLD = 3.4816
# score = logistic(SCALE * (sum of weights - THRESHOLD))
SCALE = 1.0

WEIGHTS = {
    "tool": 7.3516,
    "weak_tool": 1.5,
    "more_tools": 0.5005,
    "perf_table": 6.4716,
    "more_perf_tables": 0.6152,
    "plain_table": 2.9407,
    "prose_compared": 5.9406,
    "prose_one": 3.385,
    "text_compared": 5.7203,
    "text_many": 1.5733,
    "text_measured": 0.3829,
    "numeric_block": 2.1254,
    "results_cue": 1.272,
    "ci": -5.1012,
    "maven": 0.1737,
    "maven_alone": -2.1274,
    "release": -3.015,
    "stack": -1.5,
    "diff": -0.9668,
    "field_change": -3.0297,
    "dump": 1.2576,
    "note": 0.0,
}
