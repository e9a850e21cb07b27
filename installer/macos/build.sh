#!/usr/bin/env bash
# Build "OpenWorker Qt.app" and a DMG on macOS.
#   dist/OpenWorker Qt.app                       (PyInstaller BUNDLE, see ../openworker-qt.spec)
#   dist/OpenWorker-Qt-<version>-macos-<arch>.dmg (the app + an /Applications link)
#
# Usage: installer/macos/build.sh [--sign]
#   PYTHON: the interpreter with the app and PyInstaller (default: .venv/bin/python).
#   The build's architecture is the interpreter's (arm64 or x86_64); build on each, or
#   use a universal2 Python and set TARGET_ARCH=universal2 (every wheel must be universal2).
#   --sign: run sign-and-notarize.sh on the app, then sign the DMG and notarise it too.
# Unsigned builds run locally; Gatekeeper blocks them elsewhere (right-click → Open).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
SIGN=0
[ "${1:-}" = "--sign" ] && SIGN=1
[ "$(uname -s)" = "Darwin" ] || { echo "build.sh: run this on macOS" >&2; exit 2; }

cd "$ROOT"
VERSION="$("$PYTHON" -c 'import openworker_qt; print(openworker_qt.__version__)')"
ARCH="${TARGET_ARCH:-$(uname -m)}"
APP="$ROOT/dist/OpenWorker Qt.app"
DMG="$ROOT/dist/OpenWorker-Qt-$VERSION-macos-$ARCH.dmg"

echo "==> PyInstaller (.app, $ARCH)"
extra=()
[ -n "${TARGET_ARCH:-}" ] && extra=(--target-arch "$TARGET_ARCH")
"$PYTHON" -m PyInstaller --noconfirm --log-level WARN "${extra[@]+"${extra[@]}"}" \
  --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" installer/openworker-qt.spec

echo "==> smoke start"
home="$(mktemp -d)"
QT_QPA_PLATFORM=offscreen OPENWORKER_SMOKE_TEST=1 OPENWORKER_HOME="$home" \
  "$APP/Contents/MacOS/openworker-qt"
rm -rf "$home"

if [ "$SIGN" = 1 ]; then
  "$ROOT/installer/macos/sign-and-notarize.sh" "$APP"
fi

echo "==> DMG"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
cp -R "$APP" "$staging/"
ln -s /Applications "$staging/Applications"
rm -f "$DMG"
hdiutil create -volname "OpenWorker Qt $VERSION" -srcfolder "$staging" \
  -fs HFS+ -format UDZO -imagekey zlib-level=9 -ov "$DMG"

if [ "$SIGN" = 1 ]; then
  "$ROOT/installer/macos/sign-and-notarize.sh" "$DMG"
fi
echo "==> $DMG"
