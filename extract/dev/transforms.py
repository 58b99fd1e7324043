"""What real archives do to a message body, as functions from text to text.

`make eval` runs every labelled set through each of them and requires the same
measurements back (within a few points): GitHub-to-mail notifications flatten a
comment onto one line, GitBox indents it by three spaces, mail gateways turn line
ends into CRLF and hard-wrap at 72 columns, charsets mangle `±` into `?` or `Â±` or
drop it, and web archives render mail to HTML. `QUOTED` is the opposite check:
the same body quoted in a reply under an attribution line must give nothing.
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Callable

from bs4 import BeautifulSoup


def flattened(text: str) -> str:
    """Every run of whitespace becomes one space, as in GitBox mails of comments."""
    return " ".join(text.split())


def gitbox_indent(text: str) -> str:
    """GitBox's three-space indent before every line of the comment."""
    return "\n".join("   " + line if line.strip() else line for line in text.split("\n"))


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def wrapped_72(text: str) -> str:
    """Hard-wrapped at 72 columns (long lines broken at spaces), with CRLF line ends,
    as JIRA's and some list servers' mails are."""
    out = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if len(line) <= 72:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(
            line, 72, subsequent_indent="", drop_whitespace=True, break_long_words=False,
            break_on_hyphens=False, initial_indent="",
        ) or [indent]  # fmt: skip
    return "\r\n".join(out)


def plus_minus_question(text: str) -> str:
    return text.replace("±", "?")


def plus_minus_mojibake(text: str) -> str:
    """UTF-8 `±` read as Latin-1: `Â±`."""
    return text.replace("±", "Â±")


def plus_minus_dropped(text: str) -> str:
    return text.replace("±", "")


def html_round_trip(text: str) -> str:
    """Rendered to HTML the way web archives show mail (escaped, line breaks as
    `<br>`) and read back to text with BeautifulSoup."""
    page = "<html><body><div>" + html.escape(text).replace("\n", "<br>\n") + "</div></body></html>"
    return BeautifulSoup(page, "lxml").get_text()


def quoted_reply(text: str) -> str:
    """The body quoted in somebody else's reply: nothing in it is the reply's own."""
    quoted = "\n".join("> " + line if line else ">" for line in text.split("\n"))
    return (
        f"Thanks, I will take a look.\n\nOn Mon, 3 Mar 2025 at 10:12, Some One wrote:\n{quoted}\n"
    )


# name -> transformation; each should leave the measurements as they are
TRANSFORMS: dict[str, Callable[[str], str]] = {
    "flattened": flattened,
    "gitbox-indent": gitbox_indent,
    "crlf": crlf,
    "wrapped-72-crlf": wrapped_72,
    "plus-minus-?": plus_minus_question,
    "plus-minus-Â±": plus_minus_mojibake,
    "plus-minus-dropped": plus_minus_dropped,
    "html-round-trip": html_round_trip,
}
# ... and this one should leave none
QUOTED = quoted_reply
