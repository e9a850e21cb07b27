#!/usr/bin/env bash
# Build OpenWorker Qt for Linux (x86_64):
#   dist/openworker-qt/                                 the PyInstaller onedir
#   dist/OpenWorker-Qt-<version>-linux-x86_64.tar.gz    that folder, ready to unpack and run
#   dist/OpenWorker-Qt-<version>-x86_64.AppImage        only when appimagetool is on PATH
#
# An AppImage proper needs appimagetool (https://github.com/AppImage/appimagetool),
# which could not be downloaded where this script was written: the AppDir is always
# assembled (dist/OpenWorker-Qt.AppDir) and turned into an AppImage when the tool is
# installed. The tarball carries the same AppDir layout (AppRun, .desktop, icon).
#
# Usage: installer/build-linux.sh [--python PATH] [--skip-smoke]
#   PYTHON (or --python): the interpreter whose environment has the app and PyInstaller
#   (default: .venv/bin/python). The finished build is smoke-started offscreen.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
SMOKE=1
while [ $# -gt 0 ]; do
  case "$1" in
    --python) PYTHON="$2"; shift 2 ;;
    --skip-smoke) SMOKE=0; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "build-linux.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

cd "$ROOT"
VERSION="$("$PYTHON" -c 'import openworker_qt; print(openworker_qt.__version__)')"
ARCH="$(uname -m)"
DIST="$ROOT/dist"
APPDIR="$DIST/OpenWorker-Qt.AppDir"
TARBALL="$DIST/OpenWorker-Qt-$VERSION-linux-$ARCH.tar.gz"

echo "==> PyInstaller onedir (OpenWorker Qt $VERSION, $ARCH)"
start=$(date +%s)
"$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
  --distpath "$DIST" --workpath "$ROOT/build/pyinstaller" installer/openworker-qt.spec
echo "    built in $(( $(date +%s) - start )) s, $(du -sh "$DIST/openworker-qt" | cut -f1)"

if [ "$SMOKE" = 1 ]; then
  echo "==> smoke start (offscreen)"
  home="$(mktemp -d)"
  QT_QPA_PLATFORM=offscreen OPENWORKER_SMOKE_TEST=1 OPENWORKER_HOME="$home" \
    "$DIST/openworker-qt/openworker-qt"
  "$DIST/openworker-qt/openworker-qt" --version
  rm -rf "$home"
fi

echo "==> AppDir"
rm -rf "$APPDIR"
mkdir -p "$APPDIR/usr/share/applications" "$APPDIR/usr/share/icons/hicolor/scalable/apps"
cp -a "$DIST/openworker-qt" "$APPDIR/usr/lib-openworker-qt"
cp resources/icons/openworker.svg "$APPDIR/openworker-qt.svg"
cp resources/icons/openworker.svg "$APPDIR/usr/share/icons/hicolor/scalable/apps/openworker-qt.svg"
ln -s openworker-qt.svg "$APPDIR/.DirIcon"
cat > "$APPDIR/openworker-qt.desktop" <<DESKTOP
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
X-AppImage-Version=$VERSION
DESKTOP
cp "$APPDIR/openworker-qt.desktop" "$APPDIR/usr/share/applications/"
cat > "$APPDIR/AppRun" <<'APPRUN'
#!/bin/sh
# Start OpenWorker Qt from its AppDir (or unpacked tarball); arguments pass through,
# so `AppRun run "…"` is the command line.
HERE="$(dirname "$(readlink -f "$0")")"
exec "$HERE/usr/lib-openworker-qt/openworker-qt" "$@"
APPRUN
chmod +x "$APPDIR/AppRun"

echo "==> tarball"
rm -f "$TARBALL"
tar -C "$DIST" --transform "s,^OpenWorker-Qt.AppDir,OpenWorker-Qt-$VERSION," \
  -czf "$TARBALL" OpenWorker-Qt.AppDir
echo "    $TARBALL ($(du -h "$TARBALL" | cut -f1))"

if command -v appimagetool >/dev/null 2>&1; then
  echo "==> AppImage"
  ARCH="$ARCH" appimagetool --no-appstream "$APPDIR" "$DIST/OpenWorker-Qt-$VERSION-$ARCH.AppImage"
else
  echo "==> appimagetool not on PATH: no .AppImage (the tarball has the same AppDir)"
fi
