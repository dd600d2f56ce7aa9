"""The browser client's two languages (static/app.js): every text it looks up exists in both,
so switching to French never shows a raw key such as ``poigneeof``."""

from __future__ import annotations

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "src" / "tarot" / "server" / "static" / "app.js"
KEY = re.compile(r'(?:^|[{,])\s*(\w+):\s*"', re.M)


def dictionaries() -> dict[str, set[str]]:
    source = APP.read_text(encoding="utf-8")
    table = source[source.index("const T = {"):source.index("};\n", source.index("const T = {"))]
    starts = [(m.group(1), m.end()) for m in re.finditer(r"^  (\w+): \{", table, re.M)]
    out = {}
    for i, (lang, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(table)
        out[lang] = set(KEY.findall(table[start:end]))
    return out


def test_both_languages_have_the_same_texts() -> None:
    langs = dictionaries()
    assert set(langs) == {"en", "fr"}
    assert len(langs["en"]) > 50
    assert langs["en"] - langs["fr"] == set(), "missing in French"
    assert langs["fr"] - langs["en"] == set(), "missing in English"


def test_every_text_looked_up_exists() -> None:
    used = set(re.findall(r'\bt\("(\w+)"\)', APP.read_text(encoding="utf-8")))
    assert {"poigneeof", "poigneepick", "perdefender"} <= used
    assert used - dictionaries()["en"] == set()
