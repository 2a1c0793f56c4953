"""The one policy for compiled code: every numba function in the package is made by :func:`kernel`.

A kernel is compiled once and kept in numba's on-disk cache. numba checks only
the timestamp of the file a kernel is written in, while a kernel also freezes
the globals it reads (the rules' constants, the state vector's offsets) and
inlines the kernels of other files: an edit there would leave a stale kernel
running silently. So every kernel is cached under a folder named by
:func:`source_key`, a hash of the sources of the kernel modules and of every
module of the package they import. An edit to any of them selects a new, empty
folder; nothing stale can be found in it. The older folders are pruned (the
newest few are kept, for a checkout that switches branches), and ``make clean``
removes them all.

With ``RISK_ANALYZER_KERNELS=python`` in the environment, :func:`kernel` returns
each function as it is, plain Python, and numba is never imported: the
command line's small ``odds`` (``analyzer.cli.run``) answers so, before numba
could even have started.

The cache lives in ``analyzer/__pycache__/kernels/`` when the package folder is
writable (a checkout), else in the user's cache folder
(``$XDG_CACHE_HOME/risk-analyzer/kernels``, for an installed wheel).

>>> len(source_key()) == 16 and cache_dir().name == source_key()
True
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

PACKAGE = Path(__file__).resolve().parent

#: The modules that hold kernels. :func:`kernel` refuses a function from any other module, so a new
#: kernel module cannot be left out of :func:`source_key`.
KERNEL_MODULES = (
    "analyzer.game.dice",
    "analyzer.game.engine.layout",
    "analyzer.game.engine.steps",
    "analyzer.game.engine.legality",
    "analyzer.bots.heuristic",
    "analyzer.bots.planner",
    "analyzer.bots.kills",
    "analyzer.bots.hunter",
    "analyzer.bots.strategist",
    "analyzer.bots.sparring",
    "analyzer.sim.playout",
    "analyzer.solver.battle",
    "analyzer.solver.blitz",
    "analyzer.value.features",
)

#: numba's options for every kernel. ``error_model="numpy"``: no Python division checks in the hot
#: loops; no kernel divides by a value that can be zero.
OPTIONS: dict[str, Any] = {"error_model": "numpy"}

#: Set to "python" in the environment before the package is imported, every kernel runs as the plain
#: Python it is written in: no compile and no numba import. A one-off small job (the CLI's battle
#: odds) then answers in a fraction of what importing numba and loading its kernels costs
#: (``bench/bench_cli.py`` measures both); it is also the way to step through a kernel in a debugger. Anything larger runs far slower.
MODE_VARIABLE = "RISK_ANALYZER_KERNELS"


def plain() -> bool:
    """Whether kernels run as plain Python (:data:`MODE_VARIABLE` is ``python``)."""
    return os.environ.get(MODE_VARIABLE, "") == "python"


#: Cache folders kept besides the current one.
KEEP = 3

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(analyzer[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+(analyzer[\w.]*))", re.M
)

F = TypeVar("F", bound=Callable[..., Any])


def _module_file(root: Path, module: str) -> Path | None:
    """The source file of ``analyzer.x.y`` under ``root`` (the package folder), or None."""
    parts = module.split(".")[1:]
    path = root.joinpath(*parts)
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def source_files(modules: Iterable[str] = KERNEL_MODULES, root: Path = PACKAGE) -> list[Path]:
    """The sources of ``modules`` and of every package module they import, transitively, sorted.

    Package ``__init__`` files on the way count too (importing a submodule runs them).

    >>> names = [p.relative_to(PACKAGE).as_posix() for p in source_files()]
    >>> "game/rules.py" in names, "kernels.py" in names, "cli.py" in names
    (True, True, False)
    """
    seen: set[Path] = set()
    todo = ["analyzer.kernels", *modules]
    while todo:
        module = todo.pop()
        parts = module.split(".")
        # The packages on the way: analyzer, analyzer.game, analyzer.game.engine, ...
        for i in range(1, len(parts) + 1):
            path = _module_file(root, ".".join(parts[:i]))
            if path is None or path in seen:
                continue
            seen.add(path)
            for m in _IMPORT.finditer(path.read_text(encoding="utf-8")):
                if m.group(3):
                    todo.append(m.group(3))
                    continue
                todo.append(m.group(1))
                # ``from analyzer.game import missions``: the names may be submodules.
                for name in re.findall(r"\b(\w+)\b(?:\s+as\s+\w+)?", m.group(2).strip("()")):
                    if _module_file(root, f"{m.group(1)}.{name}") is not None:
                        todo.append(f"{m.group(1)}.{name}")
    return sorted(seen)


def source_key(modules: Iterable[str] = KERNEL_MODULES, root: Path = PACKAGE) -> str:
    """A hash of :func:`source_files` (paths and contents), numba's version and the Python version."""
    import numba

    digest = hashlib.sha256(f"{numba.__version__} {sys.version_info[:3]}".encode())
    for path in source_files(modules, root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _cache_root() -> Path:
    if os.access(PACKAGE, os.W_OK):
        return PACKAGE / "__pycache__" / "kernels"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "risk-analyzer" / "kernels"


@lru_cache(maxsize=1)
def cache_dir() -> Path:
    """The cache folder of the kernels as the sources stand now (made on first use)."""
    root = _cache_root()
    here = root / source_key()
    try:
        here.mkdir(parents=True, exist_ok=True)
        os.utime(here)
        older = sorted((p for p in root.iterdir() if p != here), key=lambda p: p.stat().st_mtime)
        for stale in older[: max(0, len(older) - KEEP)]:
            _remove(stale)
    except OSError:
        pass  # an unwritable cache only costs the compile time
    return here


def _remove(path: Path) -> None:
    for sub in sorted(path.rglob("*"), reverse=True):
        sub.rmdir() if sub.is_dir() else sub.unlink()
    path.rmdir()


def kernel(fn: F | None = None, *, inline: bool = False) -> Any:
    """Compile ``fn`` with numba under the package's policy (:data:`OPTIONS`, the keyed cache).

    ``inline=True`` inlines it into its callers (numba's ``inline="always"``): for the small
    accessors, whose call would cost more than their body.
    """

    def wrap(f: F) -> F:
        if f.__module__ not in KERNEL_MODULES and f.__module__.startswith("analyzer."):
            raise RuntimeError(f"{f.__module__}.{f.__qualname__}: kernels live in the modules of KERNEL_MODULES")
        if plain():
            return f
        import numba
        from numba.core import config as numba_config

        if f.__module__ not in KERNEL_MODULES:
            # A kernel module run under another name (``python -m doctest``) compiles without the
            # cache: numba's cache records the module name, and a wrong one breaks later imports.
            return numba.njit(**OPTIONS, inline="always" if inline else "never")(f)
        # numba picks a function's cache folder when it is decorated, from its config.
        # By name: numba's config sets its attributes at run time, where a type checker cannot see them.
        previous = getattr(numba_config, "CACHE_DIR")  # noqa: B009
        setattr(numba_config, "CACHE_DIR", str(cache_dir()))  # noqa: B010
        try:
            return numba.njit(cache=True, **OPTIONS, inline="always" if inline else "never")(f)
        finally:
            setattr(numba_config, "CACHE_DIR", previous)  # noqa: B010

    return wrap if fn is None else wrap(fn)
