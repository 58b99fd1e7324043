"""The message's own text: `clean_body(text, kind)` returns the decoded body without
quoted replies, "On ... wrote:" headers, the quoted JIRA issue block, the JIRA,
GitBox and list footers, notification headers, and the old version of an edited
JIRA comment.

Pure function, also called by the classifier and `make eval`. It works on text as
mail gives it and on whitespace-flattened text (web archives that collapse every
line break), so every marker below is matched with `\\s+` rather than `\\n`.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate

# Everything from one of these markers to the end is boilerplate or old text. Each
# marker comes with a plain substring that every match contains (lower-case for the
# case-insensitive marker): the regex runs only when it is present, and only from
# _MARKER_REACH characters before its first occurrence, since Python's regex engine
# tries every position of a long body (diffs, logs) one by one.
_CUT_REST = [
    # JIRA footer: "--\nThis message was sent by Atlassian JIRA\n(v6.3.15#6346)".
    ("Atlassian", re.compile(r"(?:^|\s)--\s*This message was sent by Atlassian (?:JIRA|Jira)\b")),
    # GitBox footer, 2018-2022 (64 dashes) and 2022+ ("-- " signature line).
    (
        "Apache Git Service",
        re.compile(
            r"(?:(?:^|\s)-{2,}\s*)?This is an automated message from the Apache Git Service\."
        ),
    ),
    # ASF list footer (ezmlm): a dashed line, then "To unsubscribe, e-mail: ...".
    ("To unsubscribe", re.compile(r"(?:(?:^|\s)-{10,}\s*)?(?:^|\s)To unsubscribe, e-mail:\s")),
    # An edited JIRA comment repeats its previous version after this line.
    ("was (Author:", re.compile(r"(?:^|\s)was \(Author: [^)\n]{1,100}\):")),
    # The JIRA issue block quoted under every comment mail: "> Summary\n> ---\n>\n> Key:".
    ("Key:", re.compile(r"(?:^|\s)>[ \t]*[^\n>]{1,300}\s+>[ \t]*-{3,}\s+>\s*(?:>\s*)?Key:\s")),
    # The signature's separator (RFC 3676, 4.3: `-- ` alone on its line): after it, the
    # sender's signature (a title, an address, phone numbers), or the quoted message.
    ("\n-- \n", re.compile(r"\n-- \n")),
    # A JIRA work-log mail's time tracking after the work's description: the hours the
    # issue took so far (`Time Spent: 1h 20m  (was: 1h 10m)`), bookkeeping.
    ("Issue Time Tracking", re.compile(r"(?:^|\n)[ \t]*Issue Time Tracking[ \t]*\n[ \t]*-{3,}")),
    # Outlook-style reply: the quoted original follows.
    ("original message", re.compile(r"^-{3,} ?Original Message ?-{3,}\s*$", re.M | re.I)),
    # The same in Chinese mail clients (Foxmail, QQ Mail): `------ 原始邮件 ------`.
    ("原始邮", re.compile(r"^[ \t]*-{3,} ?原始邮件 ?-{3,}[ \t]*$", re.M)),
    # Outlook's reply without that line: the original's header block, its subject a
    # reply's (a forwarded message, `FW:`, is kept).
    (
        "Subject:",
        re.compile(
            r"^[ \t]*\*?From:\*?[ \t][^\n]{1,200}\n(?:[ \t]*\*?(?:Sent|Date|To|Cc):\*?[ \t]"
            r"[^\n]{0,300}\n){1,4}[ \t]*\*?Subject:\*?[ \t]*(?:RE|Re|AW|SV|回复|答复)[ \t]*[:：]",
            re.M,
        ),
    ),
]
# How far before its substring a match may start: the dashed lines and blank lines
# that some markers include before it are far shorter in real mail.
_MARKER_REACH = 1000
_IGNORES_CASE = [bool(marker.flags & re.I) for _, marker in _CUT_REST]

# "[ https://issues.apache.org/jira/browse/KEY-1?page=...#comment-1 ]" then
# "Todd Lipcon commented on KUDU-1930:" and its dashed underline.
_JIRA_HEADER = re.compile(
    r"^\s*\[\s*https?://issues\.apache\.org/jira/browse/\S+\s*\]\s*"
    r"(?:[^\n]{1,200}?\s(?:commented on|edited comment on|created|updated|logged work on"
    r"|resolved|reopened|closed|assigned)\s[A-Z][A-Z0-9_]+-\d+[^\n]{0,80}?:\s*-{3,})?",
)
# (`\s*+`: giving back leading blanks one by one, each time retrying the 200-character
# name, took seconds on a body of a million blanks)
_JIRA_ACTOR_LINE = re.compile(
    r"^\s*+[^\n]{1,200}?\s(?:commented on|edited comment on|created|updated|logged work on)"
    r"\s[A-Z][A-Z0-9_]+-\d+[^\n]{0,80}?:[ \t]*\n-{3,}[ \t]*\n"
)
# A JIRA `created` mail opens with the new issue's fields (`Summary:`, `Key: KEY-N`,
# `Project:`, `Affects Versions: 3.6.0`, `Reporter:`, ...), its description after them.
# (a field's line: a capitalised name of a few words, a colon, its value)
_FIELD = r"[ \t]*+[A-Z][A-Za-z ]{0,30}:[^\n]*+\n"
_JIRA_FIELDS = re.compile(
    rf"\s*+(?:{_FIELD})*?[ \t]*+Key:[ \t]++[A-Z][A-Z0-9_]*+-\d++[ \t]*+\n(?:{_FIELD})*+"
)
# A JIRA work-log mail (`ASF GitHub Bot logged work on KEY-N:`) opens with the log's
# fields, the last of them the work's description (most often a GitHub comment, as the
# GitHub mail has it, `X commented on PR #N:` and `URL: ...`): the fields are not text.
_JIRA_WORKLOG_FIELDS = re.compile(
    r"\s*+Author:[^\n]*+\n(?:[ \t]*+(?:Created on|Start Date|Worklog Time Spent|Remaining"
    r" Estimate):[^\n]*+\n)*+(?:[ \t]*+Work Description:[ \t]*+)?"
)
# A Bugzilla mail (the bugs@ and dev@ lists of projects that track bugs in Bugzilla):
# the bug's URL, then a new bug's fields (`Bug ID: 56279`, `Summary:`, `Product:`, ...,
# `Reporter:`) or who changed what (`What |Removed |Added` over its rows), then the
# comment under `--- Comment #3 from X ---`, or an attachment's note (`Created
# attachment 31396`, `--> URL`, its title). None of that is what the person wrote.
_BUGZILLA_URL = re.compile(r"\s*+https?://\S+/show_bug\.cgi\?id=\d++[ \t]*+\n")
_BUGZILLA_FIELDS = re.compile(
    rf"\s*+(?:{_FIELD})*?[ \t]*+Bug ID:[ \t]*+\d++[ \t]*+\n(?:{_FIELD})*+"
)
_BUGZILLA_CHANGES = re.compile(
    r"\s*+[^\n]{1,200}? changed:\n\s*+What[ \t]*+\|[ \t]*+Removed[ \t]*+\|[ \t]*+Added[^\n]*+\n"
    r"-{20,}+\n(?:[^\n|]*+\|[^\n]*+\n)*+"
)
_BUGZILLA_NOTES = re.compile(
    r"^--- Comment #\d++ from [^\n]{1,200}? ---[ \t]*+\n"
    r"|^Created attachment \d++\n[ \t]*+--> \S++\n[^\n]*+\n",
    re.M,
)


def _without_bugzilla_header(body: str) -> str:
    """A Bugzilla mail's body without its bug's URL, fields or changes, and notes."""
    if (url := _BUGZILLA_URL.match(body)) is None:
        return body
    body = body[url.end() :]
    head = _BUGZILLA_FIELDS.match(body) or _BUGZILLA_CHANGES.match(body)
    if head is not None:
        body = body[head.end() :]
    return _BUGZILLA_NOTES.sub("", body)


# "apache9 commented on pull request #1858:" / "X commented on PR #3644:" then "URL: ...".
_GITHUB_HEADER = re.compile(
    r"^\s*\S{1,100}\s(?:commented on|opened|merged|closed|edited a comment on|removed a comment on"
    r"|opened a new|commented on a change in|commented on code in)[^\n]{0,200}?#\d+:?"
    r"[^\n]{0,300}?\s*URL:\s*\S+[ \t]*\n?",
)
# "On Tue, 3 Mar 2020 at 10:01, Jane <j@x.org> wrote:" possibly wrapped on two lines.
_WROTE = re.compile(r"^[ \t]*On\s[^\n]{0,300}(?:\n[^\n>]{0,200})?\bwrote:[ \t]*$", re.M)
# What follows an attribution line: its first line that is not blank.
_NEXT_TEXT_LINE = re.compile(r"\n*+[ \t]*+(\S)")


# A quotation under its attribution line (`On Mon, ... Jane wrote:`, `@bob commented:`,
# the CJK `写道：`): its `>` lines are the quoted message's, however long (a mail client
# that does not wrap sends each paragraph as one line; that is not a flattened reply,
# whose quotation no attribution introduces). Matched from the attribution's word on.
_QUOTATION_UNDER = re.compile(r"[ \t]*[:：](?:[ \t]*+\n)++[ \t]*+(?:>[^\n]*+(?:\n[ \t]*+(?=>))?)++")
# (as mail clients write them: `str.find` for each is faster than a case-blind search)
_ATTRIBUTION_WORDS = ("wrote", "Wrote", "WROTE", "commented", "Commented", "写道")


# A commit mail is the output of `git log --stat -p` (ASF's git-multimail): each
# commit's header lines (`commit <sha>`, `Author:`, `AuthorDate:`, ...), its message
# indented four blanks, then `---`, the files' stat and the diff. What its author wrote
# is the message, and the files the diff adds (a results file: the code's hunks are
# left out later, by `extraction_text`); the push's boilerplate, the commit's header
# lines and the stat are not. (git-wip-us, before 2019: the message between `Updated
# Branches:` and `Project: <url>`, then its diff; svn: the message after `Log:`, then
# the changed files. Found with str.find: a lazy regex would scan to the end from
# each of its openers.)
_COMMIT_HEADER = re.compile(
    r"(?m)^commit [0-9a-f]{7,40}[ \t]*\n(?:[A-Za-z][\w ]{0,30}:[^\n]*\n)*+\n"
)
_COMMIT_MESSAGE = re.compile(r"(?:[ \t]*\n|    [^\n]*\n)*+")
_DIFF_START = re.compile(r"(?m)^diff --git ")
_WIP_START = "Updated Branches:"
_WIP_END = "\nProject: http"
_SVN_START = "Log:\n"
_SVN_ENDS = ("\n\nModified:", "\n\nAdded:", "\n\nDeleted:", "\n\nRemoved:")


def _between(
    body: str, start: str, ends: tuple[str, ...], skip_indented: bool
) -> tuple[int, int] | None:
    """Where the text after the line `start` opens is (and after the indented lines
    under it, with `skip_indented`), up to the first of `ends`, or to the end with no
    `ends` there; None when no line opens with `start`."""
    at = body.find(start)
    while at > 0 and body[at - 1] != "\n":
        at = body.find(start, at + 1)
    if at < 0:
        return None
    pos = body.find("\n", at)
    pos = len(body) if pos < 0 else pos + 1
    while skip_indented and body.startswith((" ", "\t"), pos):
        nxt = body.find("\n", pos)
        pos = len(body) if nxt < 0 else nxt + 1
    found = [e for end in ends if (e := body.find(end, pos)) >= 0]
    if found:
        return pos, min(found)
    return None if skip_indented else (pos, len(body))


def commit_text(body: str) -> str:
    """The messages of a commit mail's commits (dedented), then its diff (from its first
    `diff --git` line; svn's: its file lists on); `body` itself when it has none of the
    commit mails' layouts."""
    messages, rest = [], ""
    for head in _COMMIT_HEADER.finditer(body):
        lines = _COMMIT_MESSAGE.match(body, head.end()).group().split("\n")
        messages.append("\n".join(line[4:] if line.startswith("    ") else "" for line in lines))
    if not messages:
        if wip := _between(body, _WIP_START, (_WIP_END,), skip_indented=True):
            messages.append(body[slice(*wip)])
        elif svn := _between(body, _SVN_START, _SVN_ENDS, skip_indented=False):
            messages.append(body[slice(*svn)])
            rest = body[svn[1] :]
    if not messages:
        return body
    if not rest and (diff := _DIFF_START.search(body)) is not None:
        rest = body[diff.start() :]
    text = "\n\n".join(m.strip("\n") for m in messages if m.strip())
    return f"{text}\n\n{rest.strip(chr(10))}" if rest.strip() else text


# A GitHub review comment's mail shows the code it is on before it (ASF's notifier:
# `##########` / `path/to/File.java:` / `##########` / the diff hunk / a blank line /
# `Review Comment:`; before 2022 `File path: <path>` and `Review comment:`), one such
# block a comment, collated. The hunk is the code's, not what the reviewer wrote.
_REVIEW_RULE = "##########"
_REVIEW_TITLES = ("Review Comment:", "Review comment:")


def _without_review_diffs(body: str) -> str:
    """`body` without the diff blocks above its review comments."""
    out, kept, at = [], 0, 0  # (text before `kept` is dealt with; search from `at`)
    while (start := body.find(_REVIEW_RULE, at)) >= 0:
        at = start + len(_REVIEW_RULE)
        # (the rule is a line of its own, and a second one closes the file's line)
        rule_end = body.find("\n", start)
        path_end = body.find("\n", rule_end + 1) if rule_end >= 0 else -1
        if (
            path_end < 0
            or (start and body[start - 1] != "\n")
            or body[start:rule_end].strip() != _REVIEW_RULE
            or not body.startswith(_REVIEW_RULE, path_end + 1)
        ):
            continue
        ends = [e for title in _REVIEW_TITLES if (e := body.find(title, path_end)) >= 0]
        if not ends:
            break  # (no comment after it: the rest is left as it is)
        out.append(body[kept:start])
        line_end = body.find("\n", min(ends))
        kept = at = len(body) if line_end < 0 else line_end + 1
    out.append(body[kept:])
    return "".join(out)


def _without_attributed_quotations(body: str) -> str:
    """`body` without each attribution line and the `>` lines it introduces. (The
    attribution's words are found with `str.find`: a regex that looked for them from
    every line start cost ~0.4 ms for a message of a few kB.)"""
    spans = []
    for word in _ATTRIBUTION_WORDS:
        at = body.find(word)
        while at >= 0:
            if at == 0 or not body[at - 1].isalnum():
                m = _QUOTATION_UNDER.match(body, at + len(word))
                if m is not None:
                    spans.append((body.rfind("\n", 0, at) + 1, m.end()))
            at = body.find(word, at + 1)
    if not spans:
        return body
    out, done = [], 0
    for start, end in sorted(spans):
        if start >= done:
            out.append(body[done:start])
            done = end
    out.append(body[done:])
    return "".join(out)


def _without_unmarked_quote(body: str) -> str:
    """`body` up to its first `On ... wrote:` whose quotation is not marked with `>`
    (a top-posted reply whose client or gateway dropped the marks): what follows it
    is the quoted message, not this one."""
    for m in _WROTE.finditer(body):
        nxt = _NEXT_TEXT_LINE.match(body, m.end())
        if nxt is not None and nxt.group(1) != ">":
            return body[: m.start()]
    return body


# In a flattened mail (GitBox joins an emailed reply's lines into one), the quotation
# under `On <date>, <name> wrote:` follows on the same line, its lines marked with `>`.
_FLAT_WROTE = re.compile(r"\bOn\s[^\n]{0,300}?\bwrote:[ \t]*(?=>\s)")


def _without_flat_quotation(body: str) -> str:
    """`body` without the quotation that a flattened line's `On ... wrote: > ...`
    opens: up to the end of the first sentence after the line's last `>` mark (where
    its end was lost, as for a flattened line that opens with one; see
    `_unquoted_rest`), what follows being the reply's own text."""
    out, done = [], 0
    for m in _FLAT_WROTE.finditer(body):
        if m.start() < done:
            continue
        eol = body.find("\n", m.end())
        eol = len(body) if eol < 0 else eol
        last = m.end()
        for mark in _INLINE_QUOTE_MARK.finditer(body, m.end(), eol):
            last = mark.end()
        end = _QUOTE_SENTENCE_END.search(body, last, eol)
        out.append(body[done : m.start()])
        done = end.end() if end else eol
        if done < eol:
            out.append("\n")
    out.append(body[done:])
    return "".join(out)


# A quoted line with the line break before it (see clean_body).
_QUOTED_LINE = re.compile(r"\n[ \t]*>[^\n]*")
# JIRA's wiki markup for a quotation: a `{quote}...{quote}` block, and a `bq. `
# paragraph (a line and the lines after it up to a blank one), as JIRA mails them raw
# (a reply quoting the results it answers: the results are the quoted comment's)
_JIRA_QUOTE = re.compile(
    r"\{quote\}.*?\{quote\}|^[ \t]*bq\.[ \t][^\n]*+(?:\n(?![ \t]*+\n)[^\n]*+)*+", re.S | re.M
)
_BLANK_RUNS = re.compile(r"\n[ \t]*(?:\n[ \t]*){2,}")
# A flattened mail (GitBox joins a comment's lines into one) that opens with a quotation
# is one line that starts with `>`: the quotation's lines are marked inside it
# (`> a > b own text`), and where it ends is lost. Its first sentence after the last
# mark is taken for the quotation's end, not the whole line: the reply after it is
# the message's own text.
_INLINE_QUOTE_MARK = re.compile(r"(?:^|\s)>+(?=\s)")
_QUOTE_SENTENCE_END = re.compile(r"[.!?](?:\s+|$)")
_QUOTE_REACH = 1000  # (the marks are looked for this far in)


# A Markdown code fence (CommonMark: at most three blanks, three or more backticks or
# tildes; a backtick fence's info string holds no backtick, so a line that starts with
# inline code opens none), and JIRA's `{code}` and `{noformat}` macros.
_MARKDOWN_FENCE = re.compile(r" {0,3}(`{3,}(?=[^`]*$)|~{3,})")
_JIRA_FENCE = re.compile(r"[ \t]*\{(code|noformat)(?::[^}\n]*)?\}")


def _jira_opening(line: str) -> str | None:
    """The fence a line opens a JIRA block with (`{code`, `{noformat`), or None.
    (`{code}x = 1{code}` on one line is a block of no line of its own: it opens none)"""
    m = _JIRA_FENCE.match(line)
    if m is None:
        return None
    fence = "{" + m.group(1)
    return None if fence in line[m.end() :] else fence


def code_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(opening, closing) line indexes of the closed code blocks among `lines`: a
    Markdown fence closed by a fence of its character at least as long with nothing
    after it (CommonMark's fenced code block), a JIRA `{code}` by `{code}` and a
    `{noformat}` by `{noformat}`. A fence never closed opens no block: where it
    would end is not known. One walk over the lines."""
    out: list[tuple[int, int]] = []
    opened: tuple[int, str] | None = None  # (the open block's first line, its fence)
    for k, line in enumerate(lines):
        if opened is None:
            if (m := _MARKDOWN_FENCE.match(line)) is not None:
                opened = (k, m.group(1))
            elif (fence := _jira_opening(line)) is not None:
                opened = (k, fence)
            continue
        first, fence = opened
        if fence[0] == "{":
            closed = fence in line
        else:
            mark = _MARKDOWN_FENCE.match(line)
            closed = (
                mark is not None
                and mark.group(1)[0] == fence[0]
                and len(mark.group(1)) >= len(fence)
                and not line[mark.end() :].strip()
            )
        if closed:
            out.append((first, k))
            opened = None
    return out


def _without_quoted_lines(body: str) -> str:
    """`body` without its quoted lines (`_unquoted_rest`), except inside a code block
    its own text opens and closes: there a line is code as written (CommonMark's
    fenced code block), and `>` starts a shell's or a language's prompt (`>> x = 1`,
    `>>> f()`) or a redirection, not a quotation. (A quoted code block's fences are
    quoted too, and it goes with its quotation.)"""
    spans: list[int] = []  # (start, end, start, end, ...) of the closed code blocks
    if "```" in body or "~~~" in body or "{code" in body or "{noformat" in body:
        lines = body.split("\n")
        starts = list(accumulate((len(line) + 1 for line in lines), initial=0))
        for opening, closing in code_blocks(lines):
            spans += (starts[opening], starts[closing])

    def unquoted(m: re.Match) -> str:
        # (a match starts at the line break before its line, in the text with "\n" put
        # before it: the match's start is the line's offset in `body`)
        if spans and bisect_left(spans, m.start()) % 2 == 1:
            return m.group()
        return _unquoted_rest(m)

    # (the pattern starts with a line break, so the regex engine jumps from line
    # to line instead of trying every character: 4x faster than `^...$\n?`)
    return _QUOTED_LINE.sub(unquoted, "\n" + body)[1:]


def _unquoted_rest(m: re.Match) -> str:
    """A quoted line (with the line break before it): nothing, or, for a flattened
    mail's line, what follows the quotation in it."""
    line = m.group()
    if len(line) <= _FLAT_LINE:
        return ""
    last = 0
    for mark in _INLINE_QUOTE_MARK.finditer(line, 0, _QUOTE_REACH):
        last = mark.end()
    end = _QUOTE_SENTENCE_END.search(line, last)
    return "\n" + line[end.end() :] if end else ""


def _cut_boilerplate(text: str) -> str:
    """Cut at the earliest marker after which everything is footer or old text."""
    cut = len(text)
    low = None
    for (needle, marker), ignores_case in zip(_CUT_REST, _IGNORES_CASE, strict=True):
        if ignores_case:
            low = text.lower() if low is None else low
            at = low.find(needle)
        else:
            at = text.find(needle)
        if at < 0 or at - _MARKER_REACH >= cut:
            continue
        # (`^` still means the start of the text or of a line when the search starts later)
        m = marker.search(text, max(0, at - _MARKER_REACH))
        if m and m.start() < cut:
            cut = m.start()
    return text[:cut]


# A line that introduces a quotation: `On Mon, ... X wrote:`, `@bob wrote:`,
# `X commented:`, `Quoting X:`, the CJK `写道：`.
_ATTRIBUTION = re.compile(r"(?i)(?:\bwrote|\bcommented|^quoting\b.*|写道)\s*[:：]\s*$")
# Machine output in a quote: a clock time, or three numbers on the line (numbers in
# links, hashes and code spans are not output: they are removed first).
# (a number tried from the start of its digits, a URL from the start of its word: from
# every character, a long run of digits or of `|` took quadratic time)
_OUTPUT_LINE = re.compile(r"\d\d:\d\d:\d\d|(?<!\d)(?:\d[\d.,]*\D+){3}")
# What is not output: a link's target `](...)`, a URL, a code span, a hash, `#123`.
# A link's target is looked for by `_without_non_output` (from each `](` of a run of
# them, `\]\([^)\s]*\)` read the run to its end again); the pattern has its opener.
_NOT_OUTPUT = re.compile(r"\]\(|(?<!\S)\S*?://\S+|`[^`\n]*`|\([0-9a-f]{7,40}\)|#\d+")
_NOT_OUTPUT_BUT_LINK = re.compile(r"(?<!\S)\S*?://\S+|`[^`\n]*`|\([0-9a-f]{7,40}\)|#\d+")
_LINK_TARGET = re.compile(r"[^)\s]*+")


def _without_non_output(text: str) -> str:
    """`text` with each of `_NOT_OUTPUT`'s pieces (a link's target `](...)` first) put
    as a space, in time linear in `text`: a `](` whose target has no `)` before a
    space or the end is remembered, so that the `](` after it in the same run (which
    reach the same end) fail without reading it again."""
    out = []
    done = at = 0
    dead_end = -1  # a `](` before this has no `)`: its run ends here
    while (m := _NOT_OUTPUT.search(text, at)) is not None:
        start, end = m.span()
        if m.group() == "](":
            if start >= dead_end:
                run_end = _LINK_TARGET.match(text, end).end()
                if text.startswith(")", run_end):
                    out += (text[done:start], " ")
                    done = at = run_end + 1
                    continue
                dead_end = run_end
            other = _NOT_OUTPUT_BUT_LINK.match(text, start)
            if other is None:
                at = start + 1
                continue
            end = other.end()
        out += (text[done:start], " ")
        done = at = end
    out.append(text[done:])
    return "".join(out)


def unquote_own_output(body: str) -> str:
    """In a GitHub comment, a `>` block that no attribution line introduces and
    that is mostly machine output (log records, tool rows) is the author's own
    output set as a Markdown blockquote, not a quotation: its `>` marks are removed
    so that it is read as new text. Quotations (under `... wrote:`) and quoted
    prose stay quotations."""
    lines = body.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith(">"):
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].lstrip().startswith(">"):
            j += 1
        above = next((ln for ln in reversed(lines[:i]) if ln.strip()), "")
        block = [ln.lstrip()[1:] for ln in lines[i:j]]
        texts = [b for b in block if b.strip() and not b.lstrip().startswith(">")]
        output = sum(bool(_OUTPUT_LINE.search(_without_non_output(b))) for b in texts)
        if texts and not _ATTRIBUTION.search(above.strip()) and 2 * output >= len(texts):
            lines[i:j] = [b[1:] if b.startswith(" ") else b for b in block]
        i = j
    return "\n".join(lines)


# A forwarded or re-sent mail's header block: a `To:` or `Cc:` line among its `From:`,
# `Sent:`, `Date:` and `Subject:` lines (English and Chinese clients), under the
# separator a client may write above it (`---------- Forwarded message ---------`,
# `Begin forwarded message:`, `-------- Forwarded Message --------`).
_ADDRESSEE_LINE = re.compile(r"\n[ \t]*\*?(?:To|TO|Cc|CC|收件人|抄送)\*?[:：][^\n]*")
_HEADER_LINE = re.compile(
    r"[ \t]*\*?(?:From|FROM|Sent|Date|Subject|To|TO|Cc|CC|Reply-To|发件人|发送时间|日期|主题"
    r"|收件人|抄送)\*?[:：]"
)
_FORWARD_SEPARATOR = re.compile(
    r"[ \t]*(?:-{3,} ?(?:Forwarded|Original) [Mm]essage ?-{3,}|Begin forwarded message:"
    r"|-{3,} ?转发的?邮件(?:信息)? ?-{3,})[ \t]*$"
)
# An ASF list's address (`dev@kafka.apache.org`, `user@foo.incubator.apache.org`), not
# a person's (`jane@apache.org`).
_LIST_ADDRESS = re.compile(r"@[\w-]+(?:\.[\w-]+)*\.apache\.org\b", re.I)


def _without_resent_list_mail(body: str) -> str:
    """`body` up to a forwarded or re-sent mail that went to an ASF list before (its
    header block's `To:` or `Cc:` names a list): its text was that list's already, and
    the message that first carried it is the one that reports it (a ping that re-sends
    its unanswered original, a thread forwarded from user@ to dev@). A forward of mail
    that never went to a list (`To: bob@corp`) is the list's first sight of it, and is
    kept."""
    for m in _ADDRESSEE_LINE.finditer(body):
        if not _LIST_ADDRESS.search(m.group()):
            continue
        # (the eight lines above the addressee at most: a header block, a blank line
        # and a separator; never the whole text above, once per addressee line)
        start = at = m.start()
        for _ in range(8):
            at = body.rfind("\n", 0, at) if at > 0 else -1
            if at < 0:
                break
        above = body[at + 1 : start].split("\n") if start > 0 else []
        k = len(above)
        while k and _HEADER_LINE.match(above[k - 1]):
            k -= 1
        if not any(ln.lstrip(" \t*").startswith(("From", "FROM", "发件人")) for ln in above[k:]):
            continue
        if k and above[k - 1].strip() and not _FORWARD_SEPARATOR.match(above[k - 1]):
            continue  # (header-like lines inside a paragraph are not a mail's header)
        # (and the separator above, a blank line apart or not)
        for up in (1, 2):
            if k >= up and _FORWARD_SEPARATOR.match(above[k - up]):
                k -= up
                break
        return body[: at + 1 + sum(len(ln) + 1 for ln in above[:k])].rstrip("\n")
    return body


# Gatling's console summary marks its lines with `> ` (`> mean response time  41 (OK=...`):
# under its own, unquoted `---- Global Information ---` title they are the tool's
# output, not a quotation, up to the end of the block (its lines marked `> ` and its
# other `---- ... ----` titles). A quoted summary (`> ---- Global Information`) stays
# a quotation.
_GATLING_BLOCK = re.compile(
    r"(?m)^[ \t]*+-{4}[ \t]++Global[ \t]++Information[ \t]++-[^\n]*+"
    r"(?:\n[ \t]*+(?:>[^\n]*+|-{4}[ \t][^\n]*+))++"
)
_GATLING_MARK = re.compile(r"(?m)^([ \t]*+)>[ \t]?")


def _unquote_gatling(body: str) -> str:
    """`body` with the `> ` marks of Gatling's summary lines taken off."""
    return _GATLING_BLOCK.sub(lambda m: _GATLING_MARK.sub(r"\1", m.group()), body)


# A phone or fax number on a line of its own, as signatures give them (`Mobile: +1 (555)
# 123-4567`, `Tel 555-0100 ext 42`, `手机：138 0013 8000`): no text, and its digits are
# no measurement. (The words are the pattern's alternatives, and what the text is
# searched for before it: a line holds one of them.)
_PHONE_WORDS = ("Mobile", "Mob", "Cell", "Phone", "Telephone", "Tel", "Fax", "手机", "电话", "传真")
_PHONE_LINE = re.compile(
    rf"(?m)^[ \t]*(?:{'|'.join(_PHONE_WORDS)})\b[^\n\d+]{{0,4}}"
    r"[ \t]*\+?[\d() .-]{7,}[^\n]*(?:\n|$)"
)


def clean_body(text: str, kind: str | None = None) -> str:
    """The message's own text. `kind` (jira, github, commit, mail) enables the
    notification-header rules; without it, every rule is tried."""
    if not text:
        return ""
    body = text.replace("\r\n", "\n").replace("\r", "\n")
    body = _cut_boilerplate(body)
    if "To:" in body or "Cc:" in body or "TO:" in body or "CC:" in body or "收件人" in body:
        body = _without_resent_list_mail(body)
    if kind in (None, "jira"):
        body = _JIRA_HEADER.sub("", body, count=1)
        body = _JIRA_ACTOR_LINE.sub("", body, count=1)
        if "Worklog Time Spent:" in body and (log := _JIRA_WORKLOG_FIELDS.match(body)):
            body = _GITHUB_HEADER.sub("", body[log.end() :], count=1)
        elif "Key:" in body and (fields := _JIRA_FIELDS.match(body)):
            body = body[fields.end() :]
        if "{quote}" in body or "bq." in body:
            body = _JIRA_QUOTE.sub("", body)
    if kind in (None, "mail") and "show_bug.cgi?id=" in body:
        body = _without_bugzilla_header(body)
    if kind in (None, "github"):
        body = _GITHUB_HEADER.sub("", body, count=1)
        if _REVIEW_RULE in body:
            body = _without_review_diffs(body)
    if kind in (None, "github") and "<!--" in body:
        body = _without_html_comments(body)
    if kind == "commit":
        body = commit_text(body)
    if any(word in body for word in _PHONE_WORDS):
        body = _PHONE_LINE.sub("", body)
    if "Global Information" in body:
        body = _unquote_gatling(body)
    if kind == "github" and ">" in body:
        body = unquote_own_output(body)
    body = _without_attributed_quotations(body)
    if "wrote:" in body:
        body = _without_unmarked_quote(body)
        body = _WROTE.sub("", body)
        body = _without_flat_quotation(body)
    if ">" in body:
        body = _without_quoted_lines(body)
    bars = "|" in body or "│" in body or "┃" in body
    if "|" in body:
        body = rejoin_wrapped_rows(body)
    body = unwrap_hard_wrapped(body)
    if bars:  # (after the unwrap, whose width the joined tails would hide)
        body = rejoin_row_tails(body)
    if "`" in body or "{" in body or ", " in body:
        body = reline_flattened(body)
    body = _BLANK_RUNS.sub("\n\n", body)
    return body.strip()


def _without_html_comments(body: str) -> str:
    """`body` without the `<!-- ... -->` comments of its Markdown: a pull request's or
    an issue's template's guidance ("please benchmark it first and attach the results
    here") that GitHub does not show and the author did not write. As CommonMark reads
    them: one that starts a line ends at the first line holding `-->`, one inside a line
    on that line; none in a code block (`<!--` in pasted HTML or XML, or a diff, is
    code); an opening that is never closed is text."""
    lines = body.split("\n")
    closes = [j for j, line in enumerate(lines) if "-->" in line]  # (looked up, not searched)
    out: list[str] = []
    fence = None  # (the open code block's fence, or None)
    k = 0
    while k < len(lines):
        line = lines[k]
        mark = _FENCE_OPEN.match(line)
        if fence is not None:
            if mark and mark.group(1)[0] == fence[0] and len(mark.group(1)) >= len(fence):
                fence = None
        elif mark:
            fence = mark.group(1)
        elif line.lstrip(" ").startswith("<!--") and len(line) - len(line.lstrip(" ")) <= 3:
            at = bisect_left(closes, k)
            if at < len(closes):
                close = closes[at]
                rest = lines[close].split("-->", 1)[1]
                if rest.strip():
                    out.append(rest)
                k = close + 1
                continue
        if fence is None and "<!--" in line:
            line = _without_inline_comments(line)
        out.append(line)
        k += 1
    return "\n".join(out)


def _without_inline_comments(line: str) -> str:
    """`line` without the comments closed on it (found with `find`: an opening with no
    close is looked past once)."""
    out: list[str] = []
    pos = 0
    while (start := line.find("<!--", pos)) >= 0:
        end = line.find("-->", start + 4)
        if end < 0:
            break
        out.append(line[pos:start])
        pos = end + 3
    out.append(line[pos:])
    return "".join(out)


_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})")


# A table row (`| a | 1.5 |`, JIRA's `|| a || b ||`) that a mail gateway's hard wrap
# broke: it opens with a pipe but does not close with one, and the next line goes on.
_OPEN_ROW = re.compile(r"^[ \t]*\|[^\n]*[^|\s][ \t]*$")
# (what a join needs: an open row, then a line that is not blank and opens no row;
# a line break first, for the regex engine to go from line to line: see clean_body)
_OPEN_ROW_GOING_ON = re.compile(r"\n[ \t]*\|[^\n]*[^|\s][ \t]*\n[^\S\n]*[^|\s]")


def rejoin_wrapped_rows(text: str) -> str:
    """Table rows broken by a hard wrap (at 72-80 columns) joined again: a line that
    opens with `|` and does not end with one, followed by non-blank lines that do not
    open a row, up to the line that closes it with `|`. Rows that never close (tables
    written without the outer pipes) are left as they are. (Rows broken at a cell
    boundary: `rejoin_row_tails`.)"""
    if _OPEN_ROW_GOING_ON.search("\n" + text) is None:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _OPEN_ROW.match(line) and line.count("|") >= 2:
            j, joined = i + 1, line
            while j < len(lines) and j - i <= 3:
                nxt = lines[j]
                if not nxt.strip() or nxt.lstrip().startswith("|"):
                    break
                joined += " " + nxt.strip()
                j += 1
                if joined.rstrip().endswith("|"):
                    out.append(joined)
                    i = j
                    break
            else:
                out.append(line)
                i += 1
                continue
            if i != j:
                out.append(line)
                i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


_BARS = ("|", "│", "┃")
# (what a join needs: a line that opens and closes with a bar, then one that closes
# with a bar but does not open with one; line breaks first, as in _OPEN_ROW_GOING_ON)
_ROW_THEN_TAIL = re.compile(
    r"\n[^\S\n]*[|│┃](?:[^\n]*[|│┃])?[^\S\n]*\n[^\S\n]*[^|│┃\s][^\n]*[|│┃][^\S\n]*(?:\n|\Z)"
)


def rejoin_row_tails(text: str) -> str:
    """The tail of a `| a | b |` row (or a box-drawn `│ a │ b │` one) that a wrap broke
    at a cell boundary: the row closes with a bar, and the next line, which goes on
    with more cells (`c | d |`), does not open with one as every row of the table does."""
    if _ROW_THEN_TAIL.search("\n" + text) is None:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        s = line.strip()
        prev = out[-1].strip() if out else ""
        if (
            s
            and not s.startswith(_BARS)
            and s.endswith(_BARS)
            and prev.startswith(_BARS)
            and prev.endswith(_BARS)
        ):
            out[-1] = out[-1].rstrip() + " " + s
            continue
        out.append(line)
    return "\n".join(out)


_DIGIT_RUN = re.compile(r"\d+")


def wrap_width(lines: list[str]) -> int:
    """The column a hard wrap broke the lines at: the longest line that a wrapper
    could have broken (one with a space inside it). A line with no space in it (a URL,
    a dashed rule, a long identifier) passes through every wrapper unbroken, so its
    length says nothing of the width."""
    return max((len(x.rstrip()) for x in lines if " " in x.strip()), default=0)


def unwrap_hard_wrapped(text: str) -> str:
    """Lines of a message that a gateway hard-wrapped joined again. A message is
    hard-wrapped when no breakable line is longer than 80 columns and some come close
    to the longest, W (`wrap_width`); a line was broken by the wrap when the first word
    of the next line would not have fitted after it (the rule every wrapper follows)
    and the next line starts at the margin while the broken one was indented or long.
    Outside rows of numbers, a line that goes on with a capital is left alone (it may
    start a sentence). Table rows the wrap split into a line of names and a line of
    values are joined by `rejoin_split_rows`."""
    lines = text.split("\n")
    # (no line reaches the narrowest wrap: `wrap_width`'s walk over the lines is not
    # needed to say so)
    if len(lines) < 3 or max(map(len, lines)) < 60:
        return text
    width = wrap_width(lines)
    if not 60 <= width <= 80:
        return text
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        # a rule of dash groups under aligned columns, its last group on the next line
        if (
            i + 1 < len(lines)
            and _RULE_LINE.match(line)
            and " " in line.strip()
            and len(line) >= width - 30
            and _RULE_LINE.match(lines[i + 1])
            and not lines[i + 1][0].isspace()
        ):
            line = line.rstrip() + "  " + lines[i + 1].strip()
            i += 1
        # (most lines: what `_broken_here` rules out at once, asked of the line itself
        # before its `_Joined` is built: a blank line or a blank or indented next one,
        # or a short line whose next one is no option)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            not nxt.strip()
            or nxt[0].isspace()
            or not line.strip()
            or (len(line) < width - 20 and nxt[0] != "-")
        ):
            out.append(line)
            i += 1
            continue
        joined = _Joined(line)
        while i + 1 < len(lines) and _broken_here(joined, lines[i + 1], width):
            joined.add(lines[i + 1])
            i += 1
        out.append(joined.text())
        i += 1
    return "\n".join(rejoin_split_rows(out, width))


class _Joined:
    """A line and the lines joined to it so far (`line.rstrip() + " " + next.strip()`
    each time), with what `_broken_here` asks of the whole kept up to date part by
    part. Asking the joined line itself after each join, and building it each time,
    cost time quadratic in a run of joined lines: an undecoded base64 block of 280 kB
    took 0.6 s, and one of some MB a worker's whole budget."""

    def __init__(self, line: str) -> None:
        self.parts = [line]
        stripped = line.strip()
        self.blank = not stripped
        self.first_space = line[:1].isspace()
        self.opens_bar = line.lstrip().startswith("|")
        self.length = len(line)
        self.rlen = len(line.rstrip())
        self.inner_space = " " in stripped
        self.rule = _RULE_LINE.match(line) is not None
        self._rule_parts = _rule_parts(line)
        self.option = _OPTION.search(line) is not None
        self.bars = any(b in line for b in _BARS)
        self.digit_runs = len(_DIGIT_RUN.findall(line))

    def add(self, nxt: str) -> None:
        """Joins `nxt` (not blank: `_broken_here` joins no blank line)."""
        self.parts[-1] = self.parts[-1].rstrip()
        part = nxt.strip()
        self.parts.append(part)
        # (what was joined ends with a word: its length is its length without blanks)
        self.length = self.rlen = self.rlen + 1 + len(part)
        self.blank = False
        self.inner_space = True  # (the joint's blank stands between two words)
        # (`\s--?[A-Za-z]` in a part, or at the joint's blank; the joint breaks runs of
        # digits, dashes and `=`, so a rule and a count are their parts')
        self.option = self.option or _OPTION.search(" " + part) is not None
        self.bars = self.bars or any(b in part for b in _BARS)
        self.digit_runs += len(_DIGIT_RUN.findall(part))
        self._rule_parts = _and_rule(self._rule_parts, _rule_parts(part))
        self.rule = _rule_of(self._rule_parts)

    def text(self) -> str:
        return " ".join(self.parts)


# A cell of values: a number with its unit glued on or alone (`1.0X`, `36`, `12.5ms`,
# `±`, `ops/s`), as the value part of a table row is written.
_VALUE_CELL = re.compile(
    r"[-+~]?(?:\d[\d.,]*(?:[eE][-+]?\d+)?(?:±\d[\d.,]*)?[A-Za-zµμ%/()]{0,10}|[±?]"
    r"|\(?[±\d.%]+\)?)|(?:[A-Za-zµμ]{1,6}|\?)/[A-Za-z]{1,4}|[a-zµμ]{1,3}|%|[xX]"
)
_RULE_LINE = re.compile(r"^[\s=+|:-]*-{3,}[\s=+|:-]*$|^[\s=+|:]*={3,}[\s=+|:]*$")
_CELL_GAP = re.compile(r"\s{2,}")


def _is_values(line: str) -> bool:
    """Every word of the line is a value or a unit, and it starts with a number."""
    words = line.split()
    # (`?` stands for a value a tool could not give: critcmp's `? ?/sec`)
    if not words or not re.match(r"[-+~]?\d|\?$", words[0]):
        return False
    return all(_VALUE_CELL.fullmatch(w) for w in words)


def _opens_values(line: str) -> bool:
    """Whether the line starts as `_is_values` needs: with a digit, a sign or `?`."""
    first = line[:1]
    return first.isdecimal() or (first != "" and first in "-+~?")


def _n_cells(line: str) -> int:
    return len(_CELL_GAP.split(line.strip()))


def rejoin_split_rows(lines: list[str], width: int) -> list[str]:
    """Rows of an aligned table that a hard wrap split in two joined again. A wrapper
    drops the run of blanks where it breaks, so the line cannot be measured against
    the width; the table's rhythm shows it instead: a line with a name followed by a
    line of values only (`-row-based deserialization   171` / `219   70   5.9  1.0X`,
    `Compile Step - 1 parse` / `1ms`), at least twice in one block. Each such pair
    becomes one row, its parts two blanks apart (a column gap). Then the header above
    such rows, when it too was split (a long line followed by a line of names), is
    joined when that gives it as many cells as the rows have."""
    out = list(lines)
    # (a line of values opens with a digit, a sign or `?`: the cheap test first)
    pairs = [
        i
        for i in range(len(out) - 1)
        if _opens_values(out[i + 1])
        and out[i].strip()
        and re.search(r"[A-Za-z]", out[i])
        and not _is_values(out[i])
        and not _RULE_LINE.match(out[i])
        and _is_values(out[i + 1])
    ]
    if len(pairs) < 2:
        return out
    # pairs in one block: no blank line between them, and at most a few rows apart
    blocks: list[list[int]] = []
    for i in pairs:
        if blocks and i - blocks[-1][-1] <= 4 and all(x.strip() for x in out[blocks[-1][-1] : i]):
            blocks[-1].append(i)
        else:
            blocks.append([i])
    for block in reversed(blocks):
        if len(block) < 2:
            continue
        counts = [_n_cells(out[i].rstrip() + "  " + out[i + 1].strip()) for i in block]
        for i in reversed(block):
            out[i : i + 2] = [out[i].rstrip() + "  " + out[i + 1].strip()]
        _rejoin_header(out, block[0], max(set(counts), key=counts.count), width)
    return out


def _rejoin_header(out: list[str], first_row: int, n_cells: int, width: int) -> None:
    j = first_row - 1
    while j >= 0 and _RULE_LINE.match(out[j]):
        j -= 1
    if j < 1 or not out[j].strip() or not out[j - 1].strip():
        return
    head, rest = out[j - 1].rstrip(), out[j].strip()
    if len(head) < width - 30 or _is_values(rest):
        return
    for sep in (" ", "  "):
        if _n_cells(head + sep + rest) == n_cells:
            out[j - 1 : j + 1] = [head + sep + rest]
            return


_OPTION = re.compile(r"\s--?[A-Za-z]")


_RULE_CHARS = re.compile(r"[\s=+|:-]*")
_DOUBLE_RULE_CHARS = re.compile(r"[\s=+|:]*")


def _rule_parts(part: str) -> tuple[bool, bool, bool, bool]:
    """What `_RULE_LINE` asks of a text, as four facts that two parts joined by a blank
    combine: only its dash rule's characters, a run of three dashes, only its double
    rule's characters, a run of three `=`."""
    return (
        _RULE_CHARS.fullmatch(part) is not None,
        "---" in part,
        _DOUBLE_RULE_CHARS.fullmatch(part) is not None,
        "===" in part,
    )


def _and_rule(a: tuple[bool, ...], b: tuple[bool, ...]) -> tuple[bool, bool, bool, bool]:
    return (a[0] and b[0], a[1] or b[1], a[2] and b[2], a[3] or b[3])


def _rule_of(parts: tuple[bool, ...]) -> bool:
    return (parts[0] and parts[1]) or (parts[2] and parts[3])


def _broken_here(line: _Joined, nxt: str, width: int) -> bool:
    if line.blank or not nxt.strip() or nxt[0].isspace() or line.rule:
        return False
    # a word longer than the width (a long name, a URL) stands alone on its line; the
    # cells of its table row follow on the next
    if line.rlen > width and not line.inner_space and nxt.startswith("|"):
        return True
    # a command's options go on after the break (`tool run -t 20` / `--path=/x -n 5`)
    if nxt.startswith("-") and nxt[1:2] in ("-", *"abcdefghijklmnopqrstuvwxyz") and line.option:
        first = nxt.split(None, 1)[0]
        return line.rlen + 1 + len(first) > width
    # (inside a run of `|` cells a capital starts a cell, not a sentence; in a table
    # written without the outer pipes, a line that opens with one goes on a row)
    cells = line.bars and any(b in nxt for b in _BARS)
    opens_row = nxt.startswith("|") and not (cells and not line.opens_bar)
    if line.length < width - 20 or opens_row or nxt.startswith((">", "#", "`", "- ", "* ", "+ ")):
        return False
    # a capitalised word after the break may start a sentence or a row: the sentence
    # splitter and the table readers need that line break (outside rows of numbers,
    # any capital)
    if not cells and nxt[0].isupper() and (len(nxt) < 2 or nxt[1].islower()):
        return False
    if not cells and line.digit_runs < 2 and not (nxt[0].islower() or nxt[0] in "([{"):
        return False
    first = nxt.split(None, 1)[0]
    return line.rlen + 1 + len(first) > width and (
        line.first_space or len(nxt) < line.length * 0.6 or (cells and line.length <= width)
    )


# A code fence inside a line: Markdown's ``` (with its info string) and JIRA's
# {code...} / {noformat}, with the blank before it (a flattened mail has one).
_INLINE_FENCE = re.compile(r" (```+[\w+-]*|~~~+|\{code(?::[^}\s]*)?\}|\{noformat\})(?= |$)")
# Where a line began in output that a flattening joined: a log line's date and time
# (`2019-10-14 18:07:32`, `23/06/26 01:00:30`), or a shell prompt.
_LINE_START = re.compile(
    r" (?=(?:\d{4}-\d\d-\d\d|\d\d/\d\d/\d\d(?:\d\d)?)[ T]\d\d:\d\d:\d\d|\$ \w"
    r"|\[(?:INFO|WARN|WARNING|ERROR|DEBUG)\] )"
)
_FLAT_LINE = 300
# A linking verb before a capitalised name that ends a lead-in (`... is Before patch:`).
_LEAD_IN_LINK = re.compile(
    r"(?:(?<=\bis)|(?<=\bare)|(?<=\bwas)|(?<=\bwere)) +(?=[A-Z][^.!?]{0,60}:$)"
)
# The boundary before the last sentence of a text (`... as follows. Before the fix:`).
_LAST_SENTENCE = re.compile(r"(?<=[.!?:])\s+(?=[^\s.!?][^.!?]{0,100}$)")


_CSV_NUMBER = re.compile(r"[-+]?\d[\d.]*(?:[eE][-+]?\d+)?%?")
_LEAD_NUMBER = re.compile(r"([-+]?\d[\d.]*(?:[eE][-+]?\d+)?%?) (\S.*)")
# where the first header cell begins in the text before it (after a sentence or `:`)
_CSV_HEAD = re.compile(r"(?:.*[.:!?]\s|^)(?P<cell>[^.:!?]{1,40})$")


def _reline_csv(line: str) -> str:
    """A comma-separated table that flattening ran into one line (`Name, Min, Max P95
    topology-0, 0.03, 0.36, 0.09 Next sentence`) put back on lines: where a cell
    holds two words with a space between and the cells after it are numbers, the
    first word ends the header (or a row) and the second starts the next row. The
    header has as many cells as each row: a label and its numbers."""
    pieces = line.split(", ")
    if len(pieces) < 6:
        return line
    for j in range(2, len(pieces) - 2):
        head, _, label = pieces[j].rpartition(" ")
        m = 0
        while j + 1 + m < len(pieces) and _CSV_NUMBER.fullmatch(pieces[j + 1 + m]):
            m += 1
        last = _LEAD_NUMBER.fullmatch(pieces[j + 1 + m]) if j + 1 + m < len(pieces) else None
        width = m + (1 if last else 0)  # numbers in the first row
        if not head or width < 2 or j - width < 0:
            continue
        first = _CSV_HEAD.match(pieces[j - width])
        names = [first.group("cell").strip()] if first else []
        names += [*pieces[j - width + 1 : j], head]
        if not first or any(_CSV_NUMBER.fullmatch(x) for x in names):
            continue
        prefix = pieces[j - width][: first.start("cell")]
        rows, k = [], j + 1
        rest = ""
        while True:
            nums = pieces[k : k + width]
            if len(nums) < width:
                break
            tail = _LEAD_NUMBER.fullmatch(nums[-1])
            if not all(_CSV_NUMBER.fullmatch(x) for x in nums[:-1]) or not (
                tail or _CSV_NUMBER.fullmatch(nums[-1])
            ):
                break
            rows.append([label, *nums[:-1], tail.group(1) if tail else nums[-1]])
            k += width
            if not tail:
                rest = ", ".join(pieces[k:])
                break
            nxt = tail.group(2)
            if (
                all(_CSV_NUMBER.fullmatch(x) for x in pieces[k : k + width - 1])
                and len(pieces[k : k + width]) == width
                and " " not in nxt.strip()
            ):
                label = nxt
                continue
            rest = ", ".join([nxt, *pieces[k:]])
            break
        if not rows:
            continue
        table = "\n".join(", ".join(r) for r in [names, *rows])
        before = ", ".join([*pieces[: j - width], prefix]) if j - width else prefix
        return "\n".join(x for x in (before.rstrip(", ").strip(), table, _reline_csv(rest)) if x)
    return line


def reline_flattened(text: str) -> str:
    """Line breaks put back where a mail flattened onto one line (every run of blanks
    made one space, as GitBox did) certainly had them: around its code fences, which
    stand on lines of their own, and inside a fenced block before each log timestamp
    or shell prompt. Blocks then read as blocks (with the heading before them), and
    the parsers' one-line readers see one block at a time. Only long lines are
    touched: a line of ordinary length was not flattened."""
    if max(map(len, text.split("\n"))) <= _FLAT_LINE:
        return text
    out = []
    lines = text.split("\n")
    if ", " in text:
        lines = [_reline_csv(x) if len(x) > _FLAT_LINE else x for x in lines]
        lines = "\n".join(lines).split("\n")
    for line in lines:
        if len(line) <= _FLAT_LINE or not _INLINE_FENCE.search(line):
            out.append(line)
            continue
        parts = _INLINE_FENCE.split(" " + line)
        # parts: text, fence, block, fence, text, ...
        inside = False
        for n, part in enumerate(parts):
            if n % 2:
                out.append(part)
                inside = not inside
                continue
            part = part.strip()
            if not part:
                continue
            if inside:
                pieces = [y for x in _LINE_START.split(part) for y in _split_repeats(x)]
            elif n + 1 < len(parts) and part.endswith(":"):
                # the sentence that leads into the block (`Before the fix:`) was a
                # line of its own (other text before a block is left to the
                # parsers' reading of a heading at the end of a line)
                pieces = _LAST_SENTENCE.split(part)
                # (`The latest result is Before patch:` was two lines)
                pieces[-1:] = _LEAD_IN_LINK.split(pieces[-1], maxsplit=1)
            else:
                pieces = [part]
            out.extend(x for x in pieces if x.strip())
    return "\n".join(x.strip() for x in out)


_WORD = re.compile(r"\S+")


def _split_repeats(line: str) -> list[str]:
    """A flattened block of records printed one a line (`Time to access example at
    i=0% : 5.3us Time to access example at i=10% : 4.0us ...`) split before each
    record again: the records start with the same two words, the first capitalised,
    which come back after a number: three records, or two that open the block."""
    words = _WORD.findall(line)
    # (the rows of a table have their own markup, which the table readers follow)
    if len(words) < 9 or any(c in line for c in "|│┃"):
        return [line]

    def opening(k: int) -> tuple[str, str]:
        # a record's first two words, or its key alone when a value follows it
        nxt = words[k + 1] if k + 1 < len(words) else ""
        return words[k], "" if any(c.isdigit() for c in nxt) else nxt

    starts: dict[tuple[str, str], list[int]] = {}
    for k in range(1, len(words) - 1):
        w = words[k]
        # (`GiB/sec`, `MB`, `KB` after a number are its unit, not a new record)
        unit = "/" in w or (len(w) <= 3 and w.isalpha())
        if w[0].isupper() and not unit and any(c.isdigit() for c in words[k - 1]):
            starts.setdefault(opening(k), []).append(k)
    if not starts:
        return [line]
    # the words the block starts with, when they come back, else the commonest pair
    first = opening(0)
    key, best = max(starts.items(), key=lambda kv: (len(kv[1]) + (kv[0] == first), kv[0] == first))
    # (three records, or two when the block starts with the first)
    if len(best) + 2 * (key == first) < 3:
        return [line]
    cuts = [0, *best, len(words)]
    pieces = [" ".join(words[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]
    return [p for p in pieces if p]
