#!/bin/bash
# PrairieLearn's external grader runs this in the image (the question's info.json names it as
# the entrypoint): the student's kernel from student/ graded with `rlab exercise grade` into
# results/results.json (PrairieLearn's format: gradable, a score from 0 to 1, points per test).
# The exercise's id is in tests/exercise beside this file. GRADE_ROOT (default /grade), RLAB
# (default rlab), RLAB_LANG (default en) and RLAB_CASE_SECONDS (default 5) change where and how.
set -u
root="${GRADE_ROOT:-/grade}"
# The text as a JSON string's contents: backslashes, quotes, tabs and line ends escaped.
json_text() {
  printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' |
    awk 'BEGIN { ORS = "" } NR > 1 { print "\\n" } { print }'
}
mkdir -p "$root/results"
results="$root/results/results.json"
# A submission rlab could not grade: a score of 0 and the sentence, never a grader that crashed.
fail() {
  printf '{"gradable": true, "score": 0, "message": "%s", "tests": []}\n' "$(json_text "$1")" \
    > "$results"
  exit 0
}
[ -r "$root/tests/exercise" ] || fail "The question has no tests/exercise file with the exercise's id."
exercise="$(tr -d ' \t\r\n' < "$root/tests/exercise")"
mapfile -t files < <(find "$root/student" -maxdepth 2 -name '*.cu' -type f | sort)
[ "${#files[@]}" -gt 0 ] || fail "No .cu file was submitted: submit the kernel for exercise $exercise."
[ "${#files[@]}" -eq 1 ] || fail "Submit one .cu file; this submission has ${#files[@]}."
if ! "${RLAB:-rlab}" exercise grade "$exercise" "${files[0]}" --format prairielearn \
    --lang "${RLAB_LANG:-en}" --case-seconds "${RLAB_CASE_SECONDS:-5}" \
    > "$results.part" 2> "$root/results/rlab-errors.txt"; then
  fail "$(cat "$root/results/rlab-errors.txt")"
fi
mv "$results.part" "$results"
