#!/usr/bin/env bash
# Sets everything up and opens Reduction Lab: installs the Debian packages that are missing,
# configures and builds (incrementally), then opens the desktop app — or, with no display,
# the terminal tour.
#   ./run.sh                 set up, build, open the app
#   ./run.sh --build-only    set up and build, open nothing (test.sh uses this)
#   ./run.sh rlab ARGS...    set up, build, then run the command line: ./run.sh rlab tour
set -euo pipefail
cd "$(dirname "$0")"

# libseccomp-dev: the box a learner's exercise kernel runs in (rlab-exercise-runner's filter).
packages=(cmake ninja-build g++ pkg-config
  libboost-context-dev libcli11-dev nlohmann-json3-dev doctest-dev libmd4c-dev libmd4c-html0-dev
  dpkg-dev  # dpkg-dev: dpkg-shlibdeps, which `cpack -G DEB` asks for the package's dependencies
  libseccomp-dev
  python3)  # python3: the Moodle CodeRunner question's template, run by the grader tests
# The desktop app's: where a distribution lacks one, the app is not built and rlab still is.
# libgif-dev, libwebp-dev: exported animations; libegl-dev, libegl-mesa0: drawing them (and
# screenshots) with no display at all.
gui_packages=(libglfw3-dev libimgui-dev libstb-dev python3-glad libgl1-mesa-dri
  libgif-dev libwebp-dev libegl-dev libegl-mesa0
  fonts-dejavu-core fonts-noto-cjk xvfb xauth
  librsvg2-bin)  # rsvg-convert: the icon's PNG sizes, from its SVG

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

install_missing_packages() {
  local missing=() p
  for p in "${packages[@]}" "${gui_packages[@]}"; do installed "$p" || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  local available=()
  for p in "${missing[@]}"; do
    if apt-cache show "$p" >/dev/null 2>&1; then
      available+=("$p")
    elif [[ " ${gui_packages[*]} " == *" $p "* ]]; then
      echo "Package $p is not available here: the desktop app will not be built; rlab will."
    else
      echo "Package $p is not available here, and Reduction Lab needs it." >&2
      exit 1
    fi
  done
  [ ${#available[@]} -eq 0 ] && return
  echo "Installing Debian packages: ${available[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${available[@]}"
}

build() {
  if [ ! -f build/build.ninja ]; then
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRLAB_WERROR="${RLAB_WERROR:-OFF}"
  fi
  cmake --build build
}

install_missing_packages
build
[ "${1:-}" = "--build-only" ] && exit 0
if [ "${1:-}" = "rlab" ]; then
  shift
  exec build/app/cli/rlab "$@"
fi

if [ -x build/app/gui/reduction-lab ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec build/app/gui/reduction-lab "$@"
fi
if [ -x build/app/gui/reduction-lab ]; then
  echo "No display found (DISPLAY is not set), so here is the terminal tour instead."
fi
exec build/app/cli/rlab tour
