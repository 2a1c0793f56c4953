# `make run` and `make test` are all a fresh machine needs: each creates .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Re-install only when the project's metadata changes.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
DOCS_STAMP := $(VENV)/.installed-docs
POSTGRES_STAMP := $(VENV)/.installed-postgres
PORT ?= 8501

.PHONY: run test bench browser postgres clean docs format

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[app]'
	touch $@

# A PostgreSQL URL in DB needs the driver, which the postgres extra installs.
$(POSTGRES_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[postgres]'
	touch $@ $(RUN_STAMP)

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[all,test,docs]'
	touch $@ $(RUN_STAMP) $(DOCS_STAMP)

$(DOCS_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $@

# Playwright's own browser download does not work here: the browser tests drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The store's tests start a throwaway PostgreSQL server of their own, from Debian's server programs.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		echo "installing Debian's postgresql for the store's tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }

# The games are kept in an SQLite file: DB=path/to/games.sqlite3 chooses it (default: the user's data directory),
# or in a PostgreSQL database: DB=postgresql+psycopg://USER:PASSWORD@HOST/DATABASE (docs/club.md).
run: $(RUN_STAMP) $(if $(findstring postgresql,$(DB)),$(POSTGRES_STAMP))
	$(VENV)/bin/risk-analyzer warm
	$(if $(DB),RISK_ANALYZER_DB="$(DB)") $(VENV)/bin/streamlit run app.py --server.port $(PORT)

test: $(TEST_STAMP) browser postgres
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -n 2 --dist loadgroup

# Each script's output is also kept under build/bench/. The records the docs show are under results/bench/, each
# with a first line saying how and where it was run (several were run with other options than the defaults, or
# twice): to publish a run, copy its output there with such a line and commit it. A run here never overwrites them.
BENCH_OUT := build/bench
bench: $(RUN_STAMP) $(POSTGRES_STAMP) postgres
	@mkdir -p $(BENCH_OUT)
	@for f in bench/bench_*.py; do echo "== $$f"; out=$(BENCH_OUT)/$$(basename $$f .py).txt; \
		$(PY) $$f > $$out; status=$$?; cat $$out; test $$status -eq 0 || exit 1; done
	@echo "Each script's output is in $(BENCH_OUT)/; the committed records are in results/bench/."

# The site goes to docs/_build/html; `make test` builds it too, with warnings as errors (tests/test_docs.py).
docs: $(DOCS_STAMP)
	$(PY) -m sphinx -b html docs docs/_build/html

# Rewrites the code in ruff's style and applies its safe fixes (make test only checks).
format: $(TEST_STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The compiled kernels' cache (analyzer/__pycache__/kernels) goes with the other __pycache__ folders.
clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis docs/_build docs/api/analyzer*.rst
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
