"""The browser client's state is written in one place (issue 32): ``core/store.js``. These tests
read the client's modules and fail at any write to ``S`` elsewhere, and run the store in node
(no browser): its reducers know exactly the server's messages, and the golden transcripts
played through it leave each page with the state the server has for that seat."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tarot.server import protocol as p

JS = Path(__file__).resolve().parents[1] / "src" / "tarot" / "server" / "static" / "js"
TRANSCRIPTS = Path(__file__).resolve().parent / "data" / "transcripts"
STORE = "core/store.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (.ci/run installs it)")

# ``S.x = …``, ``S.x += …``, ``S.x++``, ``S.x.y = …``, ``S.x[k] = …``, ``delete S.x``, and the
# methods that change a Map, a Set or an Array in place, called on something ``S`` holds.
_ASSIGN = re.compile(r"\bS\.[\w$]+(?:\.[\w$]+|\[[^\]]*\])*\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|\?\?|&&|\|\|)?=(?!=)")
_STEP = re.compile(r"(?:\+\+|--)\s*S\.[\w$]+|\bS\.[\w$]+(?:\.[\w$]+|\[[^\]]*\])*\s*(?:\+\+|--)")
_DELETE = re.compile(r"\bdelete\s+S\.")
_MUTATE = re.compile(r"\bS\.[\w$]+(?:\.[\w$]+|\[[^\]]*\])*\.(?:set|add|delete|clear|push|pop|shift|unshift|"
                     r"splice|sort|reverse|fill|copyWithin)\(")
_WHOLE = re.compile(r"(?<![\w$.])S\s*=(?!=)|Object\.assign\(\s*S\s*,")


def writes_to_state(source: str) -> list[str]:
    """Each line of a module's ``source`` that writes to the page's state ``S``."""
    lines = [line.split("//")[0] for line in source.splitlines()]  # (a comment may say ``S.x = …``)
    return [line.strip() for line in lines
            if any(rule.search(line) for rule in (_ASSIGN, _STEP, _DELETE, _MUTATE, _WHOLE))]


def test_the_checker_sees_every_kind_of_write() -> None:
    writes = ["S.me = m.player;", "S.chat.version++;", "++S.retry;", "S.lobbyShown += 50;",
              "S.chat[room] = [];", "S.selected.add(c);", "S.lobby.set(id, tb);", "S.invitations.push(m);",
              "S.open.delete(id);", "S.kept.clear();", "delete S.hint;", "S.token ??= t;",
              "S.chat.table.splice(0, 1);", "Object.assign(S, changes);", "S = {};"]
    for line in writes:
        assert writes_to_state(line) == [line], line
    reads = ["if (S.version === m.version) return;", "const x = S.selected.has(c);", "f(S.me, S.state);",
             "return S.version == null;", "if (S.sentAt !== S.version) act();", "a = S.table === b;",
             "// S.me = no one: a comment", "const open = new Set(S.open);", "x => S.lobby.get(id)"]
    for line in reads:
        assert writes_to_state(line) == [], line


def test_only_the_store_writes_the_pages_state() -> None:
    modules = sorted(JS.rglob("*.js"))
    assert len(modules) > 25 and (JS / STORE) in modules
    found = {m.relative_to(JS).as_posix(): writes_to_state(m.read_text(encoding="utf-8")) for m in modules}
    assert found.pop(STORE), "the store writes the state (its apply)"
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_client_is_in_folders_by_area() -> None:
    areas = {d.name for d in JS.iterdir() if d.is_dir()}
    assert areas == {"core", "cards", "table", "lobby", "players", "community", "competitions", "scoresheet"}
    for area in areas - {"core", "cards"}:  # each exports its reducers and its handlers
        assert (JS / area / "reduce.js").is_file() and (JS / area / "index.js").is_file(), area
    assert sorted(m.name for m in JS.glob("*.js")) == ["main.js", "reducers.js"]


def _run_node(tmp_path: Path, script: str, stdin: str = "") -> object:
    """``script`` run as an ES module beside a copy of the client's modules (node treats ``.js``
    as a module only under a ``package.json`` that says so)."""
    root = tmp_path / "js"
    shutil.copytree(JS, root)
    (root / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (root / "check.js").write_text(script, encoding="utf-8")
    assert NODE is not None
    done = subprocess.run([NODE, str(root / "check.js")], input=stdin, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_node
def test_the_stores_reducers_know_exactly_the_servers_messages(tmp_path: Path) -> None:
    """A server message added on one side only fails here, not in a player's console."""
    types = _run_node(tmp_path, """import {REDUCERS} from "./reducers.js";
console.log(JSON.stringify(Object.keys(REDUCERS.server)));""")
    assert isinstance(types, list)
    assert sorted(types) == sorted(p.SERVER_TYPES)


# Each recipient's page in turn, in one node process (a module's state is the process's: each
# page starts on a fresh copy of the store, imported under its own query string; the reducers
# are pure and shared).
_REPLAY = """import {readFileSync} from "node:fs";
import {REDUCERS} from "./reducers.js";
const pages = JSON.parse(readFileSync(0, "utf8")), out = {};
for (const [recipient, messages] of Object.entries(pages)) {
  const fresh = "?" + encodeURIComponent(recipient);
  const {S, change, receive, use} = await import("./core/store.js" + fresh);
  use(REDUCERS);
  change("route", {table: messages.find((m) => m.table).table});
  const states = [];
  for (const m of messages) {
    receive(m);
    if (m.type === "snapshot" || m.type === "event") states.push({state: S.state, version: S.version});
  }
  out[recipient] = {states, selected: [...S.selected]};
}
console.log(JSON.stringify(out));
"""


@needs_node
@pytest.mark.parametrize("players", [3, 5])
def test_a_golden_game_through_the_store_leaves_each_page_the_servers_state(tmp_path: Path,
                                                                            players: int) -> None:
    """Each seat's and the spectator's messages of a whole recorded game (two deals), in order,
    through the page's store: after every snapshot and event the page's table state is the one
    the server's merge gives (``protocol.merge_state``), version included."""
    by_recipient: dict[str, list[dict[str, object]]] = {}
    for line in (TRANSCRIPTS / f"game-{players}p.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        by_recipient.setdefault(record["to"], []).append(record["message"])
    assert len(by_recipient) == players + 1
    pages = _run_node(tmp_path, _REPLAY, json.dumps(by_recipient))
    assert isinstance(pages, dict) and set(pages) == set(by_recipient)
    for recipient, messages in by_recipient.items():
        expected, state = [], None
        for m in messages:
            if m["type"] in ("snapshot", "event"):
                state = p.merge_state(state, m)
                expected.append({"state": state, "version": m["version"]})
        got = pages[recipient]
        assert len(got["states"]) == len(expected) > 100, recipient
        assert got["states"] == expected, recipient
        assert got["selected"] == []  # (a played card clears the selection)
        final = got["states"][-1]["state"]
        assert final["table"]["status"] == "finished" and final["you"] == (
            -1 if recipient == "spectator" else int(recipient.split()[1]))


_SCRIPT = """import {S, change, receive, use} from "./core/store.js";
import {REDUCERS} from "./reducers.js";
use(REDUCERS);
const out = {};
const keep = (name, value) => { out[name] = JSON.parse(JSON.stringify(value, (k, v) =>
  v instanceof Map ? Object.fromEntries(v) : v instanceof Set ? [...v] : v)); };
const summary = (id, status) => ({id, status, options: {}, host: null, seats: []});

// the guest's token is kept when an account is welcomed (it has none); a refused name is forgotten
receive({type: "welcome", player: {id: "g", name: "Ann", account: false}, token: "tok"});
receive({type: "welcome", player: {id: "a", name: "Ann", account: true}, token: null});
keep("welcomed", {me: S.me, token: S.token});
change("named", {name: "Bob"});
receive({type: "error", code: "name_taken", reason: "taken"});
keep("refused", {name: S.name, me: S.me});
receive({type: "error", code: "illegal", reason: "no"});
keep("illegal", {name: S.name});

// the lobby: its first page, changes, the next page fetched
receive({type: "lobby", tables: [summary("t1", "waiting"), summary("t2", "playing")], total: 3, offset: 0});
const first = S.lobby;
receive({type: "lobby_update", changed: [summary("t2", "finished"), summary("t4", "waiting")],
  removed: ["t1"], total: 3});
keep("lobby", {ids: [...S.lobby.keys()], t2: S.lobby.get("t2").status, total: S.lobbyTotal,
  firstKept: first.size});
change("lobby_page", {tables: [summary("t9", "waiting")]});
keep("page", {ids: [...S.lobby.keys()], shown: S.lobbyShown});

// a table watched: the chat of another table is not shown, a room keeps its last 100 lines
change("route", {table: "T"});
const line = (i, where = "table", table = "T") => ({id: i, where, table, from: {id: "x"}, text: "" + i});
receive({type: "chat", message: line(0, "table", "OTHER")});
for (let i = 1; i <= 105; i++) receive({type: "chat", message: line(i)});
receive({type: "chat", message: line(200, "lobby", null)});
keep("chat", {table: S.chat.table.map((l) => l.id), lobby: S.chat.lobby.length, version: S.chat.version});
receive({type: "muted", player: "x", mute: true});
receive({type: "muted", player: "y", mute: true});
receive({type: "muted", player: "y", mute: false});
keep("muted", S.muted);

// friends and invitations (the latest first, one per table, at most five)
receive({type: "friends", friends: [{id: "f1", name: "F1", online: false, table: null}]});
receive({type: "friend_update", friend: {id: "f2", name: "F2", online: true, table: "T"}, removed: false});
receive({type: "friend_update", friend: {id: "f1", name: "F1", online: false, table: null}, removed: true});
keep("friends", S.friends);
for (const t of ["a", "b", "c", "a", "d", "e", "f"])
  receive({type: "invitation", table: t, from: {id: "f2", name: "F2"}, code: null});
keep("invitations", S.invitations.map((i) => i.table));
change("invitation_done", {table: "e"});
keep("invitations_after", S.invitations.map((i) => i.table));

// the player's cards: toggled, a poignée chosen then given up; the invite kept on the same table only
change("toggle", {card: "KH"}); change("toggle", {card: "QH"}); change("toggle", {card: "KH"});
keep("toggled", S.selected);
change("poignee_start", {cards: ["T1", "T2"], count: 2});
keep("poignee", {selected: S.selected, poignee: S.poignee});
change("poignee_end");
keep("poignee_end", {selected: S.selected, poignee: S.poignee});
receive({type: "invite", table: "T", code: "c1"});
receive({type: "invite", table: "OTHER", code: "c2"});
change("route", {table: "T"});
keep("same_table", S.invite);
change("route", {table: "U"});
keep("other_table", {invite: S.invite, table: S.table, state: S.state});
let refused = null;
try { change("no_such_change"); } catch (e) { refused = e.message; }
keep("unknown", refused);
console.log(JSON.stringify(out));
"""


@needs_node
def test_the_stores_reducers_do_what_the_page_needs(tmp_path: Path) -> None:
    """Messages in, state out, for each area's reducers (the table's are checked against the
    golden transcripts above)."""
    got = _run_node(tmp_path, _SCRIPT)
    assert isinstance(got, dict)
    assert got["welcomed"] == {"me": {"id": "a", "name": "Ann", "account": True}, "token": "tok"}
    assert got["refused"] == {"name": None, "me": None} and got["illegal"] == {"name": None}
    assert got["lobby"] == {"ids": ["t2", "t4"], "t2": "finished", "total": 3, "firstKept": 2}
    assert got["page"] == {"ids": ["t2", "t4", "t9"], "shown": 100}
    assert got["chat"] == {"table": list(range(6, 106)), "lobby": 1, "version": 106}
    assert got["muted"] == ["x"]
    assert got["friends"] == {"f2": {"id": "f2", "name": "F2", "online": True, "table": "T"}}
    assert got["invitations"] == ["f", "e", "d", "a", "c"]
    assert got["invitations_after"] == ["f", "d", "a", "c"]
    assert got["toggled"] == ["QH"]
    assert got["poignee"] == {"selected": ["T1", "T2"], "poignee": 2}
    assert got["poignee_end"] == {"selected": [], "poignee": None}
    assert got["same_table"] == "c1"
    assert got["other_table"] == {"invite": None, "table": "U", "state": None}
    assert got["unknown"] == "no such change: no_such_change"


_NUMBERS = """import {readFileSync} from "node:fs";
globalThis.document = {querySelector: () => null, documentElement: {}};
globalThis.localStorage = {getItem: () => "fr", setItem: () => {}};
globalThis.navigator = {language: "fr"};
globalThis.fetch = async (url) => ({
  json: async () => JSON.parse(readFileSync(I18N + url.split("/i18n/")[1], "utf8"))});
const {number} = await import("./core/i18n.js");
console.log(JSON.stringify([number(-0.7, 1), number(-12), number(1.5, 1, "exceptZero"),
                            number(0, 1, "exceptZero")]));
"""


@needs_node
def test_figures_are_written_in_the_pages_language_with_a_true_minus(tmp_path: Path) -> None:
    """Issue 33: a rating of −0,7 read "-0,7" (a hyphen) in the profile, the ranking and the
    history, each module writing its figures its own way. Now one helper (``core/i18n.number``)
    writes them all, and no module of a player's pages formats a figure by itself."""
    i18n = JS.parent / "i18n"
    got = _run_node(tmp_path, f"const I18N = {json.dumps(str(i18n) + '/')};\n" + _NUMBERS)
    assert got == ["\u22120,7", "\u221212", "+1,5", "0,0"]
    for module in ("players/account.js", "players/replay.js", "players/stats.js"):
        source = (JS / module).read_text(encoding="utf-8")
        # (dates and percentages have no minus: those are Intl's)
        figures = [line for line in source.splitlines() if "toLocaleString(" in line
                   and "new Date(" not in line and '"percent"' not in line]
        assert figures == [], module
