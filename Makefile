# The two quick-start commands: `make demo` and `make test`. Both build a local virtual
# environment in .venv on first use (only Python 3.11+ and pip are needed) and reuse it after.
# `make demo` installs only what playing needs (`pip install -e .`); `make test` and the
# benchmarks add the test tools and the web page's server (`.[dev,web]`). The hardware libraries (`.[pi]`) are for a Pi only.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PLAY_STAMP := $(VENV)/.installed-play
STAMP  := $(VENV)/.installed

.PHONY: demo test bench bench-hanky bench-vision bench-serial bench-solve bench-mastermind clean docs-pictures photoreal photoreal-fetch bench-photoreal bench-serial-noise bench-journal mutation bench-web web-pictures train-reader train-reader-pieces bench-spotnet train-data train-data-new heldout-data bench-reader-speed bench-piece-looks validation-data bench-validation

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $(PLAY_STAMP)

# The dev install holds the play install, so it stamps both.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,web]'
	@touch $(STAMP) $(PLAY_STAMP)

demo: $(PLAY_STAMP)
	$(BIN)/arbiter demo

test: $(STAMP)
	$(BIN)/python -m pytest

# Mutation testing of the modules where a silent bug loses a game (docs/testing.md): each target in
# a scratch copy under /tmp with only its own tests, one at a time under nice (about 35 minutes
# in all on 2 cores; `make mutation MUTATION_TARGETS=crossing` for one).
MUTATION_TARGETS ?=
mutation: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutation]'
	$(BIN)/python benchmarks/mutation.py $(MUTATION_TARGETS)

# The learned spot network (vision/models/spotnet.onnx and its recipe spotnet.json; run 16b, read by
# the mills and Brain Hanky) remade from the recipe, seeded: needs the train extra (PyTorch, CPU
# build), the rendered training sets (`make train-data` and `make train-data-new`, 128 and 24 setups)
# and the whole photoreal dev set (validation figures only; the tree holds only its regression
# sample, so run `make photoreal-fetch` first). It trains on exactly the setups its recipe names
# (--setups-of). It was trained on one thread (which the recipe keeps) in 49 minutes, beside two
# other runs on two cores; a render beside it makes it ten times slower.
TRAIN_DATA ?= build/train-data
VAL_DATA ?= benchmarks/data/photoreal/dev
TRAIN_ARGS ?= --setups-of vision/models/spotnet.json --rendered 0.6 --synth 800 --steps 20000 --every 20000 --tint 0.1 --owner-loss 1 --seed 31 --threads 1
train-reader: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,train]'
	nice -n 10 $(BIN)/python -m training.train --train $(TRAIN_DATA) $(if $(wildcard $(TRAIN_NEW_DATA)/set.json),--train $(TRAIN_NEW_DATA)) --val $(VAL_DATA) $(TRAIN_ARGS)

# The pieces network (vision/models/spotnet-pieces.onnx, read by the families that name it,
# Family.network: Brainmaster's pegs, Thinking In Circles' tokens) remade from its recipe (run 12,
# docs/learned-reader.md): exactly the setups its recipe names (the first 64 of TRAIN_DATA, `make
# train-data`, and the pegs-and-tokens set, `make train-data-new`). About 15 minutes on two cores
# with nothing else running (a render beside it makes it ten times slower).
TRAIN_PIECES_ARGS ?= --setups-of vision/models/spotnet-pieces.json --rendered 0.6 --synth 800 --steps 12000 --every 12000 --tint 0.1 --seed 31 --threads 2
train-reader-pieces: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,train]'
	nice -n 10 $(BIN)/python -m training.train --train $(TRAIN_DATA) --train $(TRAIN_NEW_DATA) --val $(VAL_DATA) $(TRAIN_PIECES_ARGS) --out vision/models/spotnet-pieces.onnx

# The spot network's time per batch of patches (24 and 373), cv2.dnn and onnxruntime.
bench-spotnet: $(STAMP)
	$(BIN)/python benchmarks/spotnet.py

# Kunjing's three and four colours, harder colours, beads and coins: pieces given as data, read
# by calibration alone (docs/learned-reader.md)
bench-piece-looks: $(STAMP)
	$(BIN)/python benchmarks/piece_looks.py

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

# Solved games: value from the start, positions, solve time and hint cost (about 30 s).
bench-solve: $(STAMP)
	$(BIN)/python benchmarks/solve.py

bench-mastermind: $(STAMP)
	$(BIN)/python benchmarks/mastermind.py

# The web page: verdict-to-page latency with 20 spectator pages connected, and the server's CPU
# per second of play (about 30 s; docs/web.md).
bench-web: $(STAMP)
	$(BIN)/python benchmarks/web.py

# The web page's pictures in docs/web.md, taken in headless Chromium (apt-get install chromium).
web-pictures: $(STAMP)
	$(BIN)/python -m arbiter.web.docs_pictures docs/web

bench-hanky: $(STAMP)
	$(BIN)/python benchmarks/brain_hanky.py

# Camera reader accuracy and speed on simulated frames, the measured and the learned reader (about 3
# minutes each; `--quick` for a smoke run, `--reader measured` for one).
bench-vision: $(STAMP)
	$(BIN)/python benchmarks/vision.py

# The readers' time per frame by stage (issue 31): the measured and the learned reader on the
# same frames, nine men's morris at 1280x720 and Brain Hanky at 1920x1080 (a few minutes).
bench-reader-speed: $(STAMP)
	$(BIN)/python benchmarks/vision.py --speed-only

# The sensor board: frames decoded a second, sensor-to-Observation latency (about 45 s).
bench-serial: $(STAMP)
	PYTHONPATH=. $(BIN)/python benchmarks/serial.py

# The sensor board on a noisy line: the handshake at 3% of bytes spoilt (20 seeded runs a board, in
# lockstep and in real time), what the screen says at 10%, the line-health estimate (about 2 minutes).
bench-serial-noise: $(STAMP)
	PYTHONPATH=. $(BIN)/python benchmarks/serial_noise.py

# The journal under stress: 100 pairs of `arbiter play` begun in the same second, 50 camera-simulated
# and 10 virtual-serial games killed with kill -9 at random moments and resumed (about 30 minutes on
# 2 busy cores; `--pairs 10 --kills 5 --serial-kills 2` for a smoke run).
bench-journal: $(STAMP)
	$(BIN)/python benchmarks/journal_stress.py

# The photoreal evaluation sets (Blender/Cycles renders of printed boards and real pieces; about
# 2500 pictures at half a minute to a minute each on 2 cores, so 17-25 hours for all of them and
# about an hour for one blind set: PHOTOREAL_SETS=blind12; docs/photoreal.md). Needs blender:
# `sudo apt-get install blender`.
PHOTOREAL_SETS ?= dev holdout blind blind2 blind3 blind4 blind5 blind6 blind7 blind8 blind9 blind10 blind11 blind12 blind13 blind14 blind15 blind16 blind17 blind18 blind19 blind20 blind21 blind22 blind23 blind24 blind25 blind26 game game2 game3 game4
photoreal: $(STAMP)
	@command -v $${BLENDER:-blender} >/dev/null 2>&1 || { echo "make photoreal needs Blender: sudo apt-get install blender (or set BLENDER=/path/to/blender)"; exit 2; }
	for s in $(PHOTOREAL_SETS); do $(BIN)/python benchmarks/photoreal/make_set.py $$s --threads 2 || exit 1; done

# Training scenes for a learned reader (docs/training-data.md): TRAIN_SCENES setups of random games,
# men, materials, colours, cloths, cameras and lamps, each two calibration pictures and 8 frames,
# without the held-out factors TRAIN_HOLD_OUT; seeded and resumable (stop it and run it again), never
# committed. `make heldout-data` renders a set of HELDOUT_SCENES setups per held-out factor, each with
# that factor and no other. One Blender thread by default (TRAIN_THREADS): minutes per setup.
# TRAIN_DATA (build/train-data) is set above, where make train-reader reads it.
HELDOUT_DATA ?= build/heldout-data
# Issue 33's pieces (Brainmaster's pegs, Thinking In Circles' tokens) in a set of their own, so the
# mills and Brain Hanky run above keeps its setups: `make train-data-new`, read by train-reader.
TRAIN_NEW_DATA ?= build/train-data-new
TRAIN_NEW_SCENES ?= 24
TRAIN_NEW_SEED ?= 41041
TRAIN_SCENES ?= 128
HELDOUT_SCENES ?= 6
TRAIN_SEED ?= 40040
TRAIN_THREADS ?= 1
TRAIN_HOLD_OUT ?= turn30,wood,colours:red-blue,lens:45-50,cloth:green
train-data: $(STAMP)
	@command -v $${BLENDER:-blender} >/dev/null 2>&1 || { echo "make train-data needs Blender: sudo apt-get install blender (or set BLENDER=/path/to/blender)"; exit 2; }
	$(BIN)/python benchmarks/photoreal/make_set.py train --setups $(TRAIN_SCENES) --seed $(TRAIN_SEED) --hold-out $(TRAIN_HOLD_OUT) --threads $(TRAIN_THREADS) --out $(TRAIN_DATA)

train-data-new: $(STAMP)
	@command -v $${BLENDER:-blender} >/dev/null 2>&1 || { echo "make train-data-new needs Blender: sudo apt-get install blender (or set BLENDER=/path/to/blender)"; exit 2; }
	$(BIN)/python benchmarks/photoreal/make_set.py train --family new --setups $(TRAIN_NEW_SCENES) --seed $(TRAIN_NEW_SEED) --hold-out $(TRAIN_HOLD_OUT) --threads $(TRAIN_THREADS) --out $(TRAIN_NEW_DATA)

heldout-data: $(STAMP)
	@command -v $${BLENDER:-blender} >/dev/null 2>&1 || { echo "make heldout-data needs Blender: sudo apt-get install blender (or set BLENDER=/path/to/blender)"; exit 2; }
	$(BIN)/python benchmarks/photoreal/make_set.py heldout --setups $(HELDOUT_SCENES) --seed $(TRAIN_SEED) --hold-out $(TRAIN_HOLD_OUT) --threads $(TRAIN_THREADS) --out $(HELDOUT_DATA)

# The stored photoreal sets that have left the work tree (docs/photoreal.md), brought back from
# the last commit that held them all. They come back as untracked files (benchmarks/data/photoreal/
# is ignored, so they are never committed again) and the index is not touched. In a clone made
# with --filter=blob:none git downloads their pictures now (about 650 MB).
PHOTOREAL_FROM := 6b1a4d4
photoreal-fetch:
	@git cat-file -e $(PHOTOREAL_FROM)^{commit} 2>/dev/null || { echo "this clone does not hold commit $(PHOTOREAL_FROM): clone without --depth (git fetch --unshallow), then run make photoreal-fetch again"; exit 2; }
	git restore --source=$(PHOTOREAL_FROM) --worktree -- benchmarks/data/photoreal
	@echo "photoreal sets restored in benchmarks/data/photoreal (untracked; make bench-photoreal reads them)"

# The learned reader's pooled validation (benchmarks/validation.py, docs/learned-reader.md): the held-out
# seeds and pegs and tokens sets read fresh in earlier sessions, now seen, remade from their seeds into
# build/validation (no machine keeps rendered sets between sessions; about a quarter of an hour a
# held-out seed on 2 cores, resumable), then read with the learned reader and pooled per family.
validation-data: $(STAMP)
	@command -v $${BLENDER:-blender} >/dev/null 2>&1 || { echo "make validation-data needs Blender: sudo apt-get install blender (or set BLENDER=/path/to/blender)"; exit 2; }
	$(BIN)/python benchmarks/validation.py render

bench-validation: $(STAMP)
	$(BIN)/python benchmarks/validation.py read

# The camera reader on the photoreal sets: calibrate each setup, read every frame, score, pool per family
# (about 2 minutes).
bench-photoreal: $(STAMP)
	$(BIN)/python benchmarks/photoreal.py
	$(BIN)/python benchmarks/photoreal.py --game

docs-pictures: $(STAMP)
	$(BIN)/python -m vision.docs_pictures docs/boards
	$(BIN)/python -m vision.calibration_pictures docs/calibration
	$(BIN)/python -m arbiter.sensor_pictures docs/sensor

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
