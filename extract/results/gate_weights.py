"""The gate model's weights (see `extract.results.gate`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -0.9273
THRESHOLD = 0.481885

WEIGHTS = {
    "aligned_row": 0.3475,
    "aligned_row:any": 0.1859,
    "ci": -2.3373,
    "ci:any": -1.633,
    "compare": -0.1782,
    "compare:any": 0.4867,
    "json_num": 1.4377,
    "json_num:any": 0.5928,
    "kv_num": 1.0117,
    "kv_num:any": -2.1166,
    "length": -3.1895,
    "num_factor": 0.5212,
    "num_factor:any": 0.7002,
    "num_long_time": 1.2856,
    "num_long_time:any": 0.3784,
    "num_percent": 0.3905,
    "num_percent:any": 1.5405,
    "num_rate": 0.9443,
    "num_rate:any": 0.5229,
    "num_row": 0.9467,
    "num_row:any": 0.4439,
    "num_time": 0.2148,
    "num_time:any": 1.5044,
    "perf_word": 0.8518,
    "perf_word:any": -0.1713,
    "pipe_row": 0.3385,
    "pipe_row:any": 0.7211,
    "stack": -1.2653,
    "stack:any": -1.0328,
    "took": 0.2664,
    "took:any": -0.0466,
    "tool_mark": 0.758,
    "tool_mark:any": 0.3111,
    "trigger_generic": 3.0406,
    "trigger_tool": 2.4007,
    "vote": -0.6609,
    "vote:any": -0.1551,
}
