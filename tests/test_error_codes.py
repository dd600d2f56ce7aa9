"""Every error code the server can send is documented (issue 34.11): a client written from
docs/protocol.md and docs/api.md alone must know each code it may get. The codes are read from
the server's source: the string given as the code of ``Error.build(reason, code)``, ``_error(status,
code, message)``, the API's ``…Error(status, code, message)`` refusals and the ``(reason, code)``
pairs kept for later."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "src/tarot/server"
DOCS = [ROOT / "docs/protocol.md", ROOT / "docs/api.md"]


def _callee(call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr == "build":  # a message that builds itself: ``p.Error.build``
        f = f.value
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _refuses(name: str) -> bool:
    return name in ("error", "_error") or (name.endswith("Error") and name[0].isupper())


def _reason(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and " " in node.value


def sent_codes() -> dict[str, str]:
    """Each code the server's source passes as an error's code, with where it is first."""
    found: dict[str, str] = {}
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Tuple) and len(node.elts) == 2 and _reason(node.elts[0]):
                given = node.elts[1:]  # a refusal kept as (reason, code), as table_kinds does
            elif isinstance(node, ast.Call) and _refuses(_callee(node)):
                given = [k.value for k in node.keywords if k.arg == "code"] + node.args[1:2]
            else:
                continue
            for arg in given:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                        and re.fullmatch(r"[a-z]+(_[a-z]+)*", arg.value):
                    found.setdefault(arg.value, f"{path.name}:{node.lineno}")
    return found


def test_the_scan_finds_the_codes_it_must() -> None:
    codes = sent_codes()  # one of each kind: the websocket's, the API's, an account's, an event's, a pair
    assert {"no_table", "signed_out", "wrong_password", "no_event", "removed", "challenge_table"} <= set(
        codes)


def test_every_error_code_the_server_sends_is_documented() -> None:
    documented = set(re.findall(r"`([a-z]+(?:_[a-z]+)*)`", " ".join(p.read_text() for p in DOCS)))
    missing = {code: where for code, where in sent_codes().items() if code not in documented}
    assert not missing, f"error codes sent but not in docs/protocol.md or docs/api.md: {missing}"


def test_the_chat_limits_are_documented_as_the_server_keeps_them() -> None:
    """Issue 34.11: the docs said "one every 2 s" while a refusal cut the player off for 10 s."""
    from tarot.server.community.chat import CHAT_BURST, CHAT_COOLDOWN, CHAT_RATE

    said = re.search(r"may send (\d+) at once, then one every (\d+) s; a message over that is refused "
                     r"\(`chat_flood` with `retry_after`\) and so is every other for the next (\d+) s",
                     DOCS[0].read_text())
    assert said is not None
    assert [float(n) for n in said.groups()] == [CHAT_BURST, 1 / CHAT_RATE, CHAT_COOLDOWN]
