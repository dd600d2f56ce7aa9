"""A table's state has one owner (issue 32): only the table's actor (``table.py``, which calls
``TableState.apply`` in ``table_state.py``) changes it. Every other server module reads it and
returns events; these tests read their source and fail at any write to the state."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from tarot.server.table.state import TableState

SERVER = Path(__file__).resolve().parents[1] / "src" / "tarot" / "server"
# the actor, the state's ``apply``, and the game's own methods (``ServerGame.apply``,
# ``close_deal``), which only ``apply`` calls (a call elsewhere is caught below)
OWNERS = ("table/actor.py", "table/state.py", "table/game.py")
STATE = {f.name for f in dataclasses.fields(TableState)}
# What the state holds that is not frozen: the game and its deal under way (a seat, a pause
# between deals and a vote are frozen, so a write to them fails by itself).
GAME = {"current", "outcome", "cancelled", "db_id", "actions", "score_sheet"}
MUTATORS = {"add", "discard", "append", "extend", "insert", "pop", "remove", "clear", "update",
            "setdefault", "sort", "reverse"}
STATE_METHODS = {"apply", "restore", "close_deal"}  # (the state's and the game's own)


def _field_of(node: ast.expr) -> str | None:
    """``x.seats`` → "seats" when ``seats`` is a state or game field, and ``x`` is not ``self``
    (a class's own attribute of the same name is its own business)."""
    own = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
    if isinstance(node, ast.Attribute) and node.attr in STATE | GAME and not own:
        return node.attr
    return None


def state_writes(source: str) -> list[str]:
    """Each line of ``source`` that writes to a table's state: an assignment (plain, augmented,
    annotated, deleted) to a state or game field or to an item of one, a mutating method called
    on one, or the state's own changing methods called on ``state`` or a game."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        while any(isinstance(t, ast.Tuple | ast.List) for t in targets):  # (``a, b.c = …``)
            targets = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple | ast.List) else [t])]
        for target in targets:
            part = target  # down the written chain (``a.b[i].c``), not into its indexes
            while isinstance(part, ast.Attribute | ast.Subscript):
                if _field_of(part) is not None:
                    found.append(f"{node.lineno}: {ast.unparse(target)}")
                    break
                part = part.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, name = node.func.value, node.func.attr
            changer = name in STATE_METHODS and ast.unparse(owner).split(".")[-1] in ("state", "game")
            if (name in MUTATORS and _field_of(owner) is not None) or changer:
                found.append(f"{node.lineno}: {ast.unparse(node.func)}")
    return sorted(found, key=lambda f: int(f.split(":")[0]))


def reaches_tables(path: Path) -> bool:
    """The module is in the table's package or imports from it (so it may hold a table's
    state): the others (the statistics' cache has ``seats`` of its own) are not the checker's
    business."""
    if path.parent.name == "table":
        return True
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level and (node.module or "").split(".")[0] == "table":
            return True
    return False


def test_only_the_actor_changes_a_table_state() -> None:
    files = sorted(SERVER.rglob("*.py"))
    checked = [p for p in files if p.relative_to(SERVER).as_posix() not in OWNERS and reaches_tables(p)]
    assert len(checked) > 15
    for path in checked:
        found = state_writes(path.read_text(encoding="utf-8"))
        assert not found, (path.name, found)


def test_the_handlers_are_among_the_modules_checked() -> None:
    for name in ("seating.py", "flow.py", "cancelvote.py", "autoplay.py", "hints.py", "render.py"):
        assert (SERVER / "table" / name).exists() and f"table/{name}" not in OWNERS


def test_the_owner_checker_catches_each_way_of_writing() -> None:
    source = "\n".join([
        "state.status = 'finished'",  # 1: a field
        "t.state.version += 1",  # 2: augmented
        "table.seats[0] = Seat()",  # 3: an item of a field
        "state.invited.add(pid)",  # 4: a mutating method
        "state.game.current = info",  # 5: the game's deal under way
        "state.apply(event, now)",  # 6: the actor's own method
        "del state.vote",  # 7: deleted
        "game.close_deal()",  # 8: the game's changing method
        "self.status = 'x'",  # 9: a class's own attribute: allowed
        "x = state.status",  # 10: a read: allowed
        "rows.append(state.seats)",  # 11: a read passed on: allowed
        "info.db_id: int = 3",  # 12: annotated
        "a, (b, t.host) = 1, (2, 3)",  # 13: in a tuple
    ])
    found = state_writes(source)
    assert [int(f.split(":")[0]) for f in found] == [1, 2, 3, 4, 5, 6, 7, 8, 12, 13], found


def test_the_frozen_parts_of_the_state_refuse_a_write() -> None:
    """A seat, a pause between deals and a vote are replaced by ``apply``, never changed."""
    import pytest

    from tarot.server.table.seats import Seat
    from tarot.server.table.state import Intermission, Vote

    for value, field in ((Seat(), "name"), (Intermission(1.0), "until"), (Vote(0, 1.0), "accepted")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)
