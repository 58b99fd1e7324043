"""What the seeds say, read off their text once, for the tests that check what the
extractor makes of them (`tests/test_seeds.py`, `tests/results/test_comparisons.py`)."""

# Seed 002 (HBASE PerformanceEvaluation, RandomReadTest with 10 clients): each client's
# timing (ms) and the summary lines, before and after the patch.
SEED_002_TIMINGS = {
    "Before patch": [
        141302,
        141522,
        140684,
        138496,
        140165,
        141211,
        141792,
        141077,
        141257,
        137735,
    ],
    "After patch": [140656, 140635, 139256, 140225, 141125, 140199, 140405, 142181, 140379, 140557],
}
SEED_002_SUMMARY = {
    "Before patch": {"min": 137735, "max": 141792, "avg": 140524, "latency": 1403, "tps": 7117},
    "After patch": {"min": 139256, "max": 142181, "avg": 140561, "latency": 1403, "tps": 7114},
}
