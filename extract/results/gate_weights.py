"""The gate model's weights (see `extract.results.gate`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -2.231
THRESHOLD = 0.166497

WEIGHTS = {
    "aligned_row": 0.4455,
    "aligned_row:any": 0.3026,
    "ci": -2.4206,
    "ci:any": -1.8024,
    "compare": -0.0532,
    "compare:any": 0.3201,
    "json_num": 1.7684,
    "json_num:any": 0.8004,
    "kv_num": 1.2894,
    "kv_num:any": -1.9611,
    "length": -2.8993,
    "num_factor": 0.2313,
    "num_factor:any": 0.3641,
    "num_long_time": 1.4216,
    "num_long_time:any": 0.172,
    "num_percent": 0.3467,
    "num_percent:any": 1.6223,
    "num_rate": 1.3533,
    "num_rate:any": 0.4509,
    "num_row": 1.2446,
    "num_row:any": 0.6317,
    "num_time": 0.2042,
    "num_time:any": 1.6745,
    "perf_word": 0.5947,
    "perf_word:any": -0.1002,
    "pipe_row": 0.3433,
    "pipe_row:any": 1.0413,
    "stack": -1.2904,
    "stack:any": -0.8373,
    "took": 0.4909,
    "took:any": -0.0518,
    "tool_mark": 1.1439,
    "tool_mark:any": 0.069,
    "trigger_generic": 2.3212,
    "trigger_tool": 1.8271,
    "vote": -0.6361,
    "vote:any": 0.0288,
}
