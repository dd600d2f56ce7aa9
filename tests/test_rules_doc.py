"""docs/rules.md states every rule in the repository itself and points at code and tests that
exist: every rule R1–R26 has its statement, every file and test it names is there, and it links
nowhere outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
ENGINE = ROOT / "src" / "tarot" / "engine"


def test_every_rule_is_stated() -> None:
    stated = re.findall(r"^\*\*R(\d+)\. ", DOC, re.M)
    assert [int(n) for n in stated] == list(range(1, 27))
    for n in range(1, 27):  # each with its code and its tests
        part = DOC.split(f"**R{n}. ")[1].split("**R")[0]
        assert "Code:" in part and "Tests:" in part, f"R{n}"


def test_every_file_and_test_named_exists() -> None:
    for name in set(re.findall(r"`((?:server/)?\w+\.py)(?:::(\w+))?`", DOC)):
        file, _ = name
        path = ROOT / "tests" / file if file.startswith("test_") else (
            ROOT / "src" / "tarot" / file if file.startswith("server/") else ENGINE / file)
        assert path.is_file(), file
    for file, test in re.findall(r"`(test_\w+\.py)::(\w+)`", DOC):
        assert re.search(rf"def {test}\b", (ROOT / "tests" / file).read_text(encoding="utf-8")), test


def test_no_link_leaves_the_repository() -> None:
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "](../" not in text, doc.name
