#!/usr/bin/env bash
# Sign (hardened runtime) and notarise "OpenWorker Qt.app" or a DMG, then staple the ticket.
#
#   installer/macos/sign-and-notarize.sh "dist/OpenWorker Qt.app"
#   installer/macos/sign-and-notarize.sh dist/OpenWorker-Qt-0.1.0-macos-arm64.dmg
#
# Needs (fails with a clear message when missing):
#   MACOS_SIGN_IDENTITY   "Developer ID Application: Name (TEAMID)" (in the keychain)
# and notarisation credentials, either
#   MACOS_NOTARY_PROFILE  a keychain profile made once with
#                         `xcrun notarytool store-credentials <profile> --apple-id … --team-id …`
# or all of
#   MACOS_NOTARY_APPLE_ID, MACOS_NOTARY_TEAM_ID, MACOS_NOTARY_PASSWORD (app-specific password)
# Optional: MACOS_KEYCHAIN (a keychain file to search, e.g. on CI), SKIP_NOTARIZE=1 (sign only).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENTITLEMENTS="$HERE/entitlements.plist"
TARGET="${1:-}"

die() { echo "sign-and-notarize.sh: $*" >&2; exit 2; }
[ "$(uname -s)" = "Darwin" ] || die "run this on macOS"
[ -n "$TARGET" ] && [ -e "$TARGET" ] || die "usage: $0 PATH.app|PATH.dmg (not found: '$TARGET')"
[ -n "${MACOS_SIGN_IDENTITY:-}" ] ||
  die "MACOS_SIGN_IDENTITY is not set (e.g. 'Developer ID Application: Example Ltd (ABCDE12345)')"
keychain_args=()
[ -n "${MACOS_KEYCHAIN:-}" ] && keychain_args=(--keychain "$MACOS_KEYCHAIN")
security find-identity -v -p codesigning ${MACOS_KEYCHAIN:+"$MACOS_KEYCHAIN"} |
  grep -qF "$MACOS_SIGN_IDENTITY" ||
  die "no valid codesigning identity '$MACOS_SIGN_IDENTITY' in the keychain"

notary_args=()
if [ "${SKIP_NOTARIZE:-0}" != 1 ]; then
  if [ -n "${MACOS_NOTARY_PROFILE:-}" ]; then
    notary_args=(--keychain-profile "$MACOS_NOTARY_PROFILE")
    [ -n "${MACOS_KEYCHAIN:-}" ] && notary_args+=(--keychain "$MACOS_KEYCHAIN")
  elif [ -n "${MACOS_NOTARY_APPLE_ID:-}" ] && [ -n "${MACOS_NOTARY_TEAM_ID:-}" ] &&
       [ -n "${MACOS_NOTARY_PASSWORD:-}" ]; then
    notary_args=(--apple-id "$MACOS_NOTARY_APPLE_ID" --team-id "$MACOS_NOTARY_TEAM_ID"
                 --password "$MACOS_NOTARY_PASSWORD")
  else
    die "no notarisation credentials: set MACOS_NOTARY_PROFILE, or MACOS_NOTARY_APPLE_ID +
  MACOS_NOTARY_TEAM_ID + MACOS_NOTARY_PASSWORD (or SKIP_NOTARIZE=1 to sign only)"
  fi
fi

sign() {  # codesign one file or bundle with the hardened runtime and a secure timestamp
  codesign --force --timestamp --options runtime --entitlements "$ENTITLEMENTS" \
    --sign "$MACOS_SIGN_IDENTITY" "${keychain_args[@]+"${keychain_args[@]}"}" "$@"
}

case "$TARGET" in
  *.app|*.app/)
    APP="${TARGET%/}"
    echo "==> signing nested code, innermost first"
    # Every Mach-O file inside (dylibs, .so extension modules, Qt plugins); the order
    # among files does not matter, only that containers are signed after them.
    while IFS= read -r -d '' file; do
      if file -b "$file" | grep -q "Mach-O"; then sign "$file"; fi
    done < <(find "$APP/Contents" -type f ! -path "*/Contents/MacOS/*" -print0)
    # Framework bundles (if the build holds any), innermost first (find -depth).
    while IFS= read -r -d '' fw; do sign "$fw"; done \
      < <(find "$APP/Contents" -depth -type d -name "*.framework" -print0)
    sign "$APP/Contents/MacOS/"*
    echo "==> signing the app"
    sign "$APP"
    codesign --verify --deep --strict --verbose=2 "$APP"
    SUBMIT="$(mktemp -d)/$(basename "$APP" .app).zip"
    ditto -c -k --keepParent "$APP" "$SUBMIT"  # notarytool takes a zip, not a folder
    STAPLE="$APP"
    ;;
  *.dmg)
    echo "==> signing the disk image"
    codesign --force --timestamp --sign "$MACOS_SIGN_IDENTITY" \
      "${keychain_args[@]+"${keychain_args[@]}"}" "$TARGET"
    SUBMIT="$TARGET"
    STAPLE="$TARGET"
    ;;
  *) die "expected a .app or a .dmg: $TARGET" ;;
esac

if [ "${SKIP_NOTARIZE:-0}" = 1 ]; then
  echo "==> signed (SKIP_NOTARIZE=1: not notarised)"
  exit 0
fi
echo "==> notarising (xcrun notarytool submit --wait; usually a few minutes)"
result="$(xcrun notarytool submit "$SUBMIT" "${notary_args[@]}" --wait --timeout 30m \
  --output-format json)" || true
echo "$result"
if ! grep -q '"status" *: *"Accepted"' <<<"$result"; then
  die "notarisation was not accepted; read Apple's log with
  xcrun notarytool log <the id above> (same credentials as above)"
fi
echo "==> stapling"
xcrun stapler staple "$STAPLE"
xcrun stapler validate "$STAPLE"
[ -d "$STAPLE" ] && spctl --assess --type execute --verbose=2 "$STAPLE"
echo "==> $STAPLE signed, notarised and stapled"
