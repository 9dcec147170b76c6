#!/usr/bin/env bash
# Sets everything up, builds, and runs every test through ctest; then prints the benchmarks'
# figures: the simulator's throughput, compiling and checking an exercise, and the app's frame
# time (figures, never a pass/fail on time).
set -euo pipefail
cd "$(dirname "$0")"
./run.sh --build-only
ctest --test-dir build --output-on-failure -j "$(nproc)"
build/tests/rlab_sim_bench
build/tests/rlab_exercise_bench
if [ -x build/tests/rlab_gui_bench ]; then build/tests/rlab_gui_bench; fi
