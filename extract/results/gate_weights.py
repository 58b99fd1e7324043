"""The gate model's weights (see `extract.results.gate`). Written by
`python -m extract.dev.fit_judge --write` from a logistic regression on the
labelled mail; do not edit by hand."""

BIAS = -0.9374
THRESHOLD = 0.483355

WEIGHTS = {
    "aligned_row": 0.3471,
    "aligned_row:any": 0.1858,
    "ci": -2.3375,
    "ci:any": -1.6339,
    "compare": -0.1789,
    "compare:any": 0.4871,
    "json_num": 1.434,
    "json_num:any": 0.5916,
    "kv_num": 1.0121,
    "kv_num:any": -2.1199,
    "length": -3.1723,
    "num_factor": 0.5198,
    "num_factor:any": 0.6972,
    "num_long_time": 1.2859,
    "num_long_time:any": 0.3778,
    "num_percent": 0.3897,
    "num_percent:any": 1.5359,
    "num_rate": 0.945,
    "num_rate:any": 0.5238,
    "num_row": 0.9464,
    "num_row:any": 0.444,
    "num_time": 0.2142,
    "num_time:any": 1.5041,
    "perf_word": 0.8498,
    "perf_word:any": -0.1687,
    "pipe_row": 0.3378,
    "pipe_row:any": 0.7228,
    "stack": -1.266,
    "stack:any": -1.0338,
    "took": 0.2674,
    "took:any": -0.0466,
    "tool_mark": 0.7579,
    "tool_mark:any": 0.3115,
    "trigger_generic": 3.0422,
    "trigger_tool": 2.3992,
    "vote": -0.6576,
    "vote:any": -0.142,
}
