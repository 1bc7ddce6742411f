# Two entry points: `make play` and `make test`. Both create .venv, install the project and
# compile its rules core with mypyc (pure Python where there is no C compiler) first.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# What `make` installs: the dev tools and every extra the tests use (all but bench).
EXTRAS := dev,rl,web,postgres,reports,ray,learn
# The compiled core (scripts/compile_core.py): rebuilt whenever a compiled source changes.
NATIVE := src/flamecraft/_native/manifest.json
COMPILED_SOURCES := $(wildcard src/flamecraft/core/*.py) \
	$(addprefix src/flamecraft/ai/,evaluate.py planner.py ismcts.py) src/flamecraft/research/encoding.py

# The message catalogues (src/flamecraft/display/i18n.py, docs/i18n.md): one gettext domain per area.
LOCALE := src/flamecraft/locale
CATALOGUES := $(wildcard $(LOCALE)/*/LC_MESSAGES/*.po)
CATALOGUES_CHECKED := build/locale/checked
.PHONY: all play test lint fuzz bench bench-deps train-deps compare clean catalogue constraints

all: $(NATIVE) $(CATALOGUES_CHECKED)

# `make catalogue`: the .pot templates extracted anew from the code, and every ja .po updated
# from them (new msgids added untranslated, unused ones dropped); then translate the new ones.
# `make catalogue DOMAIN=terminal` updates one domain only; a file already in step with the
# code is not rewritten.
catalogue: $(STAMP)
	$(PY) -m flamecraft.display.i18n update $(DOMAIN)

# Every catalogue parsed and compiled once, so that a broken .po (or a translation that lost
# a placeholder) fails the build; the run time reads the .po itself.
$(CATALOGUES_CHECKED): $(STAMP) $(CATALOGUES) src/flamecraft/display/i18n.py
	$(PY) -m flamecraft.display.i18n check
	mkdir -p $(dir $@)
	touch $@

# Every version pinned by constraints.txt (`make constraints` refreshes it), the build tools
# too: the editable install is built by the venv's own pinned setuptools (no build isolation),
# and compiles nothing; the compiled core is $(NATIVE)'s, below.
$(STAMP): pyproject.toml setup.py constraints.txt Makefile
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -c constraints.txt --upgrade pip setuptools
	$(PY) -m pip install --quiet -c constraints.txt --no-build-isolation -e '.[$(EXTRAS)]'
	touch $(STAMP)

$(NATIVE): $(STAMP) $(COMPILED_SOURCES) scripts/compile_core.py scripts/native_build.py
	$(PY) scripts/compile_core.py

play: $(NATIVE)
	$(VENV)/bin/flamecraft play

test: $(NATIVE) $(CATALOGUES_CHECKED)
	$(VENV)/bin/ruff check src tests bench scripts setup.py
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -q -n 2

fuzz: $(NATIVE)
	$(VENV)/bin/pytest -q -n 2 -m slow

bench: $(NATIVE)
	$(PY) bench/random_games.py --players 4 --games 200

# bench/compare.py's PettingZoo contender connect_four_v3 needs the `bench` extra (pygame);
# the tests never do, so `make` does not install it.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt --no-build-isolation -e '.[bench]'
	touch $(BENCH_STAMP)

bench-deps: $(BENCH_STAMP)

# examples/train_maskable_ppo.py needs the `train` extra (sb3-contrib, PyTorch: large, so not
# in EXTRAS; the tests that use it skip without it). pip takes a CPU build of torch where one
# lies in its find-links; elsewhere add --index-url https://download.pytorch.org/whl/cpu.
train-deps: $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt --no-build-isolation -e '.[train]'

# Every contender side by side in one interleaved run (README, Speed). BASELINE=src folder of
# another checkout adds its pure form (the ismcts and dump_state goals compare against it).
compare: $(NATIVE) $(BENCH_STAMP)
	$(PY) bench/compare.py --rounds 11 $(if $(BASELINE),--baseline $(BASELINE))

# constraints.txt anew: the newest versions the extras allow, installed into a throw-away venv
# (README, Installing). Then `make test` on them, and commit the file.
CONSTRAINTS_VENV := build/constraints-venv
# The train extra is pinned too, though make does not install it.
CONSTRAINT_EXTRAS := $(EXTRAS),train
constraints:
	rm -rf $(CONSTRAINTS_VENV)
	python3 -m venv $(CONSTRAINTS_VENV)
	$(CONSTRAINTS_VENV)/bin/python -m pip install --quiet --upgrade pip setuptools
	$(CONSTRAINTS_VENV)/bin/python scripts/constraints.py requirements $(CONSTRAINT_EXTRAS) \
		> build/requirements.txt
	$(CONSTRAINTS_VENV)/bin/python -m pip install --quiet -r build/requirements.txt
	$(CONSTRAINTS_VENV)/bin/python scripts/constraints.py freeze $(CONSTRAINT_EXTRAS) \
		> build/constraints.txt
	mv build/constraints.txt constraints.txt
	rm -rf $(CONSTRAINTS_VENV)

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info src/flamecraft/_native
