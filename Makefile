# bufferlog — the two commands: `make run` (main job) and `make test` (tests).
# Both set everything up on a fresh machine.
PY        ?= python3
VENV      := .venv
BIN       := $(VENV)/bin
SHARED    ?= ../shared
EXAMPLE   ?= examples/init_and_matmul.mlir
MLIR_OPT  ?= mlir-opt-22
FILECHECK ?= FileCheck-22
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test venv oracle browser lint bench bench-speed clean generate

## What running needs: bufferlog and its runtime dependencies (no test or Dask extras);
## one small run builds the parser tables and checks the rules into the cache (a few
## seconds, once) so the first real run does not pay for them.
$(BIN)/bufferlog: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	$(BIN)/bufferlog bufferize examples/raw_conflict.mlir >/dev/null
	touch $@

## Development: the test and Dask extras too (pytest, hypothesis, ruff, dask).
$(VENV)/.extras: $(BIN)/bufferlog
	$(BIN)/pip install -q -e '.[test,dask]'
	$(BIN)/python -c 'from bufferlog import client; client.precompile()'
	touch $@

venv: $(VENV)/.extras

## Main job: in-place analysis of a bundled example, then bufferization to memref IR
## with deallocations (override with `make run EXAMPLE=path/to/file.mlir`).
run: $(BIN)/bufferlog
	@echo "== bufferlog analyze $(EXAMPLE)"
	$(BIN)/bufferlog analyze $(EXAMPLE)
	@echo "== bufferlog bufferize $(EXAMPLE)"
	$(BIN)/bufferlog bufferize $(EXAMPLE)

## The real MLIR tools (the tests' oracle): Debian mlir-22-tools and llvm-22-tools (FileCheck-22),
## plus the counting allocator.
oracle:
	@if ! command -v $(MLIR_OPT) >/dev/null 2>&1; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "installing mlir-22-tools (apt)"; \
	    $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq mlir-22-tools >/dev/null; \
	  else echo "warning: apt-get not available; oracle tests will be skipped"; fi; \
	fi
	@if ! command -v $(FILECHECK) >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing llvm-22-tools (apt: FileCheck-22)"; \
	  $(SUDO) apt-get install -y -qq llvm-22-tools >/dev/null 2>&1 || \
	  { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq llvm-22-tools >/dev/null; } || \
	  echo "warning: llvm-22-tools not installed; the FileCheck tests will be skipped"; \
	fi
	@mkdir -p build
	@if [ -f $(SHARED)/oracle/memcount.c ] && [ ! -f build/libmemcount.so ]; then \
	  cc -shared -fPIC -O2 -o build/libmemcount.so $(SHARED)/oracle/memcount.c; fi

## The files generated from the op models (backend/ops) and the output interface
## (rules/interface.dl); committed, and checked by the tests.
generate: venv
	$(BIN)/python -m bufferlog.backend.ops.gen
	$(BIN)/python -m bufferlog.engine.gen_outputs

lint: venv
	$(BIN)/ruff check bufferlog frontend engine backend tests benchmarks

## Headless Chromium for the HTML report test (Debian `chromium`; skipped when unavailable).
browser:
	@if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing chromium (apt)"; \
	  $(SUDO) apt-get install -y -qq chromium >/dev/null 2>&1 || \
	  { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium >/dev/null; } || \
	  echo "warning: chromium not installed; the HTML render test will be skipped"; \
	fi

test: venv oracle browser lint
	$(BIN)/pytest -q -p no:cacheprovider

## Benchmarks against mlir-opt-22 (about 15 min; FULL=1 adds the largest sizes); results in
## benchmarks/results/, table in benchmarks/README.md.
bench: venv oracle
	$(BIN)/python -m benchmarks.run_all $(if $(FULL),--full)

## Start-up, warm mode and batch alone (about 15 min on a quiet machine): a fresh regular
## install, then per file cold and warm against mlir-opt, optimal against oneshot, and
## batch --jobs 2 against xargs -P 2 and a loop of mlir-opt, two passes each.
bench-speed: venv oracle
	$(BIN)/python -m benchmarks.run_all bench_per_file bench_batch

clean:
	rm -rf $(VENV) build *.egg-info
