"""fio (flexible I/O tester) reports: normal output, `--minimal` / terse lines and
`--output-format=json` (formats of fio's `stat.c`).

Recognises
- a job's normal report, from `randrw: (groupid=0, jobs=1): err= 0: pid=...`: direction
  lines `read: IOPS=4294, BW=16.8MiB/s (17.6MB/s)(33.6MiB/2001msec)` (fio 3) or `read :
  io=65536KB, bw=49152KB/s, iops=12288, runt= 1334msec` (fio 2), `slat`/`clat`/`lat
  (usec): min=.., max=.., avg=.., stdev=..`, `clat percentiles (usec):` with `| 99.00th=[
  3687], ...`, `bw (  KiB/s): min=.., per=..%, ...`, `iops : min=.., ...` and `cpu :
  usr=1.50%, sys=20.45%, ctx=5258, majf=0, minf=14`; latency buckets, IO depths,
  `issued rwts` and `latency :` lines, the job preamble (`randrw: (g=0): rw=...`,
  `fio-3.33`, `Starting 1 process`) and `Jobs: ... [eta ...]` are claimed without rows;
- `Run status group 0 (all jobs):` with `READ: bw=16.8MiB/s (17.6MB/s), ..., io=33.6MiB
  (35.2MB), run=2001-2001msec` (fio 2: `READ: io=.., aggrb=.., minb=.., maxb=.., mint=..,
  maxt=..`) and `Disk stats (read/write):` device lines;
- terse lines (`--minimal`, versions 2 to 5: `3;fio-3.33;job;0;0;<read>;<write>;...`);
- the JSON document of `--output-format=json` (from `{"fio version": ...`);
- also flattened, hard-wrapped, indented or quoted (terse lines only whole).

One table per job, run status group, disk, terse line and JSON document. Label = the
job (`group <N>`, a device); metrics `<dir>_iops`, `<dir>_bw`, `<dir>_io`,
`<dir>_runtime` (ms), `<dir>_<slat|clat|lat>_<min|max|avg|stdev>`, `<dir>_<kind>_p<P>`
(`99.90th` gives `p99_9`), `<dir>_bw_<min|max|avg|stdev>`, `<dir>_bw_pct_of_group`,
`<dir>_iops_<stat>`, `cpu_usr` ... `cpu_minf`; group rows `<dir>_bw[_min|_max]`,
`<dir>_io`, `<dir>_run_min|max`; disk rows `ios_read` ... `util`. Units as printed (terse
and JSON: `KiB`, `KiB/s`; latencies terse `us`, JSON `ns`). A direction with no I/O and
latency statistics with no samples give no rows.

Not declared as rows: a job's report nests per-direction lines (IOPS, bandwidth,
latencies, percentiles in brackets) under its header, beside group status lines, the
terse `;` form and JSON.
"""

from __future__ import annotations

import re

from extract.results.formats._layout import BLANKS, NUM, json_at, trimmed, within
from extract.results.formats._rows import chatter, json_numbers, name_blocks
from extract.results.formats.base import FormatInfo, Measurement, ResultTable

INFO = FormatInfo(
    name="fio",
    description="fio reports (normal, terse/--minimal, JSON)",
    signature="`job: (groupid=0, jobs=1): err= 0: pid=...`, `read: IOPS=4294, BW=16.8MiB/s "
    "(17.6MB/s)(33.6MiB/2001msec)`, `clat percentiles (usec):`, `Run status group 0 (all jobs):`, "
    '`3;fio-3.33;job;0;0;...`, `"fio version" : "fio-3.33"`',
    priority=10,
    kind="result",
    trigger=r"(?-i:\(groupid=\d+, jobs=\d+\)|Run status group \d|[2-5];fio-\d|\"fio version\""
    r"|\b2;[^;\s]+;\d+;\d+;)",
    needles=("(groupid=", "Run status group", ";fio-", '"fio version"', "2;"),
)

_SCALE = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}
_LAT_UNIT = {"nsec": "ns", "usec": "us", "msec": "ms"}
_DIRS = r"read|write|trim|mixed|sync"

# (a job's name is read from its first character only: a name tried from each of
# its characters made a line without blanks cost quadratic time)
_JOB = re.compile(
    r"(?<![^\s:])(?P<job>[^\s:]+):\s+\(groupid=(?P<g>\d+), jobs=\d+\):"
    r"\s+err=\s*\d+(?:\s+\([^)\n]*\))?:\s+pid=\d+(?::\s+\w{3}\s+\w{3}\s+\d+\s+\d\d:\d\d:\d\d\s+\d{4})?"
)
_PREAMBLE = re.compile(
    r"(?<![^\s:])[^\s:]+:\s+\(g=\d+\):\s+rw=\S+,\s+bs=\(R\)[^:]{0,200}?iodepth=\d+|fio-\d[\w.\-]*"
    r"|Starting\s+\d+\s+(?:processes|process|threads?)(?:\s+and\s+\d+\s+(?:processes|process))?"
    r"|(?<![^\s:])[^\s:]+:\s+Laying out IO files?\s+\([^()\n]*\)"
    r"|Jobs:\s+\d+\s+\([^()\n]*\):(?:\s*\[[^\]\n]*\])+"
)
_UNIT = r"[KMGTPE]?i?B"
_DIR_NEW = re.compile(
    rf"(?P<dir>{_DIRS}):\s+IOPS=(?P<iops>{NUM})(?P<iopsk>[kMG]?),\s+BW=(?P<bw>{NUM})"
    rf"(?P<bwu>{_UNIT}/s|[KMGTPE]?i?bit/s)\s+\([^)\n]*\)\s*\((?P<io>{NUM})(?P<iou>{_UNIT})"
    rf"/(?P<run>\d+)msec\)(?:;\s+\d+\s+zone\s+resets|;\s+Cachehit={NUM}%)?"
)
_DIR_OLD = re.compile(
    rf"(?P<dir>{_DIRS})\s*:\s+io=(?P<io>{NUM})(?P<iou>{_UNIT}),\s+bw=(?P<bw>{NUM})"
    rf"(?P<bwu>{_UNIT}/s|[KMGTPE]?i?bit/s),\s+iops=(?P<iops>{NUM})(?P<iopsk>[kKMG]?),"
    rf"\s+runt=\s*(?P<run>\d+)msec"
)
_LAT = re.compile(
    rf"(?<![\w(])(?P<kind>slat|clat|lat)\s+\((?P<u>nsec|usec|msec)\):\s+min=\s*(?P<min>{NUM})"
    rf"(?P<mink>[kKMG]?),\s+max=\s*(?P<max>{NUM})(?P<maxk>[kKMG]?),\s+avg=\s*(?P<avg>{NUM}),"
    rf"\s+stdev=\s*(?P<stdev>{NUM})"
)
_PCT_HEAD = re.compile(r"(?P<kind>slat|clat|lat)\s+percentiles\s+\((?P<u>nsec|usec|msec)\):")
_PCT = re.compile(rf"[\s|,]*(?P<p>{NUM})th=\[\s*(?P<v>\d+)\s*\]")
_BW = re.compile(
    rf"bw\s+\(\s*(?P<u>[KMGT]i?B|[kKMG]i?bit|kB)\s*/s\):\s+min=\s*(?P<min>\d+),\s+"
    rf"max=\s*(?P<max>\d+),\s+per=\s*(?P<per>{NUM})%,\s+avg=\s*(?P<avg>{NUM}),\s+"
    rf"stdev=\s*(?P<stdev>{NUM})(?:,\s+samples=\s*\d+)?"
)
_IOPS = re.compile(
    rf"iops\s*:\s+min=\s*(?P<min>\d+),\s+max=\s*(?P<max>\d+),\s+avg=\s*(?P<avg>{NUM}),"
    rf"\s+stdev=\s*(?P<stdev>{NUM})(?:,\s+samples=\s*\d+)?"
)
_CPU = re.compile(
    rf"cpu\s*:\s+usr=(?P<usr>{NUM})%,\s+sys=(?P<sys>{NUM})%,\s+ctx=(?P<ctx>\d+),"
    rf"\s+majf=(?P<majf>\d+),\s+minf=(?P<minf>\d+)"
)
# distributions and settings of a job: part of its block, no rows
_CLAIMED = re.compile(
    rf"lat\s+\((?:nsec|usec|msec)\)\s*:\s+(?:>=)?\d+=\s*{NUM}%(?:,\s+(?:>=)?\d+=\s*{NUM}%)*"
    rf"|IO\s+depths\s*:(?:\s+(?:>=)?\d+=\s*{NUM}%,?)+"
    rf"|(?:submit|complete)\s*:(?:\s+(?:>=)?\d+=\s*{NUM}%,?)+"
    rf"|issued\s+rwts?:\s+total=[\d,]+\s+short=[\d,]+\s+dropped=[\d,]+"
    rf"|issued\s*:\s+total=r=\d+/w=\d+(?:/d=\d+)?,\s+short=r=\d+/w=\d+(?:/d=\d+)?,"
    rf"\s+drop=r=\d+/w=\d+(?:/d=\d+)?"
    rf"|latency\s*:\s+target=\d+,\s+window=\d+,\s+percentile=\s*{NUM}%,\s+depth=\d+"
    rf"|Description\s*:\s+\[[^\]\n]*\]"
)
_GROUP = re.compile(r"Run status group (?P<g>\d+)\s+\(all\s+jobs\):")
_GROUP_NEW = re.compile(
    rf"(?P<dir>READ|WRITE|TRIM|MIXED):\s+bw=(?P<bw>{NUM})(?P<bwu>{_UNIT}/s|[KMGTPE]?i?bit/s)"
    rf"\s+\([^)\n]*\),\s+(?P<min>{NUM})(?P<minu>{_UNIT}/s|[KMGTPE]?i?bit/s)-(?P<max>{NUM})"
    rf"(?P<maxu>{_UNIT}/s|[KMGTPE]?i?bit/s)\s+\([^)\n]*\),\s+io=(?P<io>{NUM})(?P<iou>{_UNIT})"
    rf"\s+\([^)\n]*\),\s+run=(?P<rmin>\d+)-(?P<rmax>\d+)msec"
)
_GROUP_OLD = re.compile(
    rf"(?P<dir>READ|WRITE|TRIM|MIXED):\s+io=(?P<io>{NUM})(?P<iou>{_UNIT}),\s+"
    rf"aggrb=(?P<bw>{NUM})(?P<bwu>{_UNIT}/s),\s+minb=(?P<min>{NUM})(?P<minu>{_UNIT}/s),\s+"
    rf"maxb=(?P<max>{NUM})(?P<maxu>{_UNIT}/s),\s+mint=(?P<rmin>\d+)msec,\s+maxt=(?P<rmax>\d+)msec"
)
_DISK_HEAD = re.compile(r"Disk\s+stats\s+\(read/write\):")
_DISK = re.compile(
    rf"(?P<dev>[\w\-.]+):\s+ios=(?P<ios_read>\d+)/(?P<ios_write>\d+),"
    rf"(?:\s+sectors=(?P<sectors_read>\d+)/(?P<sectors_write>\d+),)?"
    rf"\s+merge=(?P<merge_read>\d+)/(?P<merge_write>\d+),\s+ticks=(?P<ticks_read>\d+)/"
    rf"(?P<ticks_write>\d+),\s+in_queue=(?P<in_queue>\d+),\s+util=(?P<util>{NUM})%"
    rf"(?:,\s+aggrios=\d+/\d+,(?:\s+aggsectors=\d+/\d+,)?\s+aggrmerge=\d+/\d+,"
    rf"\s+aggrticks=\d+/\d+,\s+aggrin_queue=\d+,\s+aggrutil={NUM}%)?"
)
_DISK_UNITS = {"ticks_read": "ms", "ticks_write": "ms", "in_queue": "ms", "util": "%"}
_TERSE = re.compile(r"(?<![\w;.])(?:[345];fio-\d[^;\s]*|2);[^;\s]+;\d+;\d+(?:;[^;\s]*)+")
_JSON_START = re.compile(r'\{\s*"fio version"\s*:')
# a shell command line (`$ fio --name=x ...`, `fio job.fio`) above the output names no variant
_COMMAND = re.compile(r"^[^\n]{0,40}?\bfio\s(?:[^\n]*\s)?(?:--?[A-Za-z]|\S+\.fio\b)")


_STATS = ("min", "max", "avg", "stdev")


def _table(start: int, end: int, label: str, columns: list[str]) -> ResultTable:
    return ResultTable(format=INFO.name, span=(start, end), columns=columns, caption=label)


def _add(table: ResultTable, cells: list[str], found, end: int | None = None) -> None:
    """A row of the table's numbers `found`, (metric, number as written, unit[, scale]),
    labelled by its caption; the table's span reaching `end` at least."""
    table.add_row(cells, [
        Measurement(metric, float(value) * (scale[0] if scale else 1.0), unit, table.caption,
                    None, value)
        for metric, value, unit, *scale in found
    ])  # fmt: skip
    if end is not None:
        _extend(table, end)


def _extend(table: ResultTable, end: int) -> None:
    table.span = (table.span[0], max(table.span[1], end))


def _job(text: str, head: re.Match, end: int) -> ResultTable:
    t = _table(head.start(), head.end(), head["job"], ["field", "value", "unit"])
    pos = head.end()
    direction = "read"
    while (pos := BLANKS.match(text, pos).end()) < end:
        if m := (_DIR_NEW.match(text, pos, end) or _DIR_OLD.match(text, pos, end)):
            direction = d = m["dir"]
            found = [
                (f"{d}_iops", m["iops"], "IOPS", _SCALE[m["iopsk"]]),
                (f"{d}_bw", m["bw"], m["bwu"]), (f"{d}_io", m["io"], m["iou"]),
                (f"{d}_runtime", m["run"], "ms"),
            ]  # fmt: skip
        elif m := _LAT.match(text, pos, end):
            k, unit = f"{direction}_{m['kind']}", _LAT_UNIT[m["u"]]
            found = [
                (f"{k}_min", m["min"], unit, _SCALE[m["mink"]]),
                (f"{k}_max", m["max"], unit, _SCALE[m["maxk"]]),
                (f"{k}_avg", m["avg"], unit), (f"{k}_stdev", m["stdev"], unit),
            ]  # fmt: skip
        elif m := _PCT_HEAD.match(text, pos, end):
            k, unit = f"{direction}_{m['kind']}", _LAT_UNIT[m["u"]]
            _extend(t, m.end())
            pos = m.end()
            while (p := _PCT.match(text, pos, end)) is not None:
                _add(t, [p["p"] + "th", p["v"]], [(f"{k}_p{trimmed(p['p'], '_')}", p["v"], unit)],
                     p.end())  # fmt: skip
                pos = p.end()
            continue
        elif m := _BW.match(text, pos, end):
            k, unit = f"{direction}_bw", m["u"] + "/s"
            found = [
                (f"{k}_min", m["min"], unit), (f"{k}_max", m["max"], unit),
                (f"{k}_pct_of_group", m["per"], "%"), (f"{k}_avg", m["avg"], unit),
                (f"{k}_stdev", m["stdev"], unit),
            ]  # fmt: skip
        elif m := _IOPS.match(text, pos, end):
            found = [(f"{direction}_iops_{c}", m[c], "IOPS") for c in _STATS]
        elif m := _CPU.match(text, pos, end):
            found = [
                ("cpu_usr", m["usr"], "%"), ("cpu_sys", m["sys"], "%"),
                ("cpu_ctx", m["ctx"], "count"), ("cpu_majf", m["majf"], "count"),
                ("cpu_minf", m["minf"], "count"),
            ]  # fmt: skip
        elif m := _CLAIMED.match(text, pos, end):  # (no numbers)
            _extend(t, m.end())
            pos = m.end()
            continue
        else:
            break
        _add(t, [m.group(0)], found, m.end())
        pos = m.end()
    return t


def _group(text: str, head: re.Match) -> ResultTable:
    t = _table(head.start(), head.end(), f"group {head['g']}", ["field", "value", "unit"])
    pos = head.end()
    while m := _GROUP_NEW.match(text, at := BLANKS.match(text, pos).end()) or _GROUP_OLD.match(
        text, at
    ):
        d = m["dir"].lower()
        _add(t, [m.group(0)], [
            (f"{d}_bw", m["bw"], m["bwu"]), (f"{d}_bw_min", m["min"], m["minu"]),
            (f"{d}_bw_max", m["max"], m["maxu"]), (f"{d}_io", m["io"], m["iou"]),
            (f"{d}_run_min", m["rmin"], "ms"), (f"{d}_run_max", m["rmax"], "ms"),
        ], m.end())  # fmt: skip
        pos = m.end()
    return t


def _disks(text: str, head: re.Match) -> list[ResultTable]:
    tables = []
    pos = head.end()
    first = True
    while m := _DISK.match(text, BLANKS.match(text, pos).end()):
        t = _table(head.start() if first else m.start(), m.end(), m["dev"], ["field", "value"])
        found = [
            (key, m[key], _DISK_UNITS.get(key, "count"))
            for key in _DISK.groupindex
            if key != "dev" and m[key] is not None
        ]
        _add(t, [m.group(0)], found)
        tables.append(t)
        pos, first = m.end(), False
    return tables


def _terse(line: re.Match) -> ResultTable | None:
    f = line.group(0).split(";")
    if f[0] == "2":
        ver, name, rest = 2, f[1], f[4:]
    else:
        ver, name, rest = int(f[0]), f[2], f[5:]
    dirs = ("read", "write") if ver == 3 else ("read", "write", "trim")
    per = 47 if ver == 5 else 41
    if len(rest) < per * len(dirs) + 5:
        return None
    t = _table(line.start(), line.end(), name, ["field", "value"])
    for i, d in enumerate(dirs):
        x = rest[i * per : (i + 1) * per]
        try:
            if float(x[3]) == 0:
                continue  # no I/O in this direction
            found = [
                (f"{d}_io", x[0], "KiB"), (f"{d}_bw", x[1], "KiB/s"),
                (f"{d}_iops", x[2], "IOPS"), (f"{d}_runtime", x[3], "ms"),
            ]  # fmt: skip
            for j, kind in ((4, "slat"), (8, "clat"), (32, "lat")):
                if any(float(v) for v in x[j : j + 4]):
                    found += [(f"{d}_{kind}_{s}", x[j + n], "us") for n, s in enumerate(_STATS)]
            for cell in x[12:32]:
                p, _, v = cell.partition("%=")
                if float(p):
                    found.append((f"{d}_clat_p{trimmed(p, '_')}", v, "us"))
            found += [
                (f"{d}_bw_min", x[36], "KiB/s"), (f"{d}_bw_max", x[37], "KiB/s"),
                (f"{d}_bw_pct_of_group", x[38].rstrip("%"), "%"),
                (f"{d}_bw_avg", x[39], "KiB/s"), (f"{d}_bw_stdev", x[40], "KiB/s"),
            ]  # fmt: skip
            if ver == 5:
                found += [(f"{d}_iops_{s}", x[42 + n], "IOPS") for n, s in enumerate(_STATS)]
            for _, v, _ in found:
                float(v)
        except (ValueError, IndexError):
            return None
        _add(t, [d], found)
    cpu = rest[per * len(dirs) : per * len(dirs) + 5]
    try:
        _add(t, ["cpu"], [
            ("cpu_usr", cpu[0].rstrip("%"), "%"), ("cpu_sys", cpu[1].rstrip("%"), "%"),
            ("cpu_ctx", cpu[2], "count"), ("cpu_majf", cpu[3], "count"),
            ("cpu_minf", cpu[4], "count"),
        ])  # fmt: skip
    except ValueError:
        return None
    return t


_JSON_STATS = (("min", "min"), ("max", "max"), ("avg", "mean"), ("stdev", "stddev"))
_JSON_DIR = (
    ("bw_min", "bw_min", "KiB/s"),
    ("bw_max", "bw_max", "KiB/s"),
    ("bw_pct_of_group", "bw_agg", "%"),
    ("bw_avg", "bw_mean", "KiB/s"),
    ("bw_stdev", "bw_dev", "KiB/s"),
    ("iops_min", "iops_min", "IOPS"),
    ("iops_max", "iops_max", "IOPS"),
    ("iops_avg", "iops_mean", "IOPS"),
    ("iops_stdev", "iops_stddev", "IOPS"),
)
_JSON_CPU = (
    ("cpu_usr", "usr_cpu", "%"),
    ("cpu_sys", "sys_cpu", "%"),
    ("cpu_ctx", "ctx", "count"),
    ("cpu_majf", "majf", "count"),
    ("cpu_minf", "minf", "count"),
)
_JSON_DISK = (
    "read_ios", "write_ios", "read_merges", "write_merges",
    "read_ticks", "write_ticks", "in_queue", "util",
)  # fmt: skip
_JSON_DISK_UNITS = {"util": "%", "read_ticks": "ms", "write_ticks": "ms", "in_queue": "ms"}


def _json(text: str, start: re.Match) -> ResultTable | None:
    """One table for the document: a row per job and direction, per job's CPU, per disk."""
    if (found := json_at(text, start.start())) is None:
        return None
    doc, end = found
    if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), list):
        return None
    table = ResultTable(format=INFO.name, span=(start.start(), end), columns=["field", "value"])
    for job in doc["jobs"]:
        if not isinstance(job, dict):
            continue
        for d in ("read", "write", "trim", "mixed"):
            s = job.get(d)
            if not isinstance(s, dict) or not s.get("io_bytes"):
                continue
            rows = [
                (f"{d}_io", s.get("io_kbytes"), "KiB"),
                (f"{d}_bw", s.get("bw"), "KiB/s"),
                (f"{d}_iops", s.get("iops"), "IOPS"),
                (f"{d}_runtime", s.get("runtime"), "ms"),
            ]
            for kind in ("slat", "clat", "lat"):
                st = s.get(f"{kind}_ns")
                if not isinstance(st, dict) or not st.get("N"):
                    continue
                rows += [(f"{d}_{kind}_{name}", st.get(key), "ns") for name, key in _JSON_STATS]
                for p, v in (st.get("percentile") or {}).items():
                    rows.append((f"{d}_{kind}_p{trimmed(p, '_')}", v, "ns"))
            rows += [(f"{d}_{name}", s.get(key), unit) for name, key, unit in _JSON_DIR]
            _json_row(table, job.get("jobname", ""), [d], rows)
        cpu = [(name, job.get(key), unit) for name, key, unit in _JSON_CPU]
        _json_row(table, job.get("jobname", ""), ["cpu"], cpu)
    for disk in doc.get("disk_util") or []:
        if isinstance(disk, dict):
            rows = [(k, disk.get(k), _JSON_DISK_UNITS.get(k, "count")) for k in _JSON_DISK]
            _json_row(table, disk.get("name", ""), ["disk", str(disk.get("name", ""))], rows, True)
    return table


def _json_row(table, label, cells: list[str], rows, always: bool = False) -> None:
    """A row of the numbers among `rows` (metric, JSON value, unit), labelled `label`;
    none: no row, unless `always`."""
    if (keep := json_numbers(rows, str(label))) or always:
        table.add_row(cells, keep)


def parse(text: str) -> list[ResultTable]:
    tables: list[ResultTable] = []
    for start in _JSON_START.finditer(text):
        if within(start.start(), (t.span for t in tables)):
            continue
        if (t := _json(text, start)) is not None:
            tables.append(t)
    taken = [t.span for t in tables]
    free = lambda m: not within(m.start(), taken)  # noqa: E731
    heads = [m for m in _JOB.finditer(text) if free(m)] if "(groupid=" in text else []
    groups = [m for m in _GROUP.finditer(text) if free(m)]
    disks = [m for m in _DISK_HEAD.finditer(text) if free(m)]
    bounds = sorted([m.start() for m in heads + groups + disks] + [len(text)])
    for head in heads:
        end = next(b for b in bounds if b > head.start())
        tables.append(_job(text, head, end))
    for g in groups:
        if (t := _group(text, g)).measurements:
            tables.append(t)
    for d in disks:
        tables += _disks(text, d)
    for line in _TERSE.finditer(text):
        if free(line) and (t := _terse(line)) is not None:
            tables.append(t)
    if not tables:
        return []
    tables += chatter(_PREAMBLE, text, tables, starts_in=True)
    tables.sort(key=lambda t: t.span)
    # a block right after another is the next of the same output (fio prints `...` under
    # a job of numjobs > 1); a `fio --name=...` command line above one names nothing
    name_blocks(tables, text, "block", _COMMAND.match, _same_output)
    return tables


def _same_output(text: str, end: int, start: int) -> bool:
    return not text[end:start].replace("...", "").strip()
