"""The architecture of DESIGN.md: the engine is standard library only; nothing imports the server."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "tarot"


def imports(path: Path) -> list[tuple[int, str]]:
    """(level, module) for every import statement of a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    files = sorted((SRC / "engine").rglob("*.py"))
    assert len(files) >= 8
    for path in files:
        for level, module in imports(path):
            if level:
                assert level == 1, f"{path.name} reaches outside the engine: {'.' * level}{module}"
            else:
                top = module.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {module}"


def test_nothing_imports_the_server() -> None:
    for path in sorted(SRC.rglob("*.py")):
        if "server" in path.relative_to(SRC).parts:
            continue
        for _, module in imports(path):
            assert not module.startswith("tarot.server"), f"{path} imports {module}"


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import rich\nfrom ..cli import app\n")
    found = imports(bad)
    assert (0, "rich") in found and (2, "cli") in found
    assert "rich" not in sys.stdlib_module_names
