# Two entry points: `make play` and `make test`. Both create .venv and install the project first.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play test lint fuzz bench clean

$(STAMP): pyproject.toml Makefile
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,rl,web,reports,ray]'
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/flamecraft play

test: $(STAMP)
	$(VENV)/bin/ruff check src tests bench scripts
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -q -n 2

fuzz: $(STAMP)
	$(VENV)/bin/pytest -q -n 2 -m slow

bench: $(STAMP)
	$(PY) bench/random_games.py --players 4 --games 200

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
