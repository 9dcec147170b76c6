#!/usr/bin/env bash
# The Debian package on a fresh lab machine: for each Debian release, a fresh system made with
# debootstrap, the package installed with apt (which resolves its dependencies), then what a
# class does with it — rlab's tour, an exercise checked, a teacher's chapter checked, the app
# drawing a screenshot under Xvfb — and the package purged: nothing of it may be left.
# Needs root and Debian's mirror (or RLAB_DEBIAN_MIRROR); not part of ctest.
#
#   tests/package_check.sh build/reduction-lab_*.deb [SUITE ...]   (default: bookworm trixie)
#
# Fresh systems are kept in $RLAB_CHROOT_CACHE (default /var/tmp/rlab-chroot-cache/SUITE-base)
# and copied for each check; the logs and screenshots go to $RLAB_CHECK_OUT (default
# ./package-check).
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 PACKAGE.deb [SUITE ...]  (build it with: cd build && cpack -G DEB)" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "$0 needs root: it makes and enters chroots." >&2
  exit 2
fi
deb=$(realpath "$1")
shift
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
    mountpoint -q "$mount" && umount -l "$mount"
  done
  rm -rf --one-file-system "$root"
  root=""
}
trap cleanup EXIT

failed=0
for suite in "${suites[@]}"; do
  log="$out/$suite.log"
  : >"$log"
  say() { echo "== $suite: $*" | tee -a "$log"; }
  base="$cache/$suite-base"
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
    fi
  }

  run apt-get update
  # What a lab machine's desktop has and the check needs: an X server to draw into.
  run apt-get install -y --no-install-recommends xvfb xauth
  # Every file before the package, to compare after it is purged.
  list_files() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./var/cache \
      -o -path ./var/lib/apt/lists -o -path ./var/log -o -path ./root/.cache \) -prune -o -print) | sort
  }
  list_files >"$out/$suite.before"

  cp "$deb" "$root/tmp/"
  run apt-get install -y "/tmp/$(basename "$deb")"
  in_root dpkg-query -W -f='${Version} ${Installed-Size} kB\n${Depends}\n' reduction-lab >>"$log" 2>&1 || true
  in_root dpkg -L reduction-lab >"$out/$suite.files" 2>>"$log" || true

  run rlab list
  # The tour, unpaced: every lesson once. (rlab tour --auto 0 where the tour has --auto.)
  if in_root rlab tour --help 2>/dev/null | grep -q -- --auto; then
    run rlab tour --auto 0
  else
    run rlab tour --delay-ms 0
  fi
  in_root rlab exercise solution fold-any-length >"$root/tmp/fold-any-length.cu" 2>>"$log"
  run rlab exercise check fold-any-length /tmp/fold-any-length.cu
  cp "$here/tests/fixtures/chapters/class.md" "$root/tmp/class.md"
  run rlab lesson --check /tmp/class.md
  run xvfb-run -a -s "-screen 0 1280x800x24" reduction-lab --screenshot /tmp/barrier.png \
    --lesson barrier --no-barrier --schedule stall:4:2:1 --chapter /tmp/class.md --view text
  cp "$root/tmp/barrier.png" "$out/$suite-barrier.png" 2>/dev/null || true
  run test -f /usr/share/man/man1/rlab.1.gz -a -f /usr/share/man/man1/reduction-lab.1.gz \
    -a -f /usr/share/bash-completion/completions/rlab -a -f /usr/share/icons/hicolor/48x48/apps/reduction-lab.png \
    -a -f /usr/share/reduction-lab/manual/index.html
  run sh -c 'ls /usr/share/applications/*.desktop /usr/share/metainfo/*.metainfo.xml'

  run apt-get purge -y --autoremove reduction-lab
  list_files >"$out/$suite.after"
  # Nothing of the package left: none of its files, nothing named after it.
  left=$(while read -r f; do
    [ -f "$root$f" ] || [ -L "$root$f" ] && echo "$f"
  done <"$out/$suite.files"; (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp \) -prune -o \
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
  cleanup
done
exit $failed
