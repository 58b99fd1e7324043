"""The gate model's weights (see `extract.results.gate`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -2.1865
THRESHOLD = 0.167985

WEIGHTS = {
    "aligned_row": 0.5773,
    "ci": -3.772,
    "compare": 0.0169,
    "json_num": 2.0108,
    "kv_num": 0.3571,
    "length": -3.2248,
    "num_factor": 0.5613,
    "num_long_time": 1.62,
    "num_percent": 1.4696,
    "num_rate": 1.6424,
    "num_row": 1.3952,
    "num_time": 0.9742,
    "perf_word": 0.6844,
    "pipe_row": 0.8113,
    "stack": -1.5296,
    "took": 0.5014,
    "tool_mark": 1.0022,
    "trigger_generic": 2.2256,
    "trigger_tool": 1.8797,
    "vote": -0.8119,
}
