#!/usr/bin/env bash
# Sets everything up and opens Reduction Lab: installs the Debian packages that are missing,
# configures and builds (incrementally), then opens the desktop app — or, with no display,
# the terminal tour.
#   ./run.sh                 set up, build, open the app
#   ./run.sh --build-only    set up and build, open nothing (test.sh uses this)
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake ninja-build g++ pkg-config
  libboost-context-dev libcli11-dev nlohmann-json3-dev doctest-dev
  libglfw3-dev libimgui-dev libstb-dev python3-glad libgl1-mesa-dri fonts-dejavu-core
  xvfb xauth)

install_missing_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "Installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  if [ ! -f build/build.ninja ]; then
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  fi
  cmake --build build
}

install_missing_packages
build
[ "${1:-}" = "--build-only" ] && exit 0

if [ -x build/app/gui/reduction-lab ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec build/app/gui/reduction-lab "$@"
fi
if [ -x build/app/gui/reduction-lab ]; then
  echo "No display found (DISPLAY is not set), so here is the terminal tour instead."
fi
exec build/app/cli/rlab tour
