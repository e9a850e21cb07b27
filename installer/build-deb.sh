#!/usr/bin/env bash
# Package the Linux onedir (dist/openworker-qt, from build-linux.sh) as a .deb:
#   dist/openworker-qt_<version>_<arch>.deb
# It installs the app under /opt/openworker-qt, a /usr/bin/openworker-qt link, the
# desktop entry and the icon. dpkg-deb (1.19+, for --root-owner-group) is all it
# needs; Depends lists the system libraries Qt needs that the bundle does not carry.
#
# Usage: installer/build-deb.sh [--python PATH]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
[ "${1:-}" = "--python" ] && PYTHON="$2"
cd "$ROOT"
VERSION="$("$PYTHON" -c 'import openworker_qt; print(openworker_qt.__version__)')"
case "$(uname -m)" in
  x86_64) ARCH=amd64 ;;
  aarch64) ARCH=arm64 ;;
  *) ARCH="$(uname -m)" ;;
esac
ONEDIR="$ROOT/dist/openworker-qt"
[ -x "$ONEDIR/openworker-qt" ] || { echo "build-deb.sh: run installer/build-linux.sh first" >&2; exit 2; }
STAGE="$ROOT/build/deb/openworker-qt_${VERSION}_$ARCH"
OUT="$ROOT/dist/openworker-qt_${VERSION}_$ARCH.deb"

rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN" "$STAGE/opt" "$STAGE/usr/bin" "$STAGE/usr/share/applications" \
  "$STAGE/usr/share/icons/hicolor/scalable/apps"
cp -a "$ONEDIR" "$STAGE/opt/openworker-qt"
ln -s /opt/openworker-qt/openworker-qt "$STAGE/usr/bin/openworker-qt"
cp resources/icons/openworker.svg "$STAGE/usr/share/icons/hicolor/scalable/apps/openworker-qt.svg"
cat > "$STAGE/usr/share/applications/openworker-qt.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=OpenWorker Qt
GenericName=AI coworker
Comment=Outcomes in, finished work out, asking before anything consequential
Exec=openworker-qt %F
Icon=openworker-qt
Terminal=false
Categories=Office;Utility;
StartupWMClass=openworker-qt
DESKTOP
SIZE_KB="$(du -sk "$STAGE/opt" | cut -f1)"
cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: openworker-qt
Version: $VERSION
Section: utils
Priority: optional
Architecture: $ARCH
Installed-Size: $SIZE_KB
Depends: libc6 (>= 2.31), libgl1, libegl1, libfontconfig1, libxkbcommon0, libxkbcommon-x11-0, libdbus-1-3, libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-shape0
Recommends: libpulse0, espeak-ng
Maintainer: OpenWorker <release@openworker.invalid>
Homepage: https://openworker.invalid
Description: Native desktop AI coworker
 Outcomes in, finished work out, asking before anything consequential.
CONTROL
dpkg-deb --build --root-owner-group "$STAGE" "$OUT" >/dev/null
echo "==> $OUT ($(du -h "$OUT" | cut -f1))"
