"""Reading the files the commands are given (``-``: standard input), with a one-line reason
when one cannot be read as text."""

from __future__ import annotations

import sys
from pathlib import Path


def read_text(name: str) -> str:
    """The UTF-8 text of file ``name`` (a byte-order mark dropped); ValueError with a one-line
    reason if it cannot be read."""
    try:
        data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except FileNotFoundError:
        raise ValueError("no such file") from None
    except IsADirectoryError:
        raise ValueError("is a directory, not a file") from None
    except PermissionError:
        raise ValueError("permission denied") from None
    except OSError as e:
        raise ValueError(f"cannot read: {e.strerror or e}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"not UTF-8 text (bad byte at offset {e.start})") from None
