"""The optional native extensions, in Cython: the engine's core (``tarot.engine._core``) and the
search bot's playout kernel (``tarot.bots._playout``). Built when a compiler and Cython are there,
else the package installs pure Python (``engine/core.py`` and ``bots/rollout.py`` serve), as it
does with ``TAROT_NATIVE=0`` (the same switch that picks the pure core at run time)."""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: nothing to build
    cythonize = None


class OptionalBuildExt(build_ext):
    """build_ext that warns and goes on when an extension does not build."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler: setuptools raises several kinds
            self._skip(error)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._skip(error)

    @staticmethod
    def _skip(error: Exception) -> None:
        print(f"WARNING: a native extension was not built ({error}); its pure-Python twin serves",
              file=sys.stderr)


ext_modules = []
if cythonize is not None and os.environ.get("TAROT_NATIVE") != "0":
    ext_modules = cythonize(
        ["src/tarot/engine/_core.pyx", "src/tarot/bots/_playout.pyx"], quiet=True,
        compiler_directives={"language_level": "3"},
    )

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt})
