#!/usr/bin/env bash
# The GPU tests (rlab_gpu_tests) in parts that each finish within five minutes on one H200, so
# that each fits one call on a lent GPU machine; ctest runs each part as a test of its own
# (label gpu). Measured on an NVIDIA H200 (2026-11-28): sums of 2^28 elements 3.0 min, the other
# lesson tests 2.0 min, the learner's CUDA 1.3 min, races and profiles 2.3 min.
#
#   tests/run-gpu-tests.sh BINARY PART   one part: 2^28, lessons, learners or races
#   tests/run-gpu-tests.sh BINARY        every part in turn, each with its time, one after another
#
# Exit status: the part's (77: no GPU here, every part skipped), or for all parts the first
# failure's. Extra arguments after PART go to doctest (e.g. -d for each test's time).
set -uo pipefail

binary=${1:?usage: run-gpu-tests.sh BINARY [PART]}
parts=(2^28 lessons learners races)

filters() {
  case "$1" in
    2^28) echo "-tc=gpu: sums of 2^28*" ;;
    lessons) echo "-sf=*gpu_test.cpp|-tce=gpu: sums of 2^28*" ;;
    learners) echo "-sf=*gpu_learner_test.cpp" ;;
    races) echo "-sf=*gpu_races_test.cpp,*gpu_profile_test.cpp" ;;
    *) echo "run-gpu-tests.sh: no part \"$1\"; the parts are ${parts[*]}" >&2; return 2 ;;
  esac
}

run_part() {
  local part=$1 spec
  shift
  spec=$(filters "$part") || return 2
  IFS='|' read -r -a args <<< "$spec"
  "$binary" "${args[@]}" "$@"
}

if [ $# -ge 2 ]; then
  part=$2
  shift 2
  run_part "$part" "$@"
  exit $?
fi

status=0
for part in "${parts[@]}"; do
  echo "== part $part"
  start=$(date +%s)
  run_part "$part" -d
  code=$?
  echo "== part $part: exit $code after $(($(date +%s) - start)) s"
  [ $code -eq 77 ] && exit 77  # no GPU: the other parts would say the same
  [ $status -eq 0 ] && status=$code
done
exit $status
