"""The gate model's weights (see `extract.results.gate`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -1.2035
THRESHOLD = 0.473567

WEIGHTS = {
    "aligned_row": 0.2575,
    "aligned_row:any": 0.1368,
    "ci": -2.328,
    "ci:any": -1.7575,
    "compare": -0.2859,
    "compare:any": 0.6186,
    "json_num": 1.269,
    "json_num:any": 0.5154,
    "kv_num": 0.9144,
    "kv_num:any": -2.2666,
    "length": -3.2575,
    "num_factor": 0.4327,
    "num_factor:any": 0.7492,
    "num_long_time": 1.2595,
    "num_long_time:any": 0.2967,
    "num_percent": 0.3143,
    "num_percent:any": 1.4234,
    "num_rate": 0.9559,
    "num_rate:any": 0.8002,
    "num_row": 0.9619,
    "num_row:any": 0.5099,
    "num_time": 0.1223,
    "num_time:any": 1.5497,
    "perf_word": 0.8834,
    "perf_word:any": -0.2047,
    "pipe_row": 0.3327,
    "pipe_row:any": 0.7103,
    "stack": -1.0103,
    "stack:any": -0.8906,
    "took": 0.5463,
    "took:any": 0.2203,
    "tool_mark": 1.0296,
    "tool_mark:any": 0.2128,
    "trigger_generic": 3.3989,
    "trigger_tool": 3.3298,
    "vote": -0.397,
    "vote:any": -0.042,
}
