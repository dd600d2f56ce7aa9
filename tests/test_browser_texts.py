"""The browser client's two languages (static/i18n/*.json): every text it looks up exists in
both, so switching to French never shows a raw key such as ``poigneeof``."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[1] / "src" / "tarot" / "server" / "static"
MODULES = sorted((STATIC / "js").rglob("*.js"))


def part(lang: str, name: str = "") -> dict[str, Any]:
    """One of a language's two files: the lobby's (``""``) or the other screens' (``".views"``)."""
    loaded: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}{name}.json").read_text(encoding="utf-8"))
    return loaded


def texts(lang: str) -> dict[str, Any]:
    """Every text of a language, as the page holds them once its screens have loaded theirs."""
    return part(lang) | part(lang, ".views")


def shape(value: Any) -> Any:
    """The keys of a text tree, and the length of its lists (the cheat sheet's rows)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    return str


def test_both_languages_have_the_same_texts() -> None:
    files = sorted(p.name for p in (STATIC / "i18n").glob("*.json"))
    assert files == ["en.json", "en.views.json", "fr.json", "fr.views.json"]
    for name in ("", ".views"):  # each file the same keys in both languages, none in both files
        assert set(part("en", name)) == set(part("fr", name)), name
    assert not set(part("en")) & set(part("en", ".views"))
    en, fr = texts("en"), texts("fr")
    assert len(en) > 100
    assert set(en) - set(fr) == set(), "missing in French"
    assert set(fr) - set(en) == set(), "missing in English"
    assert shape(en) == shape(fr)
    assert all(isinstance(v, str) and v.strip() for k, v in en.items() if k != "help")


def test_every_text_looked_up_exists() -> None:
    source = "\n".join(m.read_text(encoding="utf-8") for m in MODULES)
    used = set(re.findall(r'\bt\("(\w+)"\)', source))
    assert {"poigneeof", "poigneepick", "perdefender", "nextdeal", "offline"} <= used
    assert used - set(texts("en")) == set()


def documented_error_codes() -> list[str]:
    """The ``code``s listed under "Errors and limits" in docs/protocol.md, without the fields
    some of them carry (``stake``, ``name``, ``retry_after``...)."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    start = doc.index("`code`s:")
    listing = doc[start:doc.index("\n\n", start)]
    listing = re.sub(r"\(([^()]|\([^()]*\))*\)", "", listing)  # the explanations and their fields
    return re.findall(r"`(\w+)`", listing.removeprefix("`code`s:"))


def test_every_error_code_of_the_protocol_has_a_text() -> None:
    """Every error a player can meet is shown by its code, in both languages, never as the
    server's English ``reason``."""
    codes = documented_error_codes()
    assert {"no_table", "illegal", "moved", "bad_message", "internal"} <= set(codes)
    for lang in ("en", "fr"):
        missing = [c for c in codes if not texts(lang).get(f"err_{c}")]
        assert missing == [], f"no {lang} text for {missing}"


def test_the_client_is_served_with_its_texts(tmp_path: Path) -> None:
    import pytest

    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from tarot.server.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'tarot.sqlite3'}")) as client:
        for lang in ("en", "fr"):
            for name in ("", ".views"):
                answer = client.get(f"/static/i18n/{lang}{name}.json")
                assert answer.status_code == 200 and answer.json() == part(lang, name)


def test_the_client_is_modules_with_one_click_listener() -> None:
    """No click handler on an element: clicks go through main.js's one delegated listener."""
    names = {m.relative_to(STATIC / "js").as_posix() for m in MODULES}
    assert {"main.js", "core/net.js", "core/store.js", "core/i18n.js", "cards/cards.js", "lobby/lobby.js",
            "table/table.js", "table/result.js", "table/sheet.js"} <= names
    sources = {m.relative_to(STATIC / "js").as_posix(): m.read_text(encoding="utf-8") for m in MODULES}
    assert not [name for name, source in sources.items() if "onclick" in source]
    clicks = {name: source.count('addEventListener("click"') for name, source in sources.items()}
    assert {name: n for name, n in clicks.items() if n} == {"main.js": 1}
    assert 'document.addEventListener("click"' in sources["main.js"]
    assert "does not know" in sources["core/store.js"]  # an unknown server message is reported


ENGINE = Path(__file__).resolve().parents[1] / "src" / "tarot" / "engine"


def engine_why_codes() -> set[str]:
    """The reason codes the engine's refusals carry (``IllegalAction(rule, reason, why, …)``)."""
    trees = [ast.parse((ENGINE / name).read_text(encoding="utf-8")) for name in ("deal.py", "core.py")]
    return {node.args[2].value for tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction"
            and len(node.args) > 2 and isinstance(node.args[2], ast.Constant)}


def test_every_refusal_reason_is_said_in_both_languages_and_documented() -> None:
    """Issue 16, item 9: a move the rules refuse is said in the player's language from its code,
    and docs/protocol.md lists the codes a client may meet."""
    codes = engine_why_codes()
    assert {"must_follow", "must_overtrump", "must_trump", "not_your_turn", "ecart_king"} <= codes
    for lang in ("en", "fr"):
        assert {f"why_{c}" for c in codes} - set(texts(lang)) == set(), lang
        assert {k[4:] for k in texts(lang) if k.startswith("why_")} == codes, lang
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = doc[doc.index("| `why` |"):]
    table = table[:table.index("\n\n")]
    names = {"why", "args", "suit", "card", "count", "counts", "bid"}  # the table's heads and arguments
    assert set(re.findall(r"`([a-z_]+)`", table)) - names == codes


def test_french_punctuation_has_its_no_break_spaces() -> None:
    """Issue 16, item 9: in French a colon takes a no-break space before it (and ; ? ! a narrow
    one), so "Preneur :" never breaks before its colon; English has none. French elides with
    the typographic apostrophe (l’écart), never a straight one beside it."""
    def strings(x: Any) -> list[str]:
        if isinstance(x, str):
            return [x]
        items = x.values() if isinstance(x, dict) else x
        return [s for v in items for s in strings(v)]

    fr = strings(texts("fr"))
    assert any("\u00a0:" in s for s in fr)
    for s in fr:
        assert not re.search(r" [:;?!]", s), s
        assert not re.search(r"\w[:;?!]", s), s
        assert "'" not in s, s
    for s in strings(texts("en")):
        assert not re.search(r"[\u00a0\u202f][:;?!]", s), s


def test_every_bot_kind_has_a_short_name_in_both_languages() -> None:
    """The bots the host seats are shown as "Robot 2", "Robot+ 3" (their kind from the bot
    registry): short enough that a phone does not cut the number off."""
    from tarot.bots import BOT_NAMES

    for lang in ("en", "fr"):
        for kind in BOT_NAMES:
            name = texts(lang)[f"botname_{kind}"]
            assert 0 < len(name) <= 12, name


def test_a_toast_starts_with_a_capital() -> None:
    """Issue 33: a toast (a sentence on its own) starts with a capital letter in both languages,
    or with a name; "temps écoulé : le serveur a joué pour …" read as a fragment."""
    looked_up = set()
    for module in MODULES:
        for call in re.findall(r"toast\((.{0,80})", module.read_text(encoding="utf-8")):
            # the text that opens the toast: t("key"), fill("key", …) or `${t("key")} …`
            first = re.match(r"""(?:`\$\{)?(?:t|fill)\("(\w+)\"""", call)
            if first:
                looked_up.add(first.group(1))
    assert {"timeout", "copied", "invited_by"} <= looked_up, looked_up
    for lang in ("en", "fr"):
        said = texts(lang)
        for key in looked_up:
            assert said[key][0].isupper() or said[key].startswith("{"), (lang, key, said[key])


def test_the_lobby_has_its_texts_without_the_other_screens() -> None:
    """Issue 33, a light first load: the texts the lobby's own modules look up are in the lobby's
    file (<lang>.json); <lang>.views.json holds only those of the screens loaded later."""
    lazy = {"players/replay.js", "players/review.js", "players/stats.js", "players/accuracy.js",
            "scoresheet/scoresheet.js", "scoresheet/codec.js",
            "table/table.js", "table/result.js", "table/hint.js", "table/sheet.js", "table/help.js"}
    views = set(part("en", ".views"))
    for module in MODULES:
        if module.relative_to(STATIC / "js").as_posix() in lazy:
            continue
        looked_up = set(re.findall(r"""\bt\("(\w+)"\)|fill\("(\w+)\"""", module.read_text(encoding="utf-8")))
        named = {a or b for a, b in looked_up}
        assert not named & views, (module.name, named & views)
