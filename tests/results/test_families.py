"""The families of ordinary list traffic (`extract.results.families`), each on a message
written here in that family's own way: the family is recognised, and the fitted verdict
does not take the message for a benchmark report. Reports written in prose are taken."""

import pytest

from extract.results.families import families
from extract.results.message import message_results

CI_TRILLIAN = """Trillian test result (tid-4321)
Environment: kvm-ol8 (x2), Advanced Networking with Mgmt server ol8
Total time taken: 45612 seconds
Marvin logs: https://ci.example.org/marvin/4321.zip
Smoke tests completed. 112 look OK, 3 have errors, 0 did not run
Only failed and skipped tests results shown below:
Test | Result | Time (s) | Test File
--- | --- | --- | ---
test_01_secure_vm_migration | `Failure` | 410.52 | test_vm_life_cycle.py
test_02_deploy_ha_vm | `Error` | 87.10 | test_host_ha.py
"""

CI_ACTIONS = """:white_check_mark: Build #1234 succeeded in 41m 12s
Workflow run: https://github.com/example/foo/actions/runs/998877
Tests: 2314 passed, 12 skipped, 0 failed (total time 38m 2s)
Artifacts: coverage-report (14 MB), test-logs (2 MB)
"""

CI_JENKINS = """Build failed in Jenkins: Foo-trunk-Commit #8812
See <https://ci.example.org/job/Foo-trunk-Commit/8812/display/redirect>
Changes: [someone] FOO-1234. Speed up the block report (#5521)
[INFO] Total time:  01:12 h
[INFO] Finished at: 2024-03-11T04:05:06Z
[ERROR] Tests run: 4512, Failures: 2, Errors: 0, Skipped: 31, Time elapsed: 3,412.8 s
"""

DEPENDENCY_BOT = """Bumps [netty-handler](https://github.com/netty/netty)
from 4.1.94.Final to 4.1.100.Final.
Commits: 3 commits, 12 files changed.
Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself.
You can trigger a rebase of this PR by commenting `@dependabot rebase`.
"""

RELEASE_VOTE = """Hi all,

Please vote on releasing the following candidate as Apache Foo 2.4.1.
The vote is open for at least 72 hours and passes if a majority of at least 3 +1 PMC
votes are cast.

[ ] +1 Release this package as Apache Foo 2.4.1
[ ] -1 Do not release this package because ...

The release files, including signatures, digests, etc. can be found at:
https://dist.example.org/repos/dist/dev/foo/2.4.1-rc2/
The staging repository: https://repository.example.org/orgexamplefoo-1187
KEYS: https://downloads.example.org/foo/KEYS
"""

RELEASE_CHECK = """+1 (binding)

- checked sha512 and gpg signatures: OK
- built from source on JDK 17 in 14 minutes, ran the unit tests (2 hours 5 minutes)
- ran the quickstart: 3 of 3 examples pass
"""

BUG_OOM = """After upgrading to 3.2.0 the broker dies with an OutOfMemoryError after 8-9 hours
under our normal load (about 2k msgs/s).
JVM flags: -Xmx8g -Xms8g -XX:+UseG1GC -XX:MaxGCPauseMillis=200

2024-05-02 03:14:07,123 ERROR [ReplicaFetcher-0] Uncaught exception
java.lang.OutOfMemoryError: Java heap space
    at java.base/java.util.Arrays.copyOf(Arrays.java:3537)
    at org.example.foo.log.Segment.append(Segment.java:412)
    at org.example.foo.log.Log.append(Log.java:1088)

The GC log shows full GC pauses of 12-15 s before the crash. Any idea?
"""

CONFIG_DUMP = """Here is our broker config:

num.io.threads=16
num.network.threads=8
socket.send.buffer.bytes=1048576
log.segment.bytes=1073741824
log.retention.hours=168
replica.lag.time.max.ms=30000
"""

DESIGN_TALK = """I think the default of 30 seconds for the request timeout is too low for large
clusters. We should make it configurable, and raise the maximum batch size to 16 MB.
A limit of 1000 partitions per broker should stay a soft limit, not a hard one.
"""

BENCHMARK_REQUEST = """Thanks for the patch. Could you please share a stress test report before we
merge? It would be great to see TPS, average and p99 latency, CPU and memory usage, with
1, 4 and 16 producers, each run for at least 10 minutes.
"""

BENCHMARK_ASKED_OF_ANYONE = """Before we cut 5.0 it would help if someone could run the
perf suite on real hardware and report back:
- produce throughput (msg/s) with 1 KB and 10 KB records
- p99 and p999 end-to-end latency in ms
We should reach at least 500k msg/s on 3 brokers.
"""

PR_TEMPLATE = """### What changes were proposed in this pull request?
Use a cached thread pool for the metadata fetches.

### Why are the changes needed?
The fixed pool of 4 threads blocks under load.

### How was this patch tested?
Existing tests; ran the suite locally.

- [x] I have added tests
- [ ] I have updated the docs
"""

BUG_SYSTEM_STATE = """The CPU is pegged on the NameNode since this morning. top shows:

  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND
 4123 hdfs      20   0   31.2g  24.1g  31244 S 398.7  76.2   1234:56 java
 1877 root      20   0  162344  12312   8123 S   2.3   0.0   12:01.23 sshd

and iostat -x 1:

Device  r/s   w/s   rkB/s   wkB/s  await  %util
sda     12.0  812.0  48.0   52312.0  41.2   99.8

We haven't changed anything. Could it be FOO-12345?
"""

BUG_FAILING_TEST = """Since the merge the join test fails on main:

```
---- join::tests::join_left_one stdout ----
thread 'join::tests::join_left_one' panicked at src/join.rs:212:9:
assertion `left == right` failed
  left: ["+----+----+", "| a1 | c2 |", "+----+----+", "| 1  | 70 |", "| 2  | 80 |"]
 right: ["+----+----+", "| a1 | c2 |", "+----+----+", "| 1  | 70 |", "| 3  | 90 |"]
```

and the Java side: `org.opentest4j.AssertionFailedError: expected: <80> but was: <90>`.
"""

FAMILIES = [
    ("ci", CI_TRILLIAN),
    ("ci", CI_ACTIONS),
    ("ci", CI_JENKINS),
    ("ci", DEPENDENCY_BOT),
    ("vote", RELEASE_VOTE),
    ("vote", RELEASE_CHECK),
    ("bug", BUG_OOM),
    ("bug", BUG_SYSTEM_STATE),
    ("bug", BUG_FAILING_TEST),
    ("config", CONFIG_DUMP),
    ("design", DESIGN_TALK),
    ("request", BENCHMARK_REQUEST),
    ("request", BENCHMARK_ASKED_OF_ANYONE),
    ("template", PR_TEMPLATE),
]
IDS = [
    "ci-test-bot",
    "ci-actions",
    "ci-jenkins",
    "ci-dependency-bot",
    "vote",
    "vote-check",
    "bug-oom",
    "bug-system-state",
    "bug-failing-test",
    "config-dump",
    "design-defaults",
    "benchmark-request",
    "benchmark-asked-of-anyone",
    "pr-template",
]


@pytest.mark.parametrize(("family", "text"), FAMILIES, ids=IDS)
def test_each_family_is_recognised(family, text):
    assert family in families(text)


@pytest.mark.parametrize(("family", "text"), FAMILIES, ids=IDS)
def test_ordinary_traffic_is_not_a_benchmark_report(family, text):
    found = message_results(text, kind="mail")
    assert not found.verdict.is_benchmark, found.verdict


REPORTS = [
    (
        "With the patch the full scan of the 1 TB table went from 412 s to 236 s (1.75x faster),\n"
        "and the p99 read latency dropped from 38 ms to 21 ms.\n",
        {412.0, 236.0, 1.75, 38.0, 21.0},
    ),
    (
        "I ran the benchmark again on the new build: about 30k writes per second on one node,\n"
        "up from ~21k before the change; the compaction took 14 minutes instead of 25.\n",
        {30000.0, 14.0},
    ),
]


@pytest.mark.parametrize(("text", "values"), REPORTS, ids=["from-to", "rates"])
def test_results_written_in_sentences_are_a_report(text, values):
    found = message_results(text, kind="mail")
    assert found.verdict.is_benchmark, found.verdict
    taken = {m.value for t in found.tables for m in t.measurements}
    assert values <= taken, taken


# ------------------------------------------------------------ the scan against `re`


def _texts_to_check() -> list[tuple[str, str]]:
    """(name, text) of the messages written for the verdict, the demo sample's sources
    and these tests' own: every mark is held to what `re` finds in them."""
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    out = [(f"family-{k}", text) for k, (_, text) in enumerate(FAMILIES)]
    for folder in ("verdict", "sample"):
        for path in sorted((repo / "tests" / "fixtures" / folder).glob("*.txt")):
            out.append((path.stem, path.read_text("utf-8").partition("\n\n")[2]))
    return out


def test_the_one_scan_finds_what_re_finds():
    """Hyperscan and Python's `re` read the marks' syntax alike but not always
    (Hyperscan 0.9.1 missed a line-start mark in one database): each mark the scan
    finds or misses in a text, `re` finds or misses too (ASCII word boundaries, as
    Hyperscan's)."""
    import re

    from extract.results.families import LINE_MARKS, MARKS, marks_found, without_trailers

    texts = _texts_to_check()
    assert len(texts) > 100
    wrong = []
    for name, text in texts:
        found, lines = marks_found(text)
        text = without_trailers(text)  # (what the scan reads)
        body = "\n" + text[:20000]
        for family, marks in MARKS.items():
            for k, mark in enumerate(marks):
                expected = re.search(mark, body, re.I | re.M | re.ASCII) is not None
                if expected != (k in found.get(family, set())):
                    wrong.append((name, family, mark, expected))
        for line_mark, marks in LINE_MARKS.items():
            expected = sum(
                any(re.search(m, ln, re.I | re.ASCII) for m in marks)
                for ln in text[:20000].split("\n")
            )
            if expected != lines.get(line_mark, 0):
                wrong.append((name, line_mark, expected, lines.get(line_mark, 0)))
    assert not wrong, wrong[:10]


def test_lag_alone_is_no_bug_report():
    # (a lag measured is a latency: `replication lag was 120 ms`; a report of a lag
    # that keeps growing shows its bug by its other marks)
    assert "bug" not in families("Replication lag was 120 ms before and 45 ms after.")


def test_jvm_flags_are_one_mark_however_many():
    # (a benchmark states its setup with them as often as a bug report does)
    setup = "Ran on JDK 17 with JVM options -Xms4g -Xmx4g -XX:+UseG1GC -XX:+AlwaysPreTouch."
    assert families(setup).get("bug", 0) <= 0.25


def test_job_statuses_on_a_third_of_the_lines_are_a_ci_summary():
    summary = (
        "| Job | Result | Duration |\n|---|---|---|\n"
        "| build (ubuntu-22.04, 3.12) | success | 12m 5s |\n"
        "| build (macos-14, 3.12) | failure | 23m 2s |\n"
        "| docs | success | 4m 31s |\n| lint | success | 1m 10s |\n"
    )
    assert families(summary).get("ci", 0) > 0.3
    # (a tool's count of failures beside its results is no job's status)
    perf = "".join(
        f"Throughput produced: {n} msg/s --- 683.7 Mbit/s --- failure 0.0 msg/s\n"
        for n in (87516, 91580, 99398, 88421)
    )
    assert "ci" not in families(perf)


def test_a_commit_s_trailers_are_no_ci_report():
    body = (
        "Keep the sorted order.\n\nChange-Id: I3f1f0c2a\nTested-by: Foo Jenkins\nReviewed-by: A B\n"
    )
    assert "ci" not in families(body)
    assert "ci" in families("Jenkins build #1873 failed: 3 tests failed.\n")


def test_a_family_grows_with_its_kinds_of_mark_and_one_stray_request_weighs_half():
    # (a report that asks one thing on the way, `could you post the old client's?`,
    # is no request for a benchmark the way a message of requests is)
    one = families("Could you also post the old client's numbers? Ours are below.")
    two = families("Could you run the benchmark again? Please share the numbers too.")
    assert one["request"] == 0.5 and two["request"] == 1.0


def test_a_benchmark_tool_s_context_lines_are_no_system_state():
    # (Google Benchmark prints the machine's load above its results)
    text = (
        "Run on (8 X 3600 MHz CPU s)\nLoad Average: 1.23, 0.98, 0.80\n"
        "---------------------------------------------------\n"
        "Benchmark            Time             CPU   Iterations\n"
        "BM_Copy/1024       41.2 ns         41.1 ns     17012345\n"
    )
    assert "bug" not in families(text)


def test_a_flattened_message_is_as_many_lines_as_its_length_fills():
    # (GitBox mail flattened onto one line: one `failed` on it is no CI summary's share)
    lines = [
        "We have run the patch on our largest job for three days now, with the same state",
        "and the same checkpoint interval as before, and compared it with the week before.",
        "- checkpoint duration went from 2-3 min to 40-55 s on every one of the 40 nodes",
        "- upload throughput per node went from ~190 MB/s to ~700 MB/s, near the NIC's",
        "- 0 failed checkpoints in the last 24 hours, against 7 in the 24 hours before",
    ]
    wrapped, flat = families("\n".join(lines)), families(" ".join(lines))
    assert abs(flat.get("ci", 0) - wrapped.get("ci", 0)) < 0.1 and flat.get("ci", 0) < 0.7


def test_a_voter_s_smoke_test_is_a_check_not_a_ci_run():
    vote = "+1 (binding)\n- checked signatures and checksums\n- ran the smoke test on 3 nodes\n"
    assert "ci" not in families(vote) and families(vote)["vote"] == 1.0
    assert "ci" in families("Smoke tests completed. 126 look OK, 2 have errors, 0 did not run\n")


def test_a_runner_s_count_is_of_tests_not_of_what_a_result_counts():
    for summary in (
        "== 5 failed, 120 passed in 3.2s ==\n",
        "Checks: 1 failed and 3 passed\n",
        "==== 3 failed ====\n",
        "12 passed in 4.10s\n",
        "10 passed with warnings\n",
        "3 failed (see the log)\n",
    ):
        assert "ci" in families(summary), summary
    for told in ("0 failed checkpoints in 24 hours.\n", "Since the patch: 0 failed in 24 hours.\n"):
        assert "ci" not in families(told), told


@pytest.mark.parametrize(
    "line",
    [
        "thread 'scan::tests::empty' panicked at src/scan.rs:41:5:",
        "assertion `left == right` failed",
        "expected:<80> but was:<90>",
        "E       assert 80 == 90",
        "--- FAIL: TestScan (0.00s)",
    ],
)
def test_a_failing_tests_output_marks_a_bug(line):
    # (each framework's own words for a failed check: Rust, JUnit, pytest, Go)
    assert "bug" in families(f"The scan test fails on main:\n{line}\n")
