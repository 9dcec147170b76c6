#!/usr/bin/env bash
# The Debian package on a fresh lab machine: for each Debian release, a fresh system made with
# debootstrap, the package installed with apt (which resolves its dependencies), then what a
# class does with it — rlab's tour, an exercise checked, a teacher's chapter checked, the app
# drawing a screenshot under Xvfb and an animation with no display — and the package purged: nothing of it may be left. For the
# release the PrairieLearn grader image is built from, that image's own steps too, and a right
# and a racing kernel graded in it.
# Needs root and Debian's mirror (or RLAB_DEBIAN_MIRROR); not part of ctest.
#
#   tests/package_check.sh build/reduction-lab_*.deb [SUITE ...]   the package built here
#   tests/package_check.sh --build [SUITE ...]                     built in each SUITE first
#
# SUITE defaults to bookworm trixie. A package links the libraries of the release it was built
# on (Debian 12's Boost 1.74 is not in Debian 13), so one built on Debian 12 installs on Debian
# 12; --build builds one in each release's own fresh system (its packages from run.sh's lists,
# the tests left out, no CUDA) from this checkout's committed tree, and checks that one.
# Fresh systems are kept in $RLAB_CHROOT_CACHE (default /var/tmp/rlab-chroot-cache/SUITE-base)
# and copied for each step; the logs, packages and screenshots go to $RLAB_CHECK_OUT (default
# ./package-check).
set -euo pipefail

usage() {
  echo "usage: $0 PACKAGE.deb [SUITE ...]  or  $0 --build [SUITE ...]" >&2
  echo "(a package from this machine's build: cd build && cpack -G DEB)" >&2
  exit 2
}
[ $# -ge 1 ] || usage
build=0
deb=""
if [ "$1" = "--build" ]; then
  build=1
elif [ -f "$1" ]; then
  deb=$(realpath "$1")
else
  usage
fi
shift
if [ "$(id -u)" -ne 0 ]; then
  echo "$0 needs root: it makes and enters chroots." >&2
  exit 2
fi
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(bookworm trixie)
mirror=${RLAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${RLAB_CHROOT_CACHE:-/var/tmp/rlab-chroot-cache}
out=$(realpath -m "${RLAB_CHECK_OUT:-package-check}")
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$cache" "$out"
command -v debootstrap >/dev/null || { echo "$0 needs debootstrap (apt-get install debootstrap)." >&2; exit 2; }

root=""
cleanup() {
  [ -n "$root" ] || return 0
  for mount in "$root/dev/pts" "$root/dev" "$root/proc"; do
    if mountpoint -q "$mount"; then umount -l "$mount"; fi
  done
  rm -rf --one-file-system "$root"
  root=""
}
trap cleanup EXIT

# A fresh system of the suite to work in: $root, a copy of the kept one.
enter() {
  local suite=$1 base="$cache/$1-base"
  if [ ! -x "$base/usr/bin/apt-get" ]; then
    say "debootstrap --variant=minbase $suite (once; kept in $base)"
    rm -rf "$base"
    debootstrap --variant=minbase "$suite" "$base" "$mirror" >>"$log" 2>&1
  fi
  root=$(mktemp -d "/var/tmp/rlab-check-$suite-XXXXXX")
  cp -a "$base/." "$root/"
  mount -t proc proc "$root/proc"
  mount --bind /dev "$root/dev"
  mount --bind /dev/pts "$root/dev/pts"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
}
in_root() {
  chroot "$root" env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
run() {  # a step: its command and output in the log, and its verdict
  echo "\$ $*" >>"$log"
  if in_root "$@" >>"$log" 2>&1; then
    say "ok: $*"
  else
    say "FAILED ($?): $*"
    failed=1
    return 1
  fi
}

# Builds the package in the suite's own system from the committed tree: $deb.
build_package() {
  local suite=$1
  enter "$suite"
  mkdir -p "$root/src"
  git -C "$here" archive HEAD | tar -x -C "$root/src"
  # The packages run.sh installs, less what only the app's checks use.
  eval "$(sed -n '/^packages=(/,/)/p;/^gui_packages=(/,/)/p' "$here/run.sh")"
  run apt-get update
  run apt-get install -y --no-install-recommends "${packages[@]}" "${gui_packages[@]}" file
  run cmake -S /src -B /src/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRLAB_TESTS=OFF -DRLAB_CUDA=OFF
  run cmake --build /src/build
  run sh -c 'cd /src/build && cpack -G DEB'
  deb=$(ls "$root"/src/build/reduction-lab_*.deb | head -n 1)
  mkdir -p "$out/$suite"
  cp "$deb" "$out/$suite/"
  deb="$out/$suite/$(basename "$deb")"
  cleanup
}

# The PrairieLearn grader image (assets/graders/prairielearn/Dockerfile) made by its own steps
# in a fresh system of the release its FROM names: the package copied where its COPY puts it,
# each RUN line run as written; then the question's entrypoint grades a right kernel and one
# with its barriers taken out, in PrairieLearn's folders, as the external grader runs it.
grader_image_suite() {
  case "$(sed -n 's/^FROM debian:\([0-9]*\).*/\1/p' "$here/assets/graders/prairielearn/Dockerfile")" in
    12) echo bookworm ;;
    13) echo trixie ;;
  esac
}
check_grader_image() {
  local dockerfile="$here/assets/graders/prairielearn/Dockerfile"
  local question="$here/assets/graders/prairielearn/question"
  say "the grader image's steps ($dockerfile)"
  enter "$1"
  cp "$deb" "$root/tmp/"
  # RUN lines, their continuations joined as Docker joins them.
  local line
  while IFS= read -r line; do
    run sh -c "$line" || return 1
  done < <(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$dockerfile" | sed -n 's/^RUN //p')
  mkdir -p "$root/grade/student" "$root/grade/results"
  cp -r "$question/tests" "$root/grade/"
  local exercise
  exercise=$(tr -d ' \t\r\n' <"$question/tests/exercise")
  in_root rlab exercise solution "$exercise" >"$root/grade/student/kernel.cu" 2>>"$log"
  run /grade/tests/grade.sh || true
  cp "$root/grade/results/results.json" "$out/$1-grader-right.json" 2>/dev/null || true
  if grep -Eq '"score": ?1(\.0)?[,}]' "$root/grade/results/results.json" 2>/dev/null; then
    say "ok: the right kernel scores 1"
  else
    say "FAILED: the right kernel did not score 1 (results in $1-grader-right.json)"
    failed=1
  fi
  sed -i 's/__syncthreads();//' "$root/grade/student/kernel.cu"
  run /grade/tests/grade.sh || true
  cp "$root/grade/results/results.json" "$out/$1-grader-racing.json" 2>/dev/null || true
  if grep -Eq '"gradable": ?true' "$root/grade/results/results.json" 2>/dev/null &&
    ! grep -Eq '"score": ?1(\.0)?[,}]' "$root/grade/results/results.json"; then
    say "ok: the kernel without its barriers is graded, below 1"
  else
    say "FAILED: the kernel without its barriers was not graded below 1"
    failed=1
  fi
  cleanup
}

failed=0
for suite in "${suites[@]}"; do
  log="$out/$suite.log"
  : >"$log"
  say() { echo "== $suite: $*" | tee -a "$log"; }
  if [ $build -eq 1 ]; then
    build_package "$suite" || { say "FAILED: no package built"; cleanup; continue; }
  fi
  say "checking $(basename "$deb")"
  enter "$suite"
  run apt-get update || true
  # What a lab machine's desktop has and the check needs: an X server to draw into.
  run apt-get install -y --no-install-recommends xvfb xauth || true
  # Every file before the package, to compare after it is purged.
  list_files() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./var/cache \
      -o -path ./var/lib/apt/lists -o -path ./var/log -o -path ./root/.cache \) -prune -o -print) | sort
  }
  list_files >"$out/$suite.before"
  in_root dpkg-query -W -f='${Package}\n' | sort >"$out/$suite.packages-before"

  cp "$deb" "$root/tmp/"
  run apt-get install -y "/tmp/$(basename "$deb")" || { cleanup; continue; }
  in_root dpkg-query -W -f='${Version} ${Installed-Size} kB\n${Depends}\n' reduction-lab >>"$log" 2>&1 || true
  in_root dpkg -L reduction-lab >"$out/$suite.files" 2>>"$log" || true

  run rlab list || true
  # No NVIDIA driver here: the simulator, and a note that says why.
  run rlab run barrier || true
  # The tour, unpaced: every lesson once. (rlab tour --auto 0 where the tour has --auto.)
  if in_root rlab tour --help 2>/dev/null | grep -q -- --auto; then
    run rlab tour --auto 0 || true
  else
    run rlab tour --delay-ms 0 || true
  fi
  in_root rlab exercise solution fold-any-length >"$root/tmp/fold-any-length.cu" 2>>"$log" || true
  run rlab exercise check fold-any-length /tmp/fold-any-length.cu || true
  # The example class the package ships, as a teacher would start from it.
  run cp /usr/share/reduction-lab/manual/examples/barrier-class.md /tmp/class.md || true
  run rlab lesson --check /tmp/class.md || true
  run xvfb-run -a -s "-screen 0 1280x800x24" reduction-lab --screenshot /tmp/barrier.png \
    --lesson barrier --no-barrier --schedule stall:4:2:1 --chapter /tmp/class.md --view text || true
  cp "$root/tmp/barrier.png" "$out/$suite-barrier.png" 2>/dev/null || true
  # An animation for slides, with no display at all (the app draws through EGL, off-screen).
  run rlab export barrier --no-barrier --schedule stall:4:2:1 --to /tmp/race.gif || true
  cp "$root/tmp/race.gif" "$out/$suite-race.gif" 2>/dev/null || true
  run test -f /usr/share/man/man1/rlab.1.gz -a -f /usr/share/man/man1/reduction-lab.1.gz \
    -a -f /usr/share/bash-completion/completions/rlab -a -f /usr/share/icons/hicolor/48x48/apps/reduction-lab.png \
    -a -f /usr/share/reduction-lab/manual/index.html || true
  run sh -c 'ls /usr/share/applications/*.desktop /usr/share/metainfo/*.metainfo.xml' || true
  in_root dpkg-query -W -f='${Package}\n' | sort >"$out/$suite.packages-with"

  run apt-get purge -y --autoremove reduction-lab || true
  list_files >"$out/$suite.after"
  # Nothing of the package left: none of its files, nothing named after it outside the users'
  # homes (what a learner wrote there, exercises and progress, is theirs: no package removes it).
  left=$(while read -r f; do
    if [ -f "$root$f" ] || [ -L "$root$f" ]; then echo "$f"; fi
  done <"$out/$suite.files"; (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp \
    -o -path ./root -o -path ./home \) -prune -o \
    \( -iname '*reduction-lab*' -o -name 'rlab*' -o -iname '*ReductionLab*' \) -print) || true)
  if [ -n "$left" ]; then
    say "FAILED: left after purge:"
    echo "$left" | tee -a "$log"
    failed=1
  else
    say "ok: nothing of the package is left after apt-get purge --autoremove"
  fi
  added=$(comm -13 "$out/$suite.before" "$out/$suite.after" | wc -l)
  say "files there after the purge that were not before it: $added (listed in $suite.after-only)"
  comm -13 "$out/$suite.before" "$out/$suite.after" >"$out/$suite.after-only"
  in_root dpkg-query -W -f='${Package}\n' | sort >"$out/$suite.packages-after"
  say "packages apt kept after the purge (what others still recommend): $(comm -12 \
    "$out/$suite.packages-with" "$out/$suite.packages-after" | comm -13 "$out/$suite.packages-before" - | tr '\n' ' ')"
  cleanup
  if [ "$suite" = "$(grader_image_suite)" ]; then check_grader_image "$suite" || failed=1; fi
done
exit $failed
