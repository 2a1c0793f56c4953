"""Sphinx configuration of the Risk Analyzer documentation (``make docs``).

The site builds offline (no intersphinx) and with warnings as errors in ``make test``
(``tests/test_docs.py``). The findings' tables and the benchmark figures are read from
``results/`` at build time by ``_ext/results_tables.py``, never typed into a page.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# The package documented is the one beside this folder, not whichever is installed.
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))

# Documenting runs no kernel: plain Python kernels keep numba out of the build (and keep the front
# door from warning that games would play slowly in this process).
os.environ.setdefault("RISK_ANALYZER_KERNELS", "python")

import analyzer  # noqa: E402

project = "Risk Analyzer"
author = "the Risk Analyzer developers"
release = version = analyzer.__version__
copyright = "the Risk Analyzer developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "results_tables",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_templates", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
# Headings get anchors, so a page can link to a section with [text](page.md#section).
myst_heading_anchors = 3

# The API reference follows the package: autosummary walks ``analyzer`` recursively at build time,
# so a module moved or added by a change shows up without editing a page. Its pages of an earlier
# build go first: the page of a module that has since moved would fail to import.
for stale in (DOCS / "api").glob("analyzer*.rst"):
    stale.unlink()
autosummary_generate = True
autosummary_imported_members = False
# Each object is documented once, in the module that defines it: a package's ``__all__`` (and the
# front door's names) re-export objects documented where they live.
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_class_signature = "separated"
napoleon_google_docstring = True
napoleon_numpy_docstring = True

html_theme = "furo"
html_title = f"Risk Analyzer {release}"
html_static_path: list[str] = []
