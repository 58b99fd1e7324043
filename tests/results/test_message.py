"""`message_results`: the one per-message path, and the map from what the readers
saw back to the body."""

from extract.results.message import extraction_sample, extraction_text, message_results

JAVA = "diff --git a/src/Foo.java b/src/Foo.java\n@@ -1 +1 @@\n-int x = 12345;\n+int x = 67890;\n"
RESULTS = (
    "diff --git a/bench/results.txt b/bench/results.txt\n@@ -1 +1 @@\n-read  120 ms\n+read  80 ms\n"
)


def test_every_character_of_the_sample_maps_back_to_the_same_character_of_the_body():
    body = (
        "commit abc\n\nThe new read path.\n"
        + JAVA
        + RESULTS
        + "x" * 1500
        + " tail 42 ms\n"
        + JAVA
        + "end 7 s\n"
    )
    sample, to_body = extraction_sample(body)
    assert sample == extraction_text(body)
    assert "12345" not in sample and "80 ms" in sample and "[...]" in sample
    mark = sample.index(" [...]")
    in_mark = range(mark, mark + len(" [...]"))
    for i, ch in enumerate(sample):
        if i not in in_mark:
            assert body[to_body(i)] == ch, i


def test_a_plain_body_is_its_own_sample():
    sample, to_body = extraction_sample("took 12 ms\n")
    assert sample == "took 12 ms\n" and to_body(5) == 5


def test_message_results_reports_the_stages_it_enters():
    stages = []
    found = message_results("Before: 120 ms\nAfter: 80 ms\n", on_stage=stages.append)
    assert stages == ["extract", "classify"]
    assert found.sample == "Before: 120 ms\nAfter: 80 ms\n"
    assert found.tables and found.verdict is not None


def test_a_diff_says_the_lines_it_adds_not_those_it_removes():
    body = (
        "commit abc\n\n    Re-run the scan benchmark on the new runners\n\n"
        "diff --git a/bench/scan-results.txt b/bench/scan-results.txt\n"
        "--- a/bench/scan-results.txt\n+++ b/bench/scan-results.txt\n"
        "@@ -1,3 +1,3 @@\n Benchmark     Time (ms)\n-scan_small    14.2\n-scan_large    512.0\n"
        "+scan_small    11.9\n+scan_large    431.5\n"
    )
    sample, to_body = extraction_sample(body)
    assert "11.9" in sample and "431.5" in sample and "Time (ms)" in sample
    assert "14.2" not in sample and "512.0" not in sample
    for i, ch in enumerate(sample):
        assert body[to_body(i)] == ch, i


def test_a_page_moved_to_another_markup_reports_nothing_new():
    # (the same table deleted from a Markdown page and added to an AsciiDoc one)
    rows = [("1", "18,100,000", "1,700,000"), ("8", "14,400,000", "610,000")]
    old = "".join(f"-| {a} | {b} | {c} |\n" for a, b, c in rows)
    new = "".join(f"+| {a} | {b} | {c}\n" for a, b, c in rows)
    body = (
        "commit abc\n\n    Convert the performance page to AsciiDoc\n\n"
        "diff --git a/site/perf.md b/site/perf.md\n--- a/site/perf.md\n+++ /dev/null\n"
        "@@ -1,3 +0,0 @@\n-| Threads | Async | Sync |\n"
        + old
        + "diff --git a/site/perf.adoc b/site/perf.adoc\n--- /dev/null\n+++ b/site/perf.adoc\n"
        "@@ -0,0 +1,4 @@\n+|===\n+| Threads | Async | Sync\n" + new + "+|===\n"
    )
    sample = extraction_text(body)
    assert "18,100,000" not in sample and "610,000" not in sample
    assert not message_results(body, kind="commit").tables


def test_an_svn_diff_is_read_as_a_git_one():
    # (svn's commit mail: `Modified: path`, its view's URL, a rule, then the hunks)
    rule = "=" * 78
    body = (
        "Update the scan results\n\nModified:\n    site/bench.txt\n\n"
        f"Modified: site/bench.txt\nURL: http://svn.example.org/viewvc/site/bench.txt\n{rule}\n"
        "--- site/bench.txt (original)\n+++ site/bench.txt Mon Mar  4 10:11:12 2024\n"
        "@@ -1,2 +1,2 @@\n scan    Time (ms)\n-small   14.2\n+small   11.9\n"
        f"\nModified: src/Scan.java\nURL: http://svn.example.org/viewvc/src/Scan.java\n{rule}\n"
        "--- src/Scan.java (original)\n+++ src/Scan.java Mon Mar  4 10:11:12 2024\n"
        "@@ -1 +1 @@\n-int batch = 64;\n+int batch = 128;\n"
    )
    sample = extraction_text(body)
    assert "11.9" in sample and "14.2" not in sample and "128" not in sample


def test_a_body_with_git_and_svn_diffs_reads_each_file_in_order():
    # (a mail quoting a git diff below an svn one: each file ends where the next begins,
    # whichever tool's header starts it)
    rule = "=" * 78
    body = (
        "Port the scan results\n\n"
        f"Modified: site/bench.txt\nURL: http://svn.example.org/viewvc/site/bench.txt\n{rule}\n"
        "@@ -1,2 +1,2 @@\n scan    Time (ms)\n-small   14.2\n+small   11.9\n"
        "diff --git a/src/Scan.java b/src/Scan.java\n@@ -1 +1 @@\n-int batch = 64;\n"
        "+int batch = 128;\n"
        f"Modified: src/Batch.java\nURL: http://svn.example.org/viewvc/src/Batch.java\n{rule}\n"
        "@@ -1 +1 @@\n-int depth = 3;\n+int depth = 7;\n"
        "diff --git a/site/load.txt b/site/load.txt\n@@ -1 +1 @@\n-load   220\n+load   180\n"
    )
    sample, to_body = extraction_sample(body)
    assert "11.9" in sample and "180" in sample
    assert not any(n in sample for n in ("14.2", "128", "= 7", "220"))
    for i, ch in enumerate(sample):
        assert body[to_body(i)] == ch, i


def test_a_reader_that_read_a_duration_s_first_part_measures_the_whole():
    body = (
        "Full build on trunk vs. the branch with the parallel javac task:\n\ntrunk:\n"
        "BUILD SUCCESSFUL\nTotal time: 6 minutes 41 seconds\n\nbranch:\nBUILD SUCCESSFUL\n"
        "Total time: 2 minutes 58 seconds\n"
    )
    found = message_results(body, kind="jira")
    got = sorted((m.value, m.unit) for t in found.tables for m in t.measurements)
    assert got == [(178.0, "s"), (401.0, "s")]
