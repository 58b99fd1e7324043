"""The classifier's weights (see `extract.results.classify.features` for what each
feature is). Written by `python -m extract.dev.fit --write` from a logistic
regression on the labelled corpora; do not edit by hand."""

THRESHOLD = 3.4736
# score = logistic(SCALE * (sum of weights - THRESHOLD))
SCALE = 1.0

WEIGHTS = {
    "tool": 7.3456,
    "weak_tool": 1.5,
    "more_tools": 0.5005,
    "perf_table": 6.4663,
    "more_perf_tables": 0.6151,
    "plain_table": 2.9339,
    "prose_compared": 5.9344,
    "prose_one": 3.3821,
    "text_compared": 5.7128,
    "text_many": 1.5732,
    "text_measured": 0.3784,
    "numeric_block": 2.1254,
    "results_cue": 1.2717,
    "ci": -5.1013,
    "maven": 0.1734,
    "maven_alone": -2.1279,
    "release": -3.0299,
    "stack": -1.5,
    "diff": -0.9695,
    "field_change": -3.0299,
    "dump": 1.2542,
    "note": 0.0,
}
