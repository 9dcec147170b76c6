#!/bin/sh
# An installed copy, moved elsewhere, works: cmake --install into a folder of its own, the
# folder renamed, then the installed rlab checks an exercise (its runner found in
# libexec/reduction-lab from bin/) and the installed app draws with its fonts list.
#   installed_copy_test.sh BUILD-FOLDER CMAKE
set -eu
build=$1
cmake=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/rlab-installed-XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$cmake" --install "$build" --prefix "$dir/installed" >/dev/null
mv "$dir/installed" "$dir/moved"
unset RLAB_EXERCISE_RUNNER RLAB_EXECUTABLE RLAB_EXERCISE_DIR
# The check records the learner's progress: in this folder, never the real home's.
XDG_DATA_HOME="$dir/data"
export XDG_DATA_HOME
"$dir/moved/bin/rlab" exercise solution fold-any-length >"$dir/fold.cu"
"$dir/moved/bin/rlab" exercise check fold-any-length "$dir/fold.cu" >"$dir/check.txt"
grep -q "^PASSED" "$dir/check.txt" || { cat "$dir/check.txt"; exit 1; }
test -f "$dir/moved/share/reduction-lab/manual/index.html"
# ... with the pictures its pages show
test -f "$dir/moved/share/reduction-lab/screenshots/barrier-off.png"
test -f "$dir/moved/share/man/man1/rlab.1.gz"
if [ -x "$dir/moved/bin/reduction-lab" ] && command -v xvfb-run >/dev/null; then
  xvfb-run -a "$dir/moved/bin/reduction-lab" --screenshot "$dir/app.png" 2>"$dir/app.err"
  if grep -q "no fonts list" "$dir/app.err"; then cat "$dir/app.err"; exit 1; fi
  test -s "$dir/app.png"
fi
echo "installed, moved, and working: $dir/moved"
