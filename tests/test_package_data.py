"""Every file the site needs besides its Python modules is in the wheel (issue 32: the package
data must follow the folders): each file git tracks under ``src/tarot`` that is not Python
source is matched by a pattern of ``[tool.setuptools.package-data]``. A new folder of the
browser's modules would otherwise be missing from an installed site, and only from it."""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILT_FROM = {".pyx", ".c"}  # the native cores' sources: built at install, not shipped as data


def in_wheel(path: str, patterns: list[str]) -> bool:
    """Whether setuptools ships ``path`` (relative to the package) for one of ``patterns``: its
    "*" stops at a folder, as fnmatch's does not, so the folders must match too."""
    return any(fnmatch.fnmatch(path, p) and path.count("/") == p.count("/") for p in patterns)


def test_every_file_of_the_site_is_in_the_package_data() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"]["setuptools"]["package-data"]["tarot"]
    tracked = subprocess.run(["git", "ls-files", "src/tarot"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    data = [Path(f).relative_to("src/tarot").as_posix() for f in tracked
            if Path(f).suffix not in {".py", *BUILT_FROM}]
    assert len(data) > 25  # the page, its styles, its texts, its modules, the migrations' template
    missing = [f for f in data if not in_wheel(f, patterns)]
    assert not missing, f"not in the wheel: {missing}"


def test_the_checker_sees_a_file_in_a_new_folder() -> None:
    patterns = ["server/static/js/*.js"]
    assert in_wheel("server/static/js/net.js", patterns)
    assert not in_wheel("server/static/js/table/actor.js", patterns)
