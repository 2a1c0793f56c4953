"""The optional extras: which installed package each feature beyond the core needs.

The core install (numpy, scipy, pandas, numba, matplotlib, ...) computes odds,
plays and simulates games and keeps the game store. The app, Dask, Parquet
files and PostgreSQL need the packages of an extra, imported only when the
feature is used; :func:`require` imports one or says which extra to install.

>>> require("json").__name__
'json'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from analyzer.errors import MissingExtraError

#: ``{module: (extra, what it is called)}`` for every package an extra brings.
EXTRAS: dict[str, tuple[str, str]] = {
    "streamlit": ("app", "Streamlit"),
    "distributed": ("dask", "Dask"),
    "dask": ("dask", "Dask"),
    "pyarrow": ("parquet", "pyarrow (for Parquet files)"),
    "psycopg": ("postgres", "psycopg (for PostgreSQL)"),
    "sklearn": ("train", "scikit-learn (for training the win-chance model)"),
}


def install_hint(module: str) -> str:
    """The message for ``module`` missing: what it is and the extra to install.

    >>> install_hint("distributed")
    "Dask is not installed: pip install 'risk-analyzer[dask]'"
    """
    extra, name = EXTRAS[module]
    return f"{name} is not installed: pip install 'risk-analyzer[{extra}]'"


def require(module: str) -> ModuleType:
    """Import ``module``, a package of an extra (or any module); if it is missing, a
    :class:`~analyzer.errors.MissingExtraError` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if module.split(".")[0] not in EXTRAS:
            raise
        raise MissingExtraError(install_hint(module.split(".")[0])) from None
