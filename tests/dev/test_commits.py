"""The real pull request descriptions (`extract.dev.commits`): the labels are well
formed and hold no text of the commits, a commit is read from a real git repository
and judged as the GitHub mail that opens its pull request, and the fits read the sets
read for gaps and never the unread ones."""

from __future__ import annotations

import json
import subprocess

import pytest

from extract.dev import commits, fit, fit_judge


def test_the_labels_are_well_formed_and_name_each_commit_once():
    items = commits.labels()
    assert {x.set for x in items} == set(commits.SETS)
    assert len({(x.repo, x.commit) for x in items}) == len(items)
    for x in items:
        assert x.repo.startswith("apache/") and len(x.commit) >= 10, x
        int(x.commit, 16)  # (a hash's prefix: no text of the commit)
        assert x.why and len(x.why) < 200, x
        assert not x.borderline or x.is_benchmark, x
    for which in commits.SETS:
        told = [x.is_benchmark for x in items if x.set == which]
        # (each set holds the commits the extractor took and as many more it did not)
        assert len(told) >= 200 and 0.15 < sum(told) / len(told) < 0.6, which


def _git(repo, *args, env=None):
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, env=env
    ).stdout.strip()


REPORT = (
    "### Rationale for this change\n\nThe scan kernel copied every batch twice.\n\n"
    "### Benchmarks\n\n| query | main | this PR |\n|---|---|---|\n"
    "| q1 | 412.3 ms | 281.0 ms |\n| q6 | 198.7 ms | 120.4 ms |\n"
)
ORDINARY = (
    "### Rationale for this change\n\nThe default batch size was 1024; it is now 8192,\n"
    "as the docs say. Tests updated.\n"
)


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    """A real git repository laid out as `fetch` lays out a snapshot, with a report, an
    ordinary commit and a copy of the report; their hashes."""
    work = tmp_path / "work"
    work.mkdir()
    env = {
        "GIT_AUTHOR_NAME": "A Developer",
        "GIT_AUTHOR_EMAIL": "dev@example.org",
        "GIT_COMMITTER_NAME": "A Developer",
        "GIT_COMMITTER_EMAIL": "dev@example.org",
        "GIT_AUTHOR_DATE": "2024-03-04T10:11:12Z",
        "GIT_COMMITTER_DATE": "2024-03-04T10:11:12Z",
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    _git(work, "init", "-q", env=env)
    hashes = []
    for subject, body in (
        ("GH-101: [C++] Copy each batch once in the scan (#102)", REPORT),
        ("GH-103: [C++] Raise the default batch size (#104)", ORDINARY),
        # (the first again, as a repository split from this one carries it)
        ("GH-101: [C++] Copy each batch once in the scan (#7)", REPORT),
    ):
        _git(work, "commit", "-q", "--allow-empty", "-m", subject, "-m", body, env=env)
        hashes.append(_git(work, "rev-parse", "HEAD", env=env))
    snapshots = tmp_path / "mirror"
    (snapshots / "apache+demo").mkdir(parents=True)
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(work), str(snapshots / "apache+demo" / "repo")],
        check=True,
        env=env,
    )
    monkeypatch.setenv("MIRROR_DIR", str(snapshots))
    return hashes


def test_a_commit_is_read_and_judged_as_its_pull_requests_mail(mirror, tmp_path):
    report, ordinary, _ = (h[:12] for h in mirror)
    texts = commits.read_commits("apache/demo", [report, ordinary])
    assert texts[report].subject.endswith("(#102)") and "412.3 ms" in texts[report].body
    mail = commits.as_mail("apache/demo", texts[report]).decode()
    assert "Copy each batch once in the scan" in mail and "412.3 ms" in mail
    assert "(#102)" not in mail.split("\n\n", 1)[0]  # (the title, the number apart)
    labels = tmp_path / "labels.jsonl"
    rows = [
        {"set": "commits1", "repo": "apache/demo", "commit": report, "is_benchmark": True},
        {"set": "commits1", "repo": "apache/demo", "commit": ordinary, "is_benchmark": True},
        {"set": "commits1", "repo": "apache/demo", "commit": "0" * 12, "is_benchmark": False},
    ]
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows))
    judged = {x.commit: (said, stored) for x, said, stored in commits.judged("commits1", labels)}
    assert judged[report][0] is True and judged[report][1] >= 4
    assert judged[ordinary] == (False, 0)
    assert judged["0" * 12] == (None, 0)  # (not in the snapshot)
    figures = commits.evaluate("commits1", labels)
    assert (figures.tp, figures.fn, figures.missing) == (1, 1, 1)
    # (a repository whose snapshot is not there: its commits count as missing)
    rows.append({"set": "commits1", "repo": "apache/gone", "commit": report, "is_benchmark": True})
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert commits.evaluate("commits1", labels).missing == 2


def test_a_set_without_its_snapshot_is_not_measured(monkeypatch, tmp_path):
    monkeypatch.setenv("MIRROR_DIR", str(tmp_path / "nothing"))
    assert commits.evaluate("commits2") is None


def test_the_fits_learn_from_the_sets_read_for_gaps_and_never_the_unread(mirror, tmp_path):
    assert set(commits.FITTED) | set(commits.UNREAD) <= set(commits.SETS)
    assert not set(commits.FITTED) & set(commits.UNREAD)
    read_unfitted = set(commits.SETS) - set(commits.FITTED) - set(commits.UNREAD)
    report, ordinary, copy = (h[:12] for h in mirror)
    labels = tmp_path / "labels.jsonl"

    def learnt(rows):
        labels.write_text("".join(json.dumps(r) + "\n" for r in rows))
        return fit_judge.commit_examples(labels)

    one = {"repo": "apache/demo", "commit": report, "is_benchmark": True}
    other = {"repo": "apache/demo", "commit": ordinary, "is_benchmark": False}
    twin = {"repo": "apache/demo", "commit": copy, "is_benchmark": True}
    # (the unread set's commit is never learnt from; the read one teaches the verdict only)
    got = learnt([{**one, "set": "commits1"}, {**other, "set": "commits2"}])
    assert [(e.id, e.positive, e.for_numbers) for e in got] == [
        (f"apache/demo@{report}", True, False)
    ]
    assert got[0].feats
    # copies of one description are one thread, whichever sets they are in
    got = learnt([{**one, "set": "commits1"}, {**twin, "set": "commits3"}])
    assert len(got) == 2 and got[0].thread == got[1].thread
    # and a description an unread set holds too is not learnt from
    assert learnt([{**one, "set": "commits1"}, {**twin, "set": "commits4"}]) == []
    # nor one of a set read but not fitted on
    for which in read_unfitted:
        assert learnt([{**one, "set": which}]) == []
    # the classifier's older fit (`extract.dev.fit`) reads none of them
    source = fit.__loader__.get_source(fit.__name__)
    assert "extract.dev.commits" not in source and "commits.jsonl" not in source
