# make run | make test | make bench | make lint | make check-corpus -- each creates .venv and installs what it needs.
# make test PYTEST_ARGS="tests/web -x" passes arguments on to pytest.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2
BANK_MIN ?= 400
SERVICES := bash scripts/services.sh

.PHONY: run test check-corpus bench lint chromium clean

$(BIN)/python:
	@echo "creating the virtual environment $(VENV)"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	@$(BIN)/python scripts/install.py -e '.[web,fast,analysis]'
	@touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	@$(BIN)/python scripts/install.py -e '.[dev]'
	@touch $@ $(VENV)/.run-installed

# The server answers as soon as the database and the shipped seed set are in; the engine's kernels compile
# (first start only) and the bank fills up to BANK_MIN unused puzzles in the background (webapp/gunicorn_conf.py).
run: $(VENV)/.run-installed
	@$(BIN)/flask --app webapp init-db
	@$(BIN)/flask --app webapp pool seed
	@echo "Serving http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	@SUDOKU_BANK_MIN=$(BANK_MIN) $(BIN)/gunicorn --config python:webapp.gunicorn_conf --workers $(WORKERS) \
		--bind $(HOST):$(PORT) 'webapp:create_app()'

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium; }

lint: $(VENV)/.test-installed
	$(BIN)/ruff check sudoku_engine webapp tests benchmarks scripts
	$(BIN)/ruff format --check sudoku_engine webapp tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/lint-imports
	@# test modules are imported by their file name (tests/ has no packages): two with one name stop the collection
	@dupes=$$(find tests -name 'test_*.py' -printf '%f\n' | sort | uniq -d); \
	if [ -n "$$dupes" ]; then echo "test modules sharing a file name: $$dupes" >&2; exit 1; fi

# The tests run against throwaway PostgreSQL and Redis servers (scripts/services.sh), stopped however pytest ends.
# The engine's compiled kernels are built (or loaded from numba's cache) once before pytest starts, so no test
# waits on a first compilation and the two test processes do not compile the same kernels side by side.
# --dist worksteal: a process that runs out of tests takes some of the other's, so neither works alone at the end.
# --durations: the slowest tests are listed at the end, to keep the run's time in view.
test: $(VENV)/.test-installed chromium lint
	$(BIN)/sudoku-engine warm
	@dir=$$(mktemp -d "$${TMPDIR:-/tmp}/sudoku-services.XXXXXX"); \
	trap '$(SERVICES) stop "$$dir"; exit 130' INT TERM HUP; \
	$(SERVICES) start "$$dir" || { $(SERVICES) stop "$$dir"; exit 1; }; \
	status=0; \
	env $$($(SERVICES) env "$$dir") SUDOKU_REQUIRE_SERVICES=1 $(BIN)/python -m pytest -n 2 --dist worksteal --durations=25 $(PYTEST_ARGS) \
		|| status=$$?; \
	$(SERVICES) stop "$$dir"; \
	exit $$status

check-corpus: $(VENV)/.test-installed
	SUDOKU_CORPUS_SAMPLE=full $(BIN)/python -m pytest -n 2 tests/test_logic.py

bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/solver.py
	$(BIN)/python benchmarks/rating.py --sample 1500 --top 300 --peer-sample 200 --hints 300 --coverage 200
	$(BIN)/python benchmarks/rate_record.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
