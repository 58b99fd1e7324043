"""The classifier's weights (see `extract.results.classify.features` for what each
feature is). Written by `python -m extract.dev.fit --write` from a logistic
regression on the labelled corpora; do not edit by hand."""

THRESHOLD = 3.423
# score = logistic(SCALE * (sum of weights - THRESHOLD))
SCALE = 1.0

WEIGHTS = {
    "tool": 7.2302,
    "weak_tool": 1.5,
    "more_tools": 0.5005,
    "perf_table": 6.2607,
    "more_perf_tables": 0.6533,
    "plain_table": 2.8924,
    "prose_compared": 5.7054,
    "prose_one": 3.3635,
    "text_compared": 5.6663,
    "text_many": 1.5781,
    "text_measured": 1.7695,
    "numeric_block": 2.1249,
    "results_cue": 1.2699,
    "ci": -5.1125,
    "maven": 0.1832,
    "maven_alone": -2.1311,
    "release": -3.0159,
    "stack": -1.5,
    "diff": -0.9864,
    "field_change": -3.0314,
    "dump": 1.2324,
    "note": 0.0,
}
