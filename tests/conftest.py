"""Fixtures for the browser tests of the Streamlit app.

Under ``pytest -n 2 --dist loadgroup`` every browser test carries
``@pytest.mark.xdist_group("browser")``, so they all run in one worker and share
its browser; each module starts the app servers (:class:`Server`) it needs.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from support.ports import free_port

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
#: The first page a new server draws runs the app's imports and loads the kernels (compiled before, by
#: ``_kernels_compiled``).
FIRST_PAGE_TIMEOUT_MS = 240_000

_CALL_REPORT = pytest.StashKey[pytest.TestReport]()


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
        self.port = free_port()
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
        """Draw the server's first page, which runs the app's imports and loads the kernels, so that a test's own
        timeouts time the app and not this one-off start."""
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
        # Read by offset: the server writes through the same open file, so moving its position would move theirs.
        fd = self.log.fileno()
        logged = os.fstat(fd).st_size
        if alive:
            self.process.send_signal(signal.SIGUSR1)
            time.sleep(1.0)
        dumped = os.fstat(fd).st_size - logged
        lines = os.pread(fd, logged, 0).decode(errors="replace").splitlines()[-LOG_TAIL:]
        state = "running" if alive else f"exited with {self.process.returncode}"
        # The dump whole: the thread running the script may be any of its many threads.
        return (
            f"{self.url} on {self.db} ({state}); the last {len(lines)} lines of its log:\n"
            + "\n".join(lines)
            + "\n\nwhere its threads are now:\n"
            + os.pread(fd, dumped, logged).decode(errors="replace")
        )

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
def _kernels_compiled() -> None:
    """Every kernel the app's views run, compiled into numba's on-disk cache before any app server starts.

    On a clean clone (CI's) a kernel is compiled where it is first used: a server would compile those of a
    game's views in the run answering a tap (the first random setup, the first entry, the first review), a run
    longer than a test waits for the page, which meanwhile keeps the form from before the tap. Made here
    through the functions the views call, the kernels are compiled once, before anything is timed, and a server
    only loads them. On a checkout that has them already, this loads them.
    """
    # Imported here, not with the module: every test session reads this file, and this loads numba.
    from analyzer.commands.warm import warm_kernels

    warm_kernels()


@pytest.fixture(scope="session")
def browser(_kernels_compiled: None) -> Iterator[Browser]:
    """Debian's headless Chromium driven by Playwright, once the app's kernels are compiled."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)", pytrace=False)
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        new_context = chromium.new_context

        def recorded_context(**options: Any) -> BrowserContext:
            context = new_context(**options)
            context.add_init_script(_TOLD_INPUT)
            context.on("page", _record_messages)
            return context

        chromium.new_context = recorded_context  # type: ignore[method-assign]
        try:
            yield chromium
        finally:
            chromium.close()
    finally:
        playwright.stop()


#: The messages between each open page and its server, as :func:`_message` tells them, and the page's own taps.
_MESSAGES: dict[Page, list[str]] = {}
#: Each press, release and click the page receives, told on its console (with :data:`_INPUT` first): the element
#: under it, where, and how far the page's main view is scrolled. Beside the websocket's messages, they say whether a
#: tap that sent nothing reached the page, and on what.
_INPUT = "[input]"
_TOLD_INPUT = (
    "for (const kind of ['pointerdown', 'pointerup', 'click']) {"
    "  window.addEventListener(kind, (e) => {"
    "    const t = e.target instanceof Element ? e.target : null;"
    "    const named = t && t.closest('[data-testid]');"
    "    const main = document.querySelector('[data-testid=stMain]');"
    f"    console.log('{_INPUT} ' + kind + ' at ' + Math.round(e.clientX) + ',' + Math.round(e.clientY) + ' on ' +"
    "      (t ? t.tagName.toLowerCase() : '-') + ' ' + (named ? named.getAttribute('data-testid') : '-') + ' ' +"
    "      JSON.stringify(t ? (t.textContent || '').trim().slice(0, 30) : '') +"
    "      ' scrolled ' + (main ? Math.round(main.scrollTop) : '-'));"
    "  }, true);"
    "}"
)


def _record_messages(page: Page) -> None:
    """Keep what ``page`` and its server say to each other, for the report of a failed test: where a tap or a run
    went missing, the messages say which side dropped it."""
    said = _MESSAGES.setdefault(page, [])
    start = time.monotonic()

    def heard(web_socket: WebSocket) -> None:
        web_socket.on("framesent", lambda payload: said.append(_message(time.monotonic() - start, "->", payload)))
        web_socket.on("framereceived", lambda payload: said.append(_message(time.monotonic() - start, "<-", payload)))

    page.on("websocket", heard)
    page.on(
        "console",
        lambda message: (
            said.append(f"{time.monotonic() - start:8.3f} page {message.text}")
            if message.text.startswith(_INPUT)
            else None
        ),
    )


def page_run(payload: bytes | str) -> tuple[str, bool] | None:
    """The run of the whole page (not a fragment's) that ``payload``, a message from the server, belongs to, and
    whether the message says it finished; None for any other message."""
    if isinstance(payload, str):
        return None
    forward = ForwardMsg()
    forward.ParseFromString(payload)
    run = forward.metadata.run
    if not run.script_run_id or run.fragment_ids:
        return None
    finished = forward.WhichOneof("type") == "script_finished"
    return run.script_run_id, finished and forward.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY


def _widget(widget_id: str) -> str:
    # A widget's id ends with its key, when it has one.
    return widget_id.rsplit("-", 1)[-1] if "-" in widget_id else widget_id


def _message(at: float, way: str, payload: bytes | str) -> str:
    """One websocket message, told briefly: its kind, the run it belongs to, a widget's key and value."""
    if isinstance(payload, str):
        return f"{at:8.3f} {way} text {payload[:80]}"
    if way == "->":
        back = BackMsg()
        back.ParseFromString(payload)
        kind = back.WhichOneof("type")
        if kind != "rerun_script":
            return f"{at:8.3f} -> {kind}"
        rerun = back.rerun_script
        triggers = [
            f"{_widget(w.id)}={getattr(w, w.WhichOneof('value'))!r}"[:60]
            for w in rerun.widget_states.widgets
            if w.WhichOneof("value") in ("trigger_value", "string_trigger_value", "json_trigger_value")
        ]
        return (
            f"{at:8.3f} -> rerun fragment={rerun.fragment_id or '-'} auto={rerun.is_auto_rerun} "
            f"widgets={len(rerun.widget_states.widgets)} triggers={triggers}"
        )
    forward = ForwardMsg()
    forward.ParseFromString(payload)
    kind = forward.WhichOneof("type")
    run = forward.metadata.run
    where = f"run={run.script_run_id[:8]} fragments={list(run.fragment_ids)}" if run.script_run_id else ""
    if kind == "delta":
        delta = forward.delta
        what = delta.WhichOneof("type")
        element = getattr(delta, what) if what else None
        inner = (
            element.WhichOneof("type") if element is not None and element.DESCRIPTOR.oneofs_by_name.get("type") else ""
        )
        label = ""
        if element is not None and inner:
            part = getattr(element, inner)
            for field in ("id", "label", "body"):
                if field in part.DESCRIPTOR.fields_by_name and getattr(part, field):
                    label += f" {field}={str(getattr(part, field))[-40:]!r}"
        return f"{at:8.3f} <- delta {list(forward.metadata.delta_path)} {what}:{inner}{label} {where}"
    if kind == "script_finished":
        return f"{at:8.3f} <- finished {ForwardMsg.ScriptFinishedStatus.Name(forward.script_finished)} {where}"
    if kind == "session_status_changed":
        return f"{at:8.3f} <- status running={forward.session_status_changed.script_is_running} {where}"
    return f"{at:8.3f} <- {kind} {where}"


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
                (ARTIFACTS / f"{name}-{n}-{m}.messages.txt").write_text("\n".join(_MESSAGES.get(open_page, [])))
                try:
                    open_page.screenshot(path=str(ARTIFACTS / f"{name}-{n}-{m}.png"), full_page=True, timeout=30_000)
                except PlaywrightError:
                    pass  # a page that cannot be drawn is no reason to keep the others open
        for open_page in context.pages:
            _MESSAGES.pop(open_page, None)
        context.close()


@pytest.fixture
def page(browser: Browser) -> Page:
    """A fresh page at desktop width (own context, downloads allowed), closed after the test."""
    return browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000}).new_page()
