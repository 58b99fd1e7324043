"""`measure`: a Measurement from a number as written, None when it could not be read."""

from __future__ import annotations

from extract.results.formats.base import Measurement


def measure(
    metric: str,
    written: str,
    value: float | None,
    unit: str | None,
    *,
    label: str | None = None,
    variant: str | None = None,
    row: int | None = None,
) -> Measurement | None:
    """A Measurement, or None when the number could not be read."""
    if value is None:
        return None
    return Measurement(
        metric=metric,
        value=value,
        unit=unit,
        label=label,
        variant=variant,
        written=written,
        row=row,
    )
