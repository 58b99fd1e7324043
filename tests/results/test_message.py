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
