"""system-monitor (noise): a system's state as top, ps, vmstat, iostat, free and df
print it, pasted to show what is wrong. The fixtures are written from the tools' manual
pages; the recogniser claims each table with its rows and top's summary lines, so that
no process id, size, counter or load reads as a measurement, and leaves the sentences
around them to the readers."""

from __future__ import annotations

from extract.results.formats import by_name
from extract.results.message import message_results
from tests.formats.golden import claimed_text, rows_of, text_of

PARSER = by_name("system-monitor")


def test_top_s_summary_and_task_table_and_vmstat_are_claimed():
    text = text_of("system-monitor--top-and-vmstat")
    claimed = claimed_text(PARSER, text)
    for line in ("load average: 11.82", "Tasks: 318 total", "%Cpu(s): 91.4 us",
                 "MiB Swap:", "1188.4  25.2", "88:12.07 containerd", "---swap--",
                 " r  b   swpd", "92  4  4  0  0"):  # fmt: skip
        assert line in claimed, line
    assert "Nothing else runs" not in claimed and "vmstat 2 3" not in claimed
    assert rows_of(text) == []
    assert not message_results(text, kind="mail", gated=False).verdict.is_benchmark


def test_iostat_free_and_df_are_claimed():
    text = text_of("system-monitor--iostat-free-df")
    claimed = claimed_text(PARSER, text)
    for line in ("%iowait", "41.77", "wkB/s", "15680.00", "buff/cache", "Swap:", "3880",
                 "Use% Mounted on", "201G  95% /data"):  # fmt: skip
        assert line in claimed, line
    assert "$ free -m" not in claimed and "$ df -h" not in claimed
    assert rows_of(text) == []


def test_the_results_beside_a_snapshot_are_left_to_the_readers():
    text = text_of("system-monitor--report-beside-it")
    assert "1402:33" in claimed_text(PARSER, text)
    assert {41.0, 63.0, 88.0, 31.0} == {r["value"] for r in rows_of(text)}
    assert message_results(text, kind="mail", gated=False).verdict.is_benchmark


def test_a_table_ends_at_a_blank_line_a_fence_or_a_line_without_a_number():
    text = (
        "```\nFilesystem      Size  Used Avail Use% Mounted on\n/dev/sda1  100G  12G  88G  12% /\n"
        "```\nThe import took 14.2 s.\n\n"
        "Device            r/s     w/s\nsda  1.00  2.00\n"
        "so the disk is idle while 3 runs took 9 s\n"
    )
    claimed = claimed_text(PARSER, text)
    assert "/dev/sda1" in claimed and "sda  1.00" in claimed
    assert "14.2" not in claimed and "idle" not in claimed


def test_a_process_row_is_judged_on_its_columns_not_its_command_line():
    # (`ps aux` prints the whole command line after COMMAND: its arguments are words)
    text = (
        "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n"
        "cassand+    3127  612 38.1 52811224 25012332 ?   Sl   09:12 1402:33 /usr/bin/java "
        "-Xms31G -Xmx31G -XX:+UseG1GC -XX:MaxGCPauseMillis=500 -Dcassandra.config=file:///etc "
        "-cp /usr/share/cassandra/lib/* org.apache.cassandra.service.CassandraDaemon\n"
    )
    assert "1402:33" in claimed_text(PARSER, text)
