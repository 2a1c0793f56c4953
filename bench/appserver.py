"""The app served by Streamlit and opened in headless Chromium at phone width, for the browser benchmarks.

Not a benchmark itself (``make bench`` runs ``bench_*.py``): the benchmarks import it from their folder.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}


@contextlib.contextmanager
def served(app: str, port: int, env: Mapping[str, str], cwd: Path | None = None) -> Iterator[None]:
    """``streamlit run app`` on ``port`` until the block ends, waited for until it answers its health check."""
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            app,
            "--server.headless",
            "true",
            "--server.port",
            str(port),
        ],
        cwd=cwd,
        env=dict(env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(400):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        yield
    finally:
        server.terminate()
        server.wait()


def phone_page(playwright: Any) -> tuple[Any, Any]:
    """Headless Chromium and a new page of a phone's size in it, waiting up to two minutes for anything."""
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(120_000)
    return browser, page
