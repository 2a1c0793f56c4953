"""Tables and benchmark output read from the project's committed results at build time.

No figure of a run is typed into a page: a page names the file a table comes from, and this
extension reads it when the site is built, so the page and the results cannot disagree.

``results-table``
    A CSV under ``results/`` (written by a study's ``to_csv``), optionally filtered with a
    pandas query and pivoted. A cell shows a win rate with its 95% interval, in percent,
    ``51.2 (45.4-57.0)``, from the study's ``win_rate``/``ci_low``/``ci_high`` columns
    (``:value: rate``), or a difference from a baseline, ``+0.7 (-1.2 to +2.6)`` points, from
    ``vs_baseline``/``vs_baseline_low``/``vs_baseline_high`` (``:value: diff``), or any column.
    Among ``:fields:``, ``interval:NAME`` is a difference read from ``NAME``/``NAME_low``/``NAME_high``
    (a table of several populations side by side), headed ``NAME``.

``notebook-table``
    The table a study notebook printed: the stored output of the code cell whose source
    contains ``:cell:`` (its last table, or table number ``:output:`` of the cell). A notebook
    rerun with more games changes the page at the next build.

``bench-output``
    The benchmark records committed under ``results/bench/``, one block per file.

A file, cell or column that is not there is a build error (a warning, which ``make test``
turns into a failure), so a page cannot silently lose a table when a study is renamed.
"""

from __future__ import annotations

import json
import math
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"
logger = logging.getLogger(__name__)


def _percent(value: float) -> str:
    return f"{100 * value:.1f}"


def _signed(value: float) -> str:
    return f"{100 * value:+.1f}"


def format_cell(row: pd.Series, value: str) -> str:
    """One cell of a results table: a rate with its interval, a difference with its interval, or a column.

    >>> row = pd.Series({"a": 0.012, "a_low": -0.004, "a_high": 0.0281, "vs_baseline": float("nan")})
    >>> format_cell(row, "interval:a"), format_cell(row, "diff")
    ('+1.2 (-0.4 to +2.8)', '-')
    """
    if value.startswith("interval:"):
        name = value.partition(":")[2]
        if pd.isna(row[name]):
            return "-"
        return f"{_signed(row[name])} ({_signed(row[f'{name}_low'])} to {_signed(row[f'{name}_high'])})"
    if value == "rate":
        if pd.isna(row["win_rate"]):
            return "-"
        return f"{_percent(row['win_rate'])} ({_percent(row['ci_low'])}-{_percent(row['ci_high'])})"
    if value == "diff":
        if pd.isna(row["vs_baseline"]):
            return "-"
        low, high = _signed(row["vs_baseline_low"]), _signed(row["vs_baseline_high"])
        return f"{_signed(row['vs_baseline'])} ({low} to {high})"
    cell = row[value]
    if isinstance(cell, float):
        return "-" if math.isnan(cell) else f"{cell:,.4g}"
    return f"{cell:,}" if isinstance(cell, int) else str(cell)


def make_table(header: list[str], rows: list[list[str]], caption: str | None = None) -> nodes.table:
    """A docutils table of text cells, the first row as its head."""
    table = nodes.table(classes=["results-table"])
    if caption:
        table += nodes.title(text=caption)
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    head, body = nodes.thead(), nodes.tbody()
    group += head
    group += body
    for section, lines in ((head, [header]), (body, rows)):
        for line in lines:
            row = nodes.row()
            for text in line:
                row += nodes.entry("", nodes.paragraph(text=text))
            section += row
    return table


class ResultsTable(SphinxDirective):
    """``results-table``: a CSV of ``results/``, filtered, pivoted and formatted."""

    required_arguments = 1
    option_spec = {
        "query": directives.unchanged,
        "index": directives.unchanged,
        "columns": directives.unchanged,
        "value": directives.unchanged,
        "fields": directives.unchanged,
        "header": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        path = RESULTS / self.arguments[0]
        self.env.note_dependency(str(path))
        if not path.is_file():
            return self._fail(f"results-table: no file {path.relative_to(ROOT)}")
        frame = pd.read_csv(path)
        try:
            if "query" in self.options:
                frame = frame.query(self.options["query"])
            header, rows = self._layout(frame)
        except (KeyError, ValueError, SyntaxError) as error:
            return self._fail(f"results-table {self.arguments[0]}: {error}")
        if not rows:
            return self._fail(f"results-table {self.arguments[0]}: no rows left after the query")
        source = nodes.paragraph()
        source += nodes.Text("Read from ")
        source += nodes.literal(text=f"results/{self.arguments[0]}")
        source += nodes.Text(" when this page was built.")
        return [make_table(header, rows, self.options.get("caption")), source]

    def _layout(self, frame: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
        value = self.options.get("value", "rate")
        index = self.options.get("index")
        if index is None:
            fields = [name.strip() for name in self.options.get("fields", "").split(",") if name.strip()]
            if not fields:
                raise ValueError("give :index: (and :columns:) to pivot, or :fields: to list columns")
            columns = [name.partition("interval:")[2] or name for name in fields]
            missing = [name for name in columns if name not in frame.columns and name not in ("rate", "diff")]
            if missing:
                raise KeyError(f"no column(s) {', '.join(missing)}")
            header = columns
            return header, [[format_cell(row, name) for name in fields] for _, row in frame.iterrows()]
        columns = self.options.get("columns")
        frame = frame.assign(_cell=[format_cell(row, value) for _, row in frame.iterrows()])
        if columns is None:
            return [index, value], [[str(row[index]), row["_cell"]] for _, row in frame.iterrows()]
        order = list(dict.fromkeys(frame[index]))
        grid = frame.pivot(index=index, columns=columns, values="_cell").reindex(order)
        label = self.options.get("header", "{}")
        header = [index.replace("_", " ")] + [label.format(column) for column in grid.columns]
        rows = [
            [str(key)] + ["-" if pd.isna(cell) else cell for cell in line]
            for key, line in zip(grid.index, grid.to_numpy())
        ]
        return header, rows

    def _fail(self, message: str) -> list[nodes.Node]:
        logger.warning(message, location=self.get_location())
        return []


class _TableReader(HTMLParser):
    """The cells of the first ``<table>`` of a pandas HTML output, row by row.

    A cell spanning several rows (the outer level of a two-level index) is repeated in each.
    """

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, list[str]]] = []
        self._section = ""
        self._cell: list[str] | None = None
        self._span = 1
        self._pending: dict[int, tuple[str, int]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("thead", "tbody"):
            self._section = tag
            self._pending = {}
        elif tag == "tr":
            self.rows.append((self._section, []))
            self._fill_spans()
        elif tag in ("th", "td"):
            self._cell = []
            self._span = int(dict(attrs).get("rowspan") or 1)

    def _fill_spans(self) -> None:
        cells = self.rows[-1][1]
        while len(cells) in self._pending:
            text, left = self._pending.pop(len(cells))
            if left > 1:
                self._pending[len(cells)] = (text, left - 1)
            cells.append(text)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td") and self._cell is not None:
            cells = self.rows[-1][1]
            text = "".join(self._cell).strip()
            if self._span > 1:
                self._pending[len(cells)] = (text, self._span - 1)
            cells.append(text)
            self._cell = None
            self._fill_spans()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def read_notebook_table(html: str, header_format: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a pandas table as a notebook stored it, its two header rows folded into one."""
    reader = _TableReader()
    reader.feed(html)
    head = [cells for section, cells in reader.rows if section == "thead"]
    body = [
        ["-" if cell in ("NaN", "<NA>", "None") else cell for cell in cells]
        for section, cells in reader.rows
        if section == "tbody"
    ]
    if not head or not body:
        raise ValueError("the output holds no table")
    if head[-1] and not head[-1][0] and all(cells and cells[0].isdigit() for cells in body) and len(head) == 1:
        # An unnamed 0, 1, 2, ... index is pandas' row numbering, not data.
        return [header_format.format(cell) for cell in head[0][1:]], [cells[1:] for cells in body]
    # The index's names: the leading cells of pandas' second header row, when the rest are empty.
    names = next((i for i, cell in enumerate(head[1]) if not cell), len(head[1])) if len(head) == 2 else 0
    if names and not any(head[1][names:]):
        # pandas writes the columns' names over the columns and the index's names on a row of their own.
        header = head[1][:names] + [header_format.format(cell) for cell in head[0][names:]]
    else:
        header = [header_format.format(cell) if i else cell for i, cell in enumerate(head[-1])]
    return header, body


class NotebookTable(SphinxDirective):
    """``notebook-table``: a table a notebook printed, found by a piece of its cell's source."""

    required_arguments = 1
    option_spec = {
        "cell": directives.unchanged_required,
        "output": directives.positive_int,
        "header": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        path = ROOT / self.arguments[0]
        self.env.note_dependency(str(path))
        marker = self.options.get("cell", "")
        where = f"notebook-table {self.arguments[0]} (cell with {marker!r})"
        if not marker:
            return self._fail(f"{where}: give :cell:, a piece of the source of the cell that printed the table")
        if not path.is_file():
            return self._fail(f"{where}: no such notebook")
        cells = [
            cell
            for cell in json.loads(path.read_text())["cells"]
            if cell["cell_type"] == "code" and marker in "".join(cell["source"])
        ]
        if len(cells) != 1:
            return self._fail(f"{where}: {len(cells)} cells match, expected exactly 1")
        outputs = [output for output in cells[0].get("outputs", []) if "text/html" in output.get("data", {})]
        if not outputs:
            return self._fail(f"{where}: the cell has no stored table (run the notebook)")
        number = self.options.get("output", len(outputs))
        if number > len(outputs):
            return self._fail(f"{where}: the cell printed {len(outputs)} table(s), not {number}")
        try:
            header, rows = read_notebook_table(
                "".join(outputs[number - 1]["data"]["text/html"]), self.options.get("header", "{}")
            )
        except ValueError as error:
            return self._fail(f"{where}: {error}")
        source = nodes.paragraph()
        source += nodes.Text("Read from the stored output of ")
        source += nodes.literal(text=self.arguments[0])
        source += nodes.Text(" when this page was built.")
        return [make_table(header, rows, self.options.get("caption")), source]

    def _fail(self, message: str) -> list[nodes.Node]:
        logger.warning(message, location=self.get_location())
        return []


class BenchOutput(SphinxDirective):
    """``bench-output``: the benchmark records committed under ``results/bench/``, or where to get them."""

    def run(self) -> list[nodes.Node]:
        folder = RESULTS / "bench"
        files = sorted(folder.glob("*.txt")) if folder.is_dir() else []
        for path in files:
            self.env.note_dependency(str(path))
        if not files:
            note = nodes.paragraph()
            note += nodes.Text("No benchmark run is committed yet: ")
            note += nodes.literal(text="make bench")
            note += nodes.Text(" prints every figure and saves it under ")
            note += nodes.literal(text="build/bench/")
            note += nodes.Text("; a run copied to ")
            note += nodes.literal(text="results/bench/")
            note += nodes.Text(" shows here at the next build.")
            return [note]
        result: list[nodes.Node] = []
        for path in files:
            title = nodes.paragraph()
            title += nodes.literal(text=f"results/bench/{path.name}")
            text = path.read_text()
            block = nodes.literal_block(text, text)
            block["language"] = "text"
            result += [title, block]
        return result


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("results-table", ResultsTable)
    app.add_directive("notebook-table", NotebookTable)
    app.add_directive("bench-output", BenchOutput)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
