"""The verdict's message features (`extract.results.verdict`) and how `make fit` fits
them (`extract.dev.fit_judge`), on text written here: how a sentence speaks (it tells
what was measured, or supposes), the families weighed by their distinct marks, and
the signs the fitted weights may take."""

import time
from pathlib import Path

import pytest

from extract.dev import fit_judge
from extract.results.families import families
from extract.results.message import message_results
from extract.results.verdict import _Sentences, _told_or_supposed

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("sentence", "told", "supposed"),
    [
        ("We ran the suite again and saw it 30% faster with the patch.", 1, 0),
        ("Here are the results: 4,200 ops/s before, 5,100 ops/s after.", 1, 0),
        ("This should be roughly 30% faster once the cache is warm.", 0, 1),
        ("I would expect about 2x the throughput in theory.", 0, 1),
        ("The build is 30% larger.", 0, 0),  # neither: no verb of either voice
        # (the setup and statistics a report reads suppose nothing in its own sentence)
        ("I see about 30k writes per second with the default settings.", 1, 0),
        ("We measured p99 3 ms, max 40 ms.", 1, 0),
        ("Tested on 8 cores: 3 minutes for the full build.", 1, 0),
        ("The default of 3 s is the limit.", 0, 1),
        # (a full-width stop ends a sentence with no blank after it: the next one's
        # `需要` (need) does not suppose this one's result)
        ("压测结果：TPS 从 8000 提升到 13000。下一步需要调整线程数。", 1, 0),
        # (an adverb between the teller and the verb; a verb that tells a figure was
        # seen; `max` in a setting's dotted key is the key's word, not the sentence's)
        ("After the change I now see 30k msg/s, before it was 900.", 1, 0),
        ("On the new box I now see 30k msg/s.", 1, 0),
        ("Write throughput peaked at 390 MB/s on the new box.", 1, 0),
        ("With fetch.max.wait.ms=100 we got 30 ms p99.", 1, 0),
        ("With max.poll.records=500 it is 30 ms.", 0, 0),
        ("With fetch.max.wait.ms=300 the p99 is 31 ms.", 0, 0),
    ],
)
def test_a_sentence_tells_or_supposes(sentence, told, supposed):
    assert _told_or_supposed(
        _Sentences(sentence), [sentence.index("3") if "3" in sentence else 0]
    ) == (
        told,
        supposed,
    )


def test_one_stray_word_is_not_a_vote():
    """`checksum` in a storage patch is not a release vote; a vote's own marks are."""
    patch = "The reader now verifies the checksum of each block before it caches it.\n"
    assert "vote" not in families(patch, "Speed up the block reader")
    vote = "+1 (binding)\n\nChecked signatures and checksums, built from source.\n"
    assert families(vote, "[VOTE] Release Foo 2.1.0 RC2")["vote"] == 1.0


def test_distinct_marks_weigh_not_repeats():
    """A mark repeated is one mark: a log that says `timed out` forty times shows one."""
    once = families("the request timed out\n", "")["bug"]
    repeated = families("the request timed out\n" * 40, "")["bug"]
    several = families("the request timed out\nthe pod was OOMKilled\njstack attached\n", "")
    assert once == repeated < several["bug"]


def test_announcements_and_advisories_are_a_family():
    text = (
        "The Apache Foo team is pleased to announce the release of Foo 3.2.0.\n"
        "Release notes: https://foo.example.org/releases/3.2.0\n"
        "Downloads page: https://foo.example.org/downloads\n"
    )
    assert families(text, "[ANNOUNCE] Apache Foo 3.2.0 released")["announce"] > 0


def test_weights_keep_the_sign_their_feature_was_designed_with():
    """A feature that is evidence of a report never weighs against one, whatever its
    correlation with others in the data; a family never weighs for one."""
    rows = [
        {"numbers:taken": 1.0, "family:ci": 1.0, "claims": 1.0},  # a CI summary, not a report
        {"numbers:taken": 1.0, "family:ci": 1.0, "claims": 1.0},
        {"numbers:taken": 0.0, "family:ci": 0.0, "claims": 1.0},  # a report by its claims
        {"numbers:taken": 0.0, "family:ci": 0.0, "claims": 1.0},
    ]
    y = [0, 0, 1, 1]
    model = fit_judge.fit_messages(rows, y, 10.0, use_prior=False)
    assert model.weights.get("numbers:taken", 0.0) >= 0.0
    assert model.weights.get("family:ci", 0.0) <= 0.0


def test_written_examples_declare_their_verdict():
    """Every message written for the verdict says what it is, and `make fit` reads it."""
    written = sorted((REPO / "tests" / "fixtures" / "verdict").glob("*.txt"))
    assert len(written) >= 100
    for path in written:
        head = path.read_text("utf-8").partition("\n\n")[0]
        assert any(line in ("Expect: benchmark", "Expect: none") for line in head.splitlines()), (
            path.name
        )
    examples = fit_judge.written_examples()
    assert len(examples) == len(written)
    assert {e.set for e in examples} == {"written"}
    assert not any(e.for_numbers for e in examples)  # they teach the verdict only


def test_the_fitted_verdict_reads_the_written_examples():
    """The verdict `make fit` wrote agrees with what nine in ten of the messages written
    for it declare (they are its hard cases: CI summaries, votes with timings, bug
    reports with hours, reports in one sentence)."""
    examples = fit_judge.written_examples()
    right = 0
    for e in examples:
        found = message_results(e.results.sample, subject=e.subject, kind=e.kind)
        right += found.verdict.is_benchmark == e.positive
    assert right / len(examples) >= 0.9, right


def test_a_sentence_report_in_a_mail_is_taken():
    body = (
        "Hi all,\n\nI benchmarked the new codec on our cluster: ingest went from 41 MB/s "
        "to 63 MB/s, and p99 read latency dropped from 12 ms to 9 ms.\n\nThanks\n"
    )
    assert message_results(body, subject="New codec numbers", kind="mail").verdict.is_benchmark


def test_build_summaries_a_person_labelled_as_before_and_after_are_a_report():
    """A build's summary line is bookkeeping; two of them a person labelled as the two
    sides of a change are its build time measured (the corpus's rule 3)."""
    for before, after in (
        ("BUILD SUCCESSFUL in 4m 12s", "BUILD SUCCESSFUL in 2m 51s"),
        ("[INFO] core ........ SUCCESS [04:12 min]", "[INFO] core ........ SUCCESS [02:51 min]"),
    ):
        body = f"Clean build, no cache:\n\nbefore: {before}\nafter:  {after}\n"
        assert message_results(body, kind="github").verdict.is_benchmark, before
        # (the same lines unlabelled: a build's log)
        log = f"> Task :core:test\n{after}\n47 actionable tasks: 47 executed\n"
        assert not message_results(log, kind="github").verdict.is_benchmark, before


def test_a_design_thread_that_tells_its_results_says_so():
    """A family a report may be written in (a design thread, a bug report) is weighed
    with how much of it tells what was run: `told_in:<family>`."""
    from extract.results.verdict import message_features

    told = (
        "I propose we make the new codec the default. We ran the ingest benchmark on "
        "three nodes: it went from 41 MB/s to 63 MB/s with the patch.\n"
    )
    supposed = (
        "I propose we make the new codec the default. In theory it should go from "
        "41 MB/s to 63 MB/s with the patch.\n"
    )
    for text, want in ((told, True), (supposed, False)):
        r = message_results(text, subject="[DISCUSS] codec", kind="mail")
        feats = message_features(r.sample, r.read, r.numbers, subject="[DISCUSS] codec")
        assert feats.get("family:design", 0) > 0
        assert (feats.get("told_in:design", 0) > 0) is want


def test_a_design_thread_explains_none_of_its_numbers():
    """Design talk weighs against a report, but a table of measurements in it keeps
    its full weight; a vote's timings are the vote's (its evidence is scaled down)."""
    from extract.results.verdict import message_features

    table = (
        "Some numbers from my test box (NVMe, 16 cores), 10 GB of WAL written:\n\n"
        "codec   ratio   write MB/s   read MB/s\n"
        "none    1.00    1450         2900\n"
        "lz4     2.10    1310         2650\n"
        "zstd    3.40    880          1720\n\n"
    )
    design = table + "I suggest we make lz4 the default, zstd should be configurable.\n"
    vote = table + "+1 (binding). Checked signatures, checksums and the release notes.\n"

    def feats(text, subject):
        r = message_results(text, subject=subject, kind="mail")
        return message_features(r.sample, r.read, r.numbers, subject=subject), r

    f, r = feats(design, "[DISCUSS] compression codec for the WAL")
    assert f["family:design"] > 0
    assert f["numbers:best"] == max(c.score for c in r.numbers if not c.noise)
    assert r.verdict.is_benchmark
    f, r = feats(vote, "[VOTE] Release Apache Foo 1.2.0")
    assert f["numbers:best"] < max(c.score for c in r.numbers if not c.noise)


_SUPPOSING = [
    "would", "could", "should", "might", "expected", "estimated", "assuming",
    "theoretically", "roughly", "planned", "targets", "goal", "need", "want", "suppose",
    "ideally", "probably", "will", "default", "limit", "max", "maximum", "rule of thumb",
    "going to", "预计", "希望", "应该", "需要",
]  # fmt: skip


@pytest.mark.parametrize("word", _SUPPOSING)
def test_each_supposing_word_is_read_in_any_case(word):
    sentence = f"It {word.upper()} be 30 ms."
    assert _told_or_supposed(_Sentences(sentence), [sentence.index("3")]) == (0, 1)


def test_a_long_sentence_of_weak_supposing_words_is_read_in_linear_time():
    # (each weak word is read as written: once copied from the whole sentence, the
    # words cost time quadratic in its length)
    text = "Hi. " + "we will " * 150_000 + "see 30 ms."
    start = time.process_time()
    assert _told_or_supposed(_Sentences(text), [text.index("30")]) == (0, 1)
    assert time.process_time() - start < 1.0


def test_features_the_model_gives_no_weight_are_skipped_without_changing_it():
    """With the model that weighs them, the readers' features it gives no weight
    (`classify.SKIPPABLE`: a stack trace, a dump, the notes) are not looked for; its
    score and reasons are those of the full features."""
    from extract.results.message import fitted_models
    from extract.results.verdict import MessageModel, message_features

    trace = "".join(f"    at org.example.Foo.bar{k}(Foo.java:{10 + k})\n" for k in range(5))
    texts = [
        "The import now takes 42 s instead of 61 s with the patch.\n\n" + trace,
        "Nothing measured yet, see the attached chart: https://example.org/chart.png\n"
        "The benchmark should show whether it is faster.\n",
        "".join(f"2024-01-0{k} 10:00:0{k} INFO  took {k}00 ms\n" for k in range(1, 10)),
    ]
    _, fitted = fitted_models()
    models = [fitted] if fitted else []
    models.append(MessageModel({"reader:stack": 0.5, "claims": 1.0}, -1.0))
    for text in texts:
        r = message_results(text, subject="a test", kind="mail")
        full = message_features(r.sample, r.read, r.numbers, subject="a test", kind="mail")
        for model in models:
            weighed = message_features(
                r.sample, r.read, r.numbers, subject="a test", kind="mail", model=model
            )
            assert set(weighed) <= set(full)
            assert all(weighed[k] == full[k] for k in weighed)
            assert {k for k in full if model.weights.get(k)} <= set(weighed)
            assert model.score(weighed) == model.score(full)
            assert model.reasons(weighed) == model.reasons(full)
    # (what the model weighs is still looked for: a stack trace, when it weighs one)
    r = message_results(texts[0], subject="a test", kind="mail")
    weighed = message_features(r.sample, r.read, r.numbers, kind="mail", model=models[-1])
    assert weighed.get("reader:stack") == 1.0


def test_a_report_with_the_configuration_it_ran_is_a_report():
    config = "".join(
        f"{key}={value}\n"
        for key, value in (
            ("maxMessageSize", 65536), ("flushCommitLogLeastPages", 4),
            ("brokerRole", "ASYNC_MASTER"),
            ("sendMessageThreadPoolNums", 16), ("pullMessageThreadPoolNums", 64),
            ("waitTimeMillsInSendQueue", 500), ("serverWorkerThreads", 16),
            ("transientStorePoolEnable", "true"), ("osPageCacheBusyTimeOutMills", 1000),
        )
    )  # fmt: skip
    report = "On 3 brokers (16 cores, 64 GB) the producer reached about 180k msg/s.\n\n" + config
    assert message_results(report, subject="Broker throughput", kind="github").verdict.is_benchmark
    assert not message_results(config, subject="Broker config", kind="github").verdict.is_benchmark


def test_numbers_under_a_hedging_header_count_as_hedged():
    from extract.results.verdict import message_features

    def hedged(header):
        text = (
            f"| scenario | producers | {header} |\n|---|---|---|\n| small | 4 | 50000 msg/s |\n"
            "| large | 16 | 200000 msg/s |\n"
        )
        r = message_results(text, subject="Perf test", kind="mail")
        return message_features(r.sample, r.read, r.numbers)["numbers:hedged_share"]

    assert hedged("target rate") > hedged("measured rate") == 0.0


def test_numbers_nothing_marks_as_performance_count_as_unmarked():
    """Of the numbers taken, the share that no unit, metric, column or word marks as a
    time, a rate or a change: a price list's or an accuracy table's numbers are."""
    from extract.results.verdict import message_features

    def unmarked(header, cells):
        rows = "".join(f"| {name} | {cell} |\n" for name, cell in zip("abc", cells, strict=True))
        text = f"Results of the comparison:\n\n| case | {header} |\n|---|---|\n{rows}"
        r = message_results(text, subject="Comparison", kind="mail")
        return message_features(r.sample, r.read, r.numbers)["numbers:unmarked_share"]

    assert unmarked("latency", ("12.5 ms", "14.1 ms", "9.8 ms")) == 0.0
    assert unmarked("price per GB-month", ("0.023", "0.020", "0.018")) == 1.0


def test_a_zero_time_is_no_measured_speed():
    # (a CLI prints how long each query of a usage example took, rounded to `0 seconds`:
    # nothing was measured; the same sentence with a time in it tells one)
    example = (
        "Adds `SHOW TABLES` to the CLI.\n\n# Example use:\n\n```\n> CREATE EXTERNAL TABLE t(a int)"
        " STORED AS CSV LOCATION '/tmp/t.csv';\n0 rows in set. Query took 0 seconds.\n"
        "> SHOW TABLES;\n2 rows in set. Query took 0 seconds.\n```\n"
    )
    assert not message_results(example, kind="github").verdict.is_benchmark
    measured = example.replace("Query took 0 seconds", "Query took 41.7 seconds")
    found = message_results(measured, kind="github")
    zero = message_results(example, kind="github")
    assert found.verdict.score > zero.verdict.score
