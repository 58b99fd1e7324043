"""The gate model's weights (see `extract.results.gate`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -0.9372
THRESHOLD = 0.483203

WEIGHTS = {
    "aligned_row": 0.3472,
    "aligned_row:any": 0.1858,
    "ci": -2.3376,
    "ci:any": -1.6335,
    "compare": -0.1788,
    "compare:any": 0.4868,
    "json_num": 1.4343,
    "json_num:any": 0.5917,
    "kv_num": 1.0113,
    "kv_num:any": -2.1181,
    "length": -3.175,
    "num_factor": 0.5199,
    "num_factor:any": 0.6971,
    "num_long_time": 1.286,
    "num_long_time:any": 0.3775,
    "num_percent": 0.3897,
    "num_percent:any": 1.5359,
    "num_rate": 0.9448,
    "num_rate:any": 0.5235,
    "num_row": 0.9463,
    "num_row:any": 0.4438,
    "num_time": 0.2141,
    "num_time:any": 1.5041,
    "perf_word": 0.8505,
    "perf_word:any": -0.1684,
    "pipe_row": 0.3378,
    "pipe_row:any": 0.7226,
    "stack": -1.266,
    "stack:any": -1.0338,
    "took": 0.2674,
    "took:any": -0.0467,
    "tool_mark": 0.7577,
    "tool_mark:any": 0.3113,
    "trigger_generic": 3.043,
    "trigger_tool": 2.3988,
    "vote": -0.6576,
    "vote:any": -0.142,
}
