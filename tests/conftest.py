"""Fixtures for the browser tests of the Streamlit app.

Under ``pytest -n 2 --dist loadgroup`` every browser test carries
``@pytest.mark.xdist_group("browser")``, so they all run in one worker and share
its browser; each module starts the app servers (:class:`Server`) it needs.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import IO

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from analyzer.store import DB_ENV

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
#: Playwright's own browser download does not work here; `make browser` installs Debian's.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: A cold start imports streamlit, numpy, pandas and matplotlib; allow a slow machine.
SERVER_START_TIMEOUT = 90.0
#: The first page a new server draws runs the app's imports and loads (on a clean clone, compiles) the kernels.
FIRST_PAGE_TIMEOUT_MS = 240_000

_CALL_REPORT = pytest.StashKey[pytest.TestReport]()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Two races of a real browser against a real server on two shared cores are still unexplained (a pick in the
    # quick edit that the page loses; a battle's count field read while the previous pair's is still shown): a
    # browser test gets two more tries, so one that fails every time still fails, and every rerun is reported
    # below, with why, as a defect to fix.
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.flaky(reruns=2))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # Fixture teardown runs after the call phase; stashing its report lets the browser fixtures know whether
    # the test failed and the pages are worth a screenshot. A failed browser test's report also says where
    # each running server's threads were and what it logged, taken now, while the failure is current.
    report = yield
    if report.when == "call":
        item.stash[_CALL_REPORT] = report
        if report.failed and item.get_closest_marker("browser") is not None:
            for server in list(Server.running):
                report.sections.append((f"app server {server.url}", server.report()))
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    # A rerun is a defect hidden by a second try: say where each first try failed, and why, in every run's output.
    reruns = terminalreporter.stats.get("rerun", [])
    if reruns:
        terminalreporter.section("why the reruns were needed")
    for report in reruns:
        crash = getattr(report.longrepr, "reprcrash", None)
        where = f"{crash.path}:{crash.lineno}" if crash is not None else "?"
        errors = [line for line in report.longreprtext.splitlines() if line.startswith("E ")][:8]
        terminalreporter.write_line(f"{report.nodeid} failed at {where}:")
        for line in errors:
            terminalreporter.write_line(f"    {line}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.read().decode().strip() == "ok"
    except (urllib.error.URLError, OSError):
        return False


#: A server's stack dump on demand: a failed browser test asks every running server where its threads are
#: (SIGUSR1), so a server stuck in a CI run says where, without a debugger.
_LAUNCH = (
    "import faulthandler, runpy, signal, sys; "
    "faulthandler.register(signal.SIGUSR1, all_threads=True); "
    "sys.argv = ['streamlit', *sys.argv[1:]]; "
    "runpy.run_module('streamlit', run_name='__main__')"
)
#: The lines of a server's log shown with a failed browser test.
LOG_TAIL = 200


class Server:
    """``streamlit run app.py`` on the game store ``db``, which can be stopped and started again."""

    #: The servers started and not yet stopped, for the report of a failed browser test.
    running: list[Server] = []

    def __init__(self, db: Path, env: dict[str, str] | None = None) -> None:
        self.db = db
        self.env = env or {}
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[str] | None = None

    def start(self) -> None:
        command = [
            sys.executable,
            "-c",
            _LAUNCH,
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(self.port),
            "--browser.gatherUsageStats",
            "false",
        ]
        # A file rather than a pipe: nobody reads the server's output until it fails, and a full pipe would block it.
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, DB_ENV: str(self.db), **self.env},
        )
        Server.running.append(self)
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not _healthy(self.url):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit server did not start at {self.url}:\n{self.report()}", pytrace=False)
            time.sleep(0.25)

    def warm(self, browser: Browser) -> None:
        """Draw the server's first page, which runs the app's imports and loads (on a clean clone, compiles) the
        kernels, so that a test's own timeouts time the app and not this one-off start."""
        context = browser.new_context()
        try:
            first = context.new_page()
            first.goto(self.url, timeout=FIRST_PAGE_TIMEOUT_MS)
            first.get_by_role("button", name="New random setup").wait_for(timeout=FIRST_PAGE_TIMEOUT_MS)
        finally:
            context.close()

    def report(self) -> str:
        """Where the server's threads are now (if it still runs) and the end of its log."""
        if self.process is None or self.log is None:
            return "(stopped)"
        alive = self.process.poll() is None
        if alive:
            self.process.send_signal(signal.SIGUSR1)
            time.sleep(1.0)
        self.log.seek(0)
        lines = self.log.read().splitlines()[-LOG_TAIL:]
        self.log.seek(0, os.SEEK_END)
        state = "running" if alive else f"exited with {self.process.returncode}"
        return f"{self.url} on {self.db} ({state}); the last {len(lines)} lines of its log:\n" + "\n".join(lines)

    def stop(self) -> None:
        if self in Server.running:
            Server.running.remove(self)
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log is not None:
            self.log.close()
        self.process = self.log = None


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium driven by Playwright."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)", pytrace=False)
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


@pytest.fixture(autouse=True)
def _pages_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a browser test, every page it opened is closed, and screenshotted to tests/artifacts/ if it failed.

    A page left open keeps polling its server (the strip, other devices' saves) through the tests that follow:
    a test that fails before closing its pages would slow every later one.
    """
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    browser: Browser = request.getfixturevalue("browser")
    yield
    report = request.node.stash.get(_CALL_REPORT, None)
    failed = report is not None and report.failed
    for n, context in enumerate(list(browser.contexts)):
        if failed:
            ARTIFACTS.mkdir(exist_ok=True)
            name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
            for m, open_page in enumerate(context.pages):
                try:
                    open_page.screenshot(path=str(ARTIFACTS / f"{name}-{n}-{m}.png"), full_page=True, timeout=30_000)
                except PlaywrightError:
                    pass  # a page that cannot be drawn is no reason to keep the others open
        context.close()


@pytest.fixture
def page(browser: Browser) -> Page:
    """A fresh page at desktop width (own context, downloads allowed), closed after the test."""
    return browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000}).new_page()
