"""The architecture (docs/architecture.md): the engine is standard library only; nothing imports the site."""

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
        elif isinstance(node, ast.ImportFrom) and node.module:  # a name may be a module too
            found.append((node.level, node.module))
            found += [(node.level, f"{node.module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):  # ``from . import server``: the names are modules
            found += [(node.level, alias.name) for alias in node.names]
    return found


def check_package(package: str, minimum: int, allowed: tuple[str, ...]) -> None:
    """Every file of ``src/tarot/<package>`` imports only itself (one level of relative import),
    the standard library and the ``allowed`` packages."""
    files = sorted((SRC / package).rglob("*.py"))
    assert len(files) >= minimum
    for path in files:
        where = f"{package}/{path.name}"
        for level, module in imports(path):
            if level:
                assert level == 1, f"{where} reaches outside: {'.' * level}{module}"
            elif module.startswith("tarot"):
                assert allowed and module.startswith(allowed), f"{where} imports {module}"
            else:
                assert module.split(".")[0] in sys.stdlib_module_names, f"{where} imports {module}"


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    check_package("engine", 8, ())


def test_nothing_imports_the_server() -> None:
    # The launchers are the exception: ``tarot serve`` in cli/commands.py imports the server inside the
    # command, and so does ``tarot ladder`` with cli/ladder.py (its ratings and database are the
    # site's), so that nothing else ever loads it.
    launchers = (SRC / "cli" / "commands.py", SRC / "cli" / "ladder.py")
    for path in sorted(SRC.rglob("*.py")):
        if "server" in path.relative_to(SRC).parts:
            continue
        for level, module in imports(path):
            if module.startswith("tarot.server"):
                assert path in launchers, f"{path} imports {module}"
            in_package = (path.parent == SRC and level == 1) or (path.parent != SRC and level == 2)
            if in_package and module.split(".")[0] == "server":
                assert path in launchers, f"{path} imports .{module}"


def test_the_server_sits_on_the_engine_and_the_bots_only() -> None:
    """The site: the engine, the bots, its own modules, the standard library and its web and
    storage libraries; never the command line."""
    third_party = {"fastapi", "starlette", "pydantic", "sqlalchemy", "alembic", "orjson", "uvicorn", "argon2",
                   "openskill", "redis", "disarm", "psycopg"}
    for path in sorted((SRC / "server").rglob("*.py")):
        for level, module in imports(path):
            where = path.relative_to(SRC)
            if level:
                assert module.split(".")[0] != "cli", f"{where} imports .{module}"
            elif module.startswith("tarot"):
                assert module.startswith(("tarot.engine", "tarot.bots", "tarot.server")), f"{where}: {module}"
            else:
                top = module.split(".")[0]
                assert top in sys.stdlib_module_names or top in third_party, f"{where} imports {module}"


def test_nobody_outside_the_command_line_imports_it() -> None:
    for path in sorted(SRC.rglob("*.py")):
        if "cli" in path.relative_to(SRC).parts:
            continue
        for level, module in imports(path):
            assert not module.startswith("tarot.cli"), f"{path} imports {module}"
            in_package = (path.parent == SRC and level == 1) or (path.parent != SRC and level == 2)
            assert not (in_package and module.split(".")[0] == "cli"), f"{path} imports .{module}"


def test_the_command_line_lives_in_one_package() -> None:
    """cli/: the typer app, the terminal game and its rendering, the score tables, the texts."""
    names = {p.name for p in (SRC / "cli").glob("*.py")}
    assert {"commands.py", "terminal.py", "terminal_render.py", "score_tables.py", "i18n.py"} <= names
    assert not [p.name for p in SRC.glob("*.py") if p.name not in ("__init__.py",)]


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import rich\nfrom ..cli import app\nfrom . import server\n"
                   "from tarot import server as s\n")
    found = imports(bad)
    assert (0, "rich") in found and (2, "cli") in found
    assert (1, "server") in found
    assert (0, "tarot.server") in found
    assert "rich" not in sys.stdlib_module_names


def test_bots_sit_on_the_engine_only() -> None:
    """Bots use the engine's public API and the standard library: no CLI, arena or server."""
    check_package("bots", 8, ("tarot.engine",))


def test_the_launcher_loads_the_server_only_inside_its_command() -> None:
    tree = ast.parse((SRC / "cli" / "commands.py").read_text(encoding="utf-8"))
    top = [node.module for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert not [m for m in top if m and "server" in m.split(".")], top
    assert "ladder" not in top, "cli/ladder.py loads the server: import it inside `tarot ladder` only"
    users = [p.name for p in (SRC / "cli").glob("*.py") if any(m.endswith("ladder") for _, m in imports(p))]
    assert users == ["commands.py"], users


# The server's time is its injected clock (``server/clock.py``, issue 32): a module that read the
# wall clock, slept or armed a loop timer itself would be out of the tests' reach (they move a
# ``ManualClock`` instead of waiting). Waits that bound network I/O (a socket's close, Redis) stay
# on the event loop: they guard the machine, not a game's time.
IO_TIMEOUTS = {"connection.py", "shared_limits.py"}


def wall_clock_reads(source: str, io_timeouts: bool = False) -> list[str]:
    """What in ``source`` reads or waits on time without a clock, each with its line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"{line}: import {n}" for n in names if n == "time"]
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name, owner = node.func.attr, ast.unparse(node.func.value)
        zero = bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0
        if ((name in ("now", "utcnow", "today") and owner.split(".")[-1] in ("datetime", "date"))
                or (name == "time" and "loop" in owner)
                or (name in ("call_later", "call_at") and "clock" not in owner)
                or (name == "sleep" and owner == "asyncio" and not zero)
                or (name in ("wait_for", "timeout", "timeout_at") and owner == "asyncio"
                    and not io_timeouts)):
            found.append(f"{line}: {ast.unparse(node.func)}")
    return found


def test_the_server_reads_time_only_through_its_clock() -> None:
    files = sorted((SRC / "server").rglob("*.py"))
    assert len(files) > 40
    for path in files:
        if path.name != "clock.py":
            source = path.read_text(encoding="utf-8")
            found = wall_clock_reads(source, path.name in IO_TIMEOUTS)
            assert not found, (path.name, found)


def test_the_clock_checker_catches_each_way_round_it() -> None:
    source = ("import time\nimport datetime as dt\n"
              "a = time.monotonic()\nb = dt.datetime.now(dt.UTC)\nc = asyncio.get_running_loop().time()\n"
              "loop.call_later(1, f)\nasync def g():\n"
              "    await asyncio.sleep(0.5)\n    await asyncio.sleep(0)\n"
              "    await asyncio.wait_for(x, 1)\n    clock.call_later(1, f)\n")
    found = wall_clock_reads(source)
    assert [f.split(":")[0] for f in found] == ["1", "4", "5", "6", "8", "10"], found
    assert len(wall_clock_reads(source, io_timeouts=True)) == 5


def test_the_engine_and_bots_pass_keeps_their_tests_and_leaves_the_sites() -> None:
    """CI's pure-Python pass (``pytest --engine-and-bots``, conftest.py) runs every module that
    does not start the site: the parity tests and the bots' among them."""
    from conftest import _of_the_site

    tests = Path(__file__).parent
    for name in ("test_native_parity", "test_playout_parity", "test_bots", "test_perft", "test_arena",
                 "test_cli"):
        assert not _of_the_site(tests / f"{name}.py"), name
    for name in ("test_server", "test_table", "test_transcripts", "test_e2e_hint", "test_ladder",
                 "test_cluster"):
        assert _of_the_site(tests / f"{name}.py"), name


def server_imports() -> dict[str, set[str]]:
    """Each server module (``table``, ``table.state`` once in packages) and the server modules
    it imports: anywhere in it, under ``TYPE_CHECKING`` or inside a function too (design ties
    all the same)."""
    root = SRC / "server"
    modules = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
               for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package[:len(package) - node.level + 1]
            elif (node.module or "").startswith("tarot.server"):
                base = []
            else:
                continue
            module = (node.module or "").removeprefix("tarot.server")
            stem = base + [part for part in module.split(".") if part]
            for alias in node.names:
                for candidate in (".".join([*stem, alias.name]), ".".join(stem)):
                    if candidate in modules and candidate != name:
                        graph[name].add(candidate)
                        break
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The import circles: the strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_ties_more_than_three_server_modules() -> None:
    graph = server_imports()
    assert len(graph) > 40 and graph["table.actor"] >= {"table.state", "table.flow", "table.seating"}
    too_big = [sorted(c) for c in circles(graph) if len(c) > 3]
    assert not too_big, too_big


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [{"a", "b", "c"}]


def test_the_server_folders_show_its_parts() -> None:
    """Issue 32: the server is in packages (docs/architecture.md has their map), a few modules
    loose at its top, none too long to read whole."""
    root = SRC / "server"
    packages = sorted(p.name for p in root.iterdir() if (p / "__init__.py").exists())
    assert len(packages) >= 6 and {"table", "web", "protocol", "store"} <= set(packages), packages
    loose = sorted(p.name for p in root.glob("*.py"))
    assert len(loose) <= 8, loose
    long = {p.relative_to(root).as_posix(): n for p in root.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450}
    assert not long, long
