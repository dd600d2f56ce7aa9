"""Which ``DealCore`` the engine uses: the native one (``_core``, Cython) when it was built,
unless the environment says ``TAROT_NATIVE=0``; else the pure-Python reference (``core``)."""

from __future__ import annotations

import os

from . import core

DealCore: type[core.DealCore] = core.DealCore
NATIVE = False
if os.environ.get("TAROT_NATIVE", "1") != "0":
    try:
        from . import _core
    except ImportError:  # not built (no compiler or no Cython at install): pure Python
        pass
    else:
        DealCore = _core.DealCore
        NATIVE = True
