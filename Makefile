# `make run` and `make test` are all a fresh machine needs: each creates .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Re-install only when the project's metadata changes.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
POSTGRES_STAMP := $(VENV)/.installed-postgres
PORT ?= 8501

.PHONY: run test bench browser postgres clean

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
	$(PY) -m pip install --quiet -e '.[all,test]'
	touch $@ $(RUN_STAMP)

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
	$(if $(DB),RISK_ANALYZER_DB="$(DB)") $(VENV)/bin/streamlit run app.py --server.port $(PORT)

test: $(TEST_STAMP) browser postgres
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n 2 --dist loadgroup

bench: $(RUN_STAMP) $(POSTGRES_STAMP) postgres
	@for f in bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

# The compiled kernels' cache (analyzer/__pycache__/kernels) goes with the other __pycache__ folders.
clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
