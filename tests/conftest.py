"""Fixtures for the browser tests of the Streamlit app.

One app server per pytest process: under ``pytest -n 2 --dist loadgroup`` every
browser test carries ``@pytest.mark.xdist_group("browser")``, so they all run in
one worker and share its server and browser.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

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

_CALL_REPORT = pytest.StashKey[pytest.TestReport]()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A real browser against a real server on two shared cores still races now and then (a poll's rerun
    # against an entry's, a grid read mid-redraw): a browser test gets two more tries, so one that fails
    # every time still fails, and the reruns show in the report as a defect to fix.
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.flaky(reruns=2))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # Fixture teardown runs after the call phase; stashing its report lets the
    # page fixture know whether the test failed and a screenshot is worth keeping.
    report = yield
    if report.when == "call":
        item.stash[_CALL_REPORT] = report
    return report


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


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """URL of ``streamlit run app.py`` served from the repository root."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
    ]
    # A file rather than a pipe: nobody reads the server's output until it fails,
    # and a full pipe would block it.
    with tempfile.TemporaryFile(mode="w+") as log:
        server = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + SERVER_START_TIMEOUT
            while not _healthy(url):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    reason = f"exited with {server.returncode}" if server.poll() is not None else "timed out"
                    pytest.fail(f"streamlit server {reason} before {url} was healthy:\n{log.read()}", pytrace=False)
                time.sleep(0.25)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


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


#: The first page a new server draws runs the app's imports and loads (on a clean clone, compiles) the kernels.
FIRST_PAGE_TIMEOUT_MS = 240_000


@pytest.fixture(scope="module")
def warm_app(app_url: str, browser: Browser) -> str:
    """``app_url`` once its first page has been drawn, so that each test's own timeouts measure the app, not
    the server's one-off start-up (on a loaded two-core machine that took over 30 s)."""
    context = browser.new_context()
    try:
        first = context.new_page()
        first.goto(app_url)
        first.get_by_role("button", name="New random setup").wait_for(timeout=FIRST_PAGE_TIMEOUT_MS)
    finally:
        context.close()
    return app_url


@pytest.fixture
def page(browser: Browser, warm_app: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page (own context, downloads allowed); screenshotted to tests/artifacts/ if the test fails."""
    context = browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
    new_page = context.new_page()
    try:
        yield new_page
        report = request.node.stash.get(_CALL_REPORT, None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
            new_page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    finally:
        context.close()
