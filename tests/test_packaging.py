"""The wheel: built offline from a copy of the source tree and installed into a folder, it holds every tracked file
of the packages, templates and static files, and gunicorn serves every kind of page from it outside the repository.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from webapp import assets

REPO_ROOT = Path(__file__).resolve().parents[1]
COPIED = ("pyproject.toml", "README.md", "LICENSE", "sudoku_engine", "webapp", "templates", "static")
# Where the wheel puts each shipped folder of the source tree.
SHIPPED_AS = {
    "sudoku_engine": "sudoku_engine",
    "webapp": "webapp",
    "templates": "webapp/templates",
    "static": "webapp/static",
}
EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
WAIT_S = 180  # how long a request may hang before the test gives up (a guard, not a measurement)


def pip(*args: str) -> None:
    """Run pip of this interpreter without the network; fail the test with its output when it fails."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from a copy of the source tree (the checkout gets no build folders)."""
    source = tmp_path_factory.mktemp("source")
    for name in COPIED:
        if (REPO_ROOT / name).is_dir():
            shutil.copytree(REPO_ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(REPO_ROOT / name, source / name)
    dist = tmp_path_factory.mktemp("dist")
    pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "--wheel-dir", str(dist), str(source))
    [built] = dist.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the wheel is installed into (its dependencies come from this interpreter's environment)."""
    target = tmp_path_factory.mktemp("site")
    pip("install", "--no-deps", "--no-index", "--target", str(target), str(wheel))
    return target


def tracked_files() -> list[str]:
    """The files git tracks in the shipped folders, as paths relative to the repository."""
    if not (REPO_ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    listing = subprocess.run(
        ["git", "ls-files", "-z", *SHIPPED_AS], cwd=REPO_ROOT, capture_output=True, check=True, timeout=60
    ).stdout.decode()
    return [name for name in listing.split("\0") if name]


def test_the_wheel_holds_every_tracked_file_where_the_app_looks(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    expected = set()
    for name in tracked_files():
        folder, _, rest = name.partition("/")
        expected.add(f"{SHIPPED_AS[folder]}/{rest}")
    assert "webapp/templates/play/game.html" in expected and f"webapp/static/{assets.HTMX_VENDOR_PATH}" in expected
    assert sorted(expected - in_wheel) == []


def app_environment(installed: Path, workdir: Path) -> dict[str, str]:
    """The environment of the installed app: its folder first on the path, a database and settings in ``workdir``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SUDOKU_", "PYTHON", "RATELIMIT_"))}
    env.update(
        {
            "PYTHONPATH": str(installed),
            "DATABASE_URL": f"sqlite:///{workdir / 'app.db'}",
            "SECRET_KEY": "packaging-test",
            "SUDOKU_HTMX": "vendor",
            "SUDOKU_POOL_REFILL": "off",
            # The plain Python search: a numba kernel compiled afresh for the new folder would cost tens of seconds.
            "SUDOKU_ENGINE_BACKEND": "python",
        }
    )
    return env


@pytest.fixture(scope="module")
def served(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, str]]]:
    """gunicorn serving the installed app from a folder outside the repository; its URL, folder and environment."""
    workdir = tmp_path_factory.mktemp("run")
    assert not workdir.resolve().is_relative_to(REPO_ROOT)
    env = app_environment(installed, workdir)
    init = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "webapp", "init-db"],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=WAIT_S,
        check=False,
    )
    assert init.returncode == 0, init.stdout + init.stderr
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)  # requests wait in the backlog until the worker is up
    log = (workdir / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers",
            "1",
            "--timeout",
            str(WAIT_S),
            "--bind",
            f"fd://{listener.fileno()}",
            "webapp:create_app()",
        ],
        cwd=workdir,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        pass_fds=(listener.fileno(),),
    )
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", workdir, env
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        listener.close()


def fetch(url: str) -> tuple[int, str, bytes]:
    """Status, final URL (after redirects) and body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=WAIT_S) as response:
            return response.status, response.geturl(), response.read()
    except urllib.error.HTTPError as error:
        return error.code, url, error.read()


def test_the_installed_package_is_the_one_imported(served: tuple[str, Path, dict[str, str]], installed: Path) -> None:
    _url, workdir, env = served
    probe = "import sudoku_engine, webapp; print(webapp.__file__); print(sudoku_engine.__file__)"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=workdir, env=env, capture_output=True, text=True, timeout=WAIT_S, check=True
    )
    paths = [Path(line) for line in result.stdout.splitlines()]
    assert paths == [installed / "webapp" / "__init__.py", installed / "sudoku_engine" / "__init__.py"]


@pytest.mark.parametrize(
    ("path", "marker"),
    [
        ("/", "<h1>New puzzle</h1>"),
        (f"/p/{EULER_01}", "data-autostart"),
        ("/research/login", "<h1>Researcher login</h1>"),
        ("/no-such-page", "<h1>Not found</h1>"),
    ],
)
def test_the_installed_app_renders_its_pages(served: tuple[str, Path, dict[str, str]], path: str, marker: str) -> None:
    url = served[0]
    status, _final, body = fetch(url + path)
    page = body.decode()
    assert status == (404 if path == "/no-such-page" else 200), page
    assert marker in page
    assert f'<script src="/static/{assets.HTMX_VENDOR_PATH}"></script>' in page  # the base template and its include


def test_the_installed_app_opens_a_game_from_a_puzzle_link(served: tuple[str, Path, dict[str, str]]) -> None:
    """The link's page, then the post its script sends (with the session cookie and the form's CSRF token), lead to
    the game page."""
    link = f"{served[0]}/p/{EULER_01}"
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(link, timeout=WAIT_S) as response:
        token = re.search(r'name="csrf_token" value="([^"]+)"', response.read().decode())
    assert token is not None
    form = urllib.parse.urlencode({"csrf_token": token.group(1)}).encode()
    with browser.open(link, data=form, timeout=WAIT_S) as response:
        assert "/g/" in response.geturl() and '<section id="game"' in response.read().decode()


@pytest.mark.parametrize(
    "name",
    ["css/app.css", "js/board.js", "js/new_puzzle.js", "js/autostart.js", assets.HTMX_VENDOR_PATH],
)
def test_the_installed_app_serves_its_static_files(served: tuple[str, Path, dict[str, str]], name: str) -> None:
    status, _final, body = fetch(f"{served[0]}/static/{name}")
    assert status == 200 and body == (REPO_ROOT / "static" / name).read_bytes()
