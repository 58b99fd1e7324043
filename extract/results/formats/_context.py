"""`measure`, where prose.py imports it from (the other formats use `_rows`)."""

from extract.results.formats._rows import measure

__all__ = ["measure"]
