"""The site from an installed wheel, not only from the source tree (issue 32): the wheel holds
every package of the server, its static client and its migrations, and an app made from the
installed package migrates a database and serves its page and its modules."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[1]

# Run from the installed copy only (``-I`` would drop the dependencies too: the installed copy
# comes first on the path instead, and the check below says it was the one imported).
CHECK = textwrap.dedent("""
    import sys
    from pathlib import Path
    from fastapi.testclient import TestClient
    import tarot.server.web.app as web

    installed = Path(sys.argv[1])
    assert Path(web.__file__).is_relative_to(installed), web.__file__
    assert web.STATIC.is_relative_to(installed) and (web.STATIC / "index.html").exists()
    app = web.create_app(f"sqlite:///{sys.argv[2]}")
    with TestClient(app) as client:
        for path in ("/", "/static/js/core/net.js", "/static/i18n/fr.json", "/api/rules"):
            assert client.get(path).status_code == 200, path
    print("served")
""")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of the working tree's files (those git tracks or would), built in a copy: a
    build in place would reuse its last ``build/`` folder, and a file the package data left out
    could come from there."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    for name in files:
        if (ROOT / name).is_file() and not name.startswith("docs/screenshots/"):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    env = os.environ | {"TAROT_NATIVE": "0"}  # (pure Python: the native cores are the engine's tests')
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(source)], check=True, env=env, capture_output=True)
    (found,) = out.glob("*.whl")
    return found


def test_the_wheel_holds_every_server_package_its_client_and_its_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("table", "web", "protocol", "players", "community", "competitions", "cluster", "store"):
        assert f"tarot/server/{package}/__init__.py" in names, package
    assert {"tarot/server/static/index.html", "tarot/server/static/js/core/net.js",
            "tarot/server/store/migrations/script.py.mako", "tarot/server/store/migrations/env.py"} <= names
    versions = [n for n in names if n.startswith("tarot/server/store/migrations/versions/")]
    tracked = list((ROOT / "src/tarot/server/store/migrations/versions").glob("*.py"))
    assert len(versions) == len(tracked) > 5


def test_the_installed_site_migrates_and_serves_its_page(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    env = os.environ | {"PYTHONPATH": str(target)}
    done = subprocess.run([sys.executable, "-c", CHECK, str(target), str(tmp_path / "site.sqlite3")],
                          env=env, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "served" in done.stdout, done.stderr[-3000:]
