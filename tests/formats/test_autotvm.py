"""autotvm: AutoTVM tuning progress lines, written from TVM's autotvm progress_bar."""

from tests.formats.golden import rows_of, text_of


def test_flattened_reads_the_same():
    clean = rows_of(text_of("autotvm--tune-progress"))
    assert rows_of(text_of("autotvm--tune-progress-flattened")) == clean


def test_tasks_and_their_numbers():
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in
           rows_of(text_of("autotvm--tune-progress"))}  # fmt: skip
    assert got[("Task 2/3", "Best")] == (131.95, "GFLOPS")
    assert got[("Task 3/3", "trials")] == (32.0, None)
    assert got[("Task 1/3", "elapsed")] == (38.12, "s")


def test_keeps_the_last_redraw_of_a_task():

    text = text_of("autotvm--tune-log-redraws")  # (its `\r` redraws are read as line ends)
    got = [(r["label"], r["metric"], r["value"]) for r in rows_of(text)]
    assert ("Task 1/1", "Best", 52.03) in got and len(got) == 4
    assert not [g for g in got if g[2] in (35.2, 44.1, 12.77, 9.84)]  # earlier redraws
