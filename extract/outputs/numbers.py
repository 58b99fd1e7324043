"""Numbers as text for people: the report and `make sql` print a stored DOUBLE the way
a person writes it, with no scientific notation the message did not use.

A measurement's value was parsed from a decimal number as written ("1803345.402",
"0.000123"); a DOUBLE holds 15 significant digits of it exactly, so printing it with
up to 15 significant digits and no trailing zeros gives the number back as written
(less separators and trailing zeros), where Python's `%g` turns 1803345.402 into
`1.80335e+06`. A number that needs 12 or more significant digits and is no whole
number was computed, not written (an average, a before derived from a stated change:
65.7479751125821): it is shown to 6 significant digits (65.748), still without an
exponent. Float noise (100.00000000000001) does not show. Only magnitudes nobody
writes out in full keep an exponent (>= 1e21 or below 1e-9).
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

_DIGITS = 15  # what a double keeps of any decimal number
_HUGE = 1e21  # at and past this a number is shown with an exponent
_TINY = 1e-9  # below this (and not 0) likewise
_COMPUTED = 12  # significant digits from which a fraction is taken as computed
_SHOWN = 6  # significant digits a computed number is shown with


def _positional(text: str) -> str:
    """`text` (a Python float format, maybe with an exponent) without the exponent."""
    if "e" not in text and "E" not in text:
        return text
    try:
        plain = format(Decimal(text), "f")
    except InvalidOperation:  # (not a number: left as it is)
        return text
    if "." in plain:
        plain = plain.rstrip("0").rstrip(".")
    return plain


def _significant(text: str) -> int:
    """Significant digits of a `%g` text: 0.000123 has 3, 1803345.402 has 10."""
    mantissa = text.lower().split("e")[0]
    return len(mantissa.replace("-", "").replace(".", "").lstrip("0"))


def _special(number: float) -> str | None:
    if number != number:
        return "NaN"
    if math.isinf(number):
        return "∞" if number > 0 else "−∞"
    return None


def number_text(value: object) -> str:
    """A stored number as written: up to 15 significant digits, no trailing zeros, no
    exponent (1803345.402, 2000000, 0.000123); NULL is empty, NaN and infinities are
    words. Anything that is no number is returned as text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)
    if (special := _special(number)) is not None:
        return special
    if number == 0:
        return "0"  # (-0.0 too)
    text = f"{number:.{_DIGITS}g}"
    if _significant(text) >= _COMPUTED and not number.is_integer():
        text = f"{number:.{_SHOWN}g}"
    if _TINY <= abs(number) < _HUGE:
        return _positional(text)
    return text


def rounded(value: float | None, digits: int) -> str:
    """`value` to `digits` significant digits, without an exponent: a ratio of 1234.5
    to 3 digits is 1230 (where `%.3g` says 1.23e+03)."""
    if value is None:
        return ""
    number = float(value)
    if (special := _special(number)) is not None:
        return special
    if number == 0:
        return "0"
    text = f"{number:.{digits}g}"
    if _TINY <= abs(number) < _HUGE:
        return _positional(text)
    return text


def count_text(value: int | float | None) -> str:
    """A count for a headline (the report's cards): thousands separated, 12,345."""
    if value is None:
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)
    if (special := _special(number)) is not None:
        return special
    if number.is_integer() and abs(number) < _HUGE:
        return f"{int(number):,}"
    return number_text(number)
