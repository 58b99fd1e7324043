"""The classifier's weights (see `extract.results.classify.features` for what each
feature is). Written by `python -m extract.dev.fit --write` from a logistic
regression on the labelled corpora; do not edit by hand."""

THRESHOLD = 3.1607
# score = logistic(SCALE * (sum of weights - THRESHOLD))
SCALE = 1.0

WEIGHTS = {
    "tool": 7.0288,
    "weak_tool": 1.5,
    "more_tools": 0.5005,
    "perf_table": 5.9479,
    "more_perf_tables": 0.6598,
    "plain_table": 2.6762,
    "prose_compared": 4.9263,
    "prose_one": 4.9874,
    "text_compared": 5.5026,
    "text_many": 1.5768,
    "text_measured": 1.5481,
    "numeric_block": 2.1145,
    "results_cue": 1.2465,
    "ci": -5.1645,
    "maven": 0.1746,
    "maven_alone": -2.0623,
    "release": -3.0206,
    "stack": -1.5,
    "diff": -1.1123,
    "field_change": -3.0404,
    "dump": 0.152,
    "note": 0.0,
}
