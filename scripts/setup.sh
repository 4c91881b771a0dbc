# Shared by scripts/start and scripts/test: install the Debian packages the
# project needs (only those missing), then configure and build one preset.
# Usage: source scripts/setup.sh; attn_setup PRESET
set -euo pipefail

ATTN_PACKAGES=(
  cmake ninja-build clang lld pkg-config  # every preset builds with clang, lld and Ninja
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libeigen3-dev libopenblas-dev libgl-dev
  fonts-dejavu-core poppler-utils
  appstream desktop-file-utils libxml2-utils shared-mime-info groff-base dpkg-dev  # install test, cpack -G DEB
)

attn_missing_packages() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
  done
}

attn_install() {
  local missing
  missing=$(attn_missing_packages "$@")
  [ -z "$missing" ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "Need root (or sudo) to install: $missing" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "Installing: $missing"
  $sudo apt-get update -q
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
}

# Configure one preset. A build folder from before the presets chose Ninja
# and clang cannot be configured again in place (CMake refuses another
# generator): its cache goes, and every other file in it (the fuzz corpus) stays.
attn_configure() {
  local preset=$1 cache=build/$1/CMakeCache.txt
  if [ -f "$cache" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache"; then
    echo "build/$preset was configured for another build tool; configuring it afresh"
    rm -rf "$cache" "build/$preset/CMakeFiles"
  fi
  cmake --preset "$preset"
}

attn_setup() {
  local preset=$1
  attn_install "${ATTN_PACKAGES[@]}"
  attn_configure "$preset"
  cmake --build --preset "$preset" -j "$(nproc)"
}
