"""fio: fixtures from the real tool (tests/fixtures/tools/fio.sh: normal output, two
jobs, --minimal, --output-format=json), one written from the fio 2.2 source, and focused
cases."""

from __future__ import annotations

from extract.results.formats import by_name
from tests.formats.golden import rows_of, text_of

PARSE = by_name("fio").parse


def _values(rows: list[dict]) -> list[tuple]:
    return sorted((r["label"], r["metric"], r["value"], r["unit"]) for r in rows)


def test_wrapped_and_flattened_copies_of_one_run_give_the_same_rows():
    wrapped = rows_of(text_of("fio--randread-wrapped"))
    flat = rows_of(text_of("fio--randread-flattened"))
    assert _values(wrapped) == _values(flat)
    assert {r["variant"] for r in wrapped} == {"On the new NVMe box"}
    assert {r["variant"] for r in flat} == {"fio after the fix"}
    metrics = {r["metric"] for r in flat}
    assert {"read_iops", "read_clat_p99_99", "read_bw_avg", "cpu_sys"} <= metrics
    assert not [m for m in metrics if m.startswith("write_")]


def test_direction_line_units_and_suffixes():
    text = (
        "job1: (groupid=0, jobs=1): err= 0: pid=1: Wed Dec  2 00:46:43 2026\n"
        "  read: IOPS=12.3k, BW=48.0MiB/s (50.3MB/s)(1440MiB/30001msec)\n"
        "    clat (nsec): min=1980, max=12345k, avg=8123.45, stdev=401.20\n"
    )
    got = {m.metric: (m.value, m.unit) for t in PARSE(text) for m in t.measurements}
    assert got["read_iops"] == (12300.0, "IOPS")
    assert got["read_bw"] == (48.0, "MiB/s")
    assert got["read_io"] == (1440.0, "MiB")
    assert got["read_runtime"] == (30001.0, "ms")
    assert got["read_clat_max"] == (12345000.0, "ns")


def test_a_job_name_is_read_whole_from_its_first_character():
    # (read from a name's start only, so a line without blanks costs linear time)
    name = "seq-read-" + "x" * 70
    text = f"{name}: (groupid=0, jobs=1): err= 0: pid=1\n" + (
        "  read: IOPS=5, BW=1MiB/s (1MB/s)(1MiB/1msec)\n"
    )
    assert {m.label for t in PARSE(text) for m in t.measurements} == {name}


def test_two_jobs_and_their_group():
    rows = rows_of(text_of("fio--two-jobs-gitbox-crlf"))
    assert {r["label"] for r in rows} >= {"seqread", "seqwrite", "group 0"}
    group = {r["metric"] for r in rows if r["label"] == "group 0"}
    assert {"read_bw", "write_bw", "read_run_max", "write_io"} <= group


def test_terse_lines_skip_directions_without_io():
    rows = rows_of(text_of("fio--minimal"))
    by_job = {}
    for r in rows:
        by_job.setdefault(r["label"], set()).add(r["metric"].split("_")[0])
    assert by_job == {"randwrite": {"write", "cpu"}, "seqread": {"read", "cpu"}}
    assert {r["unit"] for r in rows if r["metric"].endswith("_bw")} == {"KiB/s"}


def test_terse_version_2_and_5_field_layouts():
    def terse(ver: int) -> str:
        per = (
            [
                "4096",
                "2048",
                "512",
                "2000",
                "0",
                "0",
                "0.000000",
                "0.000000",
                "10",
                "900",
                "50.000000",
                "12.000000",
            ]
            + ["50.000000%=48"]
            + ["0%=0"] * 19
        )
        per += ["11", "901", "51.000000", "12.500000", "1900", "2100", "100.000000%",
                "2048.000000", "30.000000"]  # fmt: skip
        if ver == 5:
            per += ["4", "480", "530", "512.000000", "7.000000", "4"]
        zero = ["0"] * len(per)
        head = ["2", "job"] if ver == 2 else [str(ver), "fio-3.33", "job"]
        fields = head + ["0", "0"] + per + zero + zero + ["1.5%", "9.5%", "100", "0", "12"]
        return ";".join(fields + ["100.0%"] * 7)

    for ver in (2, 5):
        (table,) = PARSE(terse(ver) + "\n")
        got = {m.metric: m.value for m in table.measurements}
        assert got["read_bw"] == 2048 and got["read_clat_p50"] == 48
        assert got["cpu_sys"] == 9.5 and "write_bw" not in got
        assert ("read_iops_avg" in got) == (ver == 5)


def test_json_document_in_a_fence():
    rows = rows_of(text_of("fio--json-fenced"))
    got = {r["metric"]: r["unit"] for r in rows if r["label"] == "jsonread"}
    assert got["read_clat_p99"] == "ns" and got["read_bw"] == "KiB/s" and got["read_iops"] == "IOPS"
    assert "read_slat_min" not in got  # no slat samples
    assert {r["label"] for r in rows} - {"jsonread"}  # the disk_util entry


def test_fio_2_forms():
    rows = rows_of(text_of("fio--v2-written"))
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in rows}
    assert got[("randread", "read_bw")] == (49152.0, "KB/s")
    assert got[("randread", "read_bw_avg")] == (49152.0, "KB/s")
    assert got[("group 0", "read_run_max")] == (1334.0, "ms")
    assert got[("sda", "util")] == (89.5, "%")


ODD = ["", "x: (groupid=0, jobs=1): err= 0: pid=1", "  read: IOPS=1, BW=", "Run status group 0",
       "3;fio-3.33;a;0;0;1;2", "2;a;0;0;1;2;3", '{"fio version" : "fio-3.33", "jobs": [{',
       "{" * 500,
       '{"fio version": 1, "jobs": [1, {"read": 5}, {"read": {"io_bytes": "x"}}]}',
       "\x00\ufffd"]  # fmt: skip


def test_parse_survives_odd_input():
    for text in ODD:
        assert isinstance(PARSE(text), list)


def test_jira_noformat_block_keeps_the_heading_above_it():
    text = "Results on the test box:\n\n{noformat}\n" + text_of("fio--randrw") + "{noformat}\n"
    assert {r["variant"] for r in rows_of(text)} == {"Results on the test box"}
