#!/usr/bin/env bash
# npm start: the desktop app. Fetches the Electron binary if setup could not, then starts Electron.
# The native modules are Node-API: the binaries npm installed load in Electron too.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! node -e "require('fs').accessSync(require('electron'))" 2>/dev/null; then
  echo "start: downloading the Electron binary"
  if ! env -u ELECTRON_SKIP_BINARY_DOWNLOAD node node_modules/electron/install.js; then
    echo "start: the Electron binary is not installed and could not be downloaded (no network to its release host?)." >&2
    echo "start: the server alone runs without it: npm run serve" >&2
    exit 1
  fi
fi
exec node_modules/.bin/electron . "$@"
