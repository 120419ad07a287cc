#!/usr/bin/env bash
# One-time set-up on a fresh machine: Debian packages, npm dependencies, build.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Engines and tools kikitori-server runs (and the test suite uses to make real speech).
APT_PACKAGES=(
  ffmpeg                 # probe and decode uploads to 16 kHz mono
  pocketsphinx           # embedded speech engine (libpocketsphinx.so.3)
  pocketsphinx-en-us     # its US English acoustic model, language model and CMU dictionary
  espeak-ng              # letter-to-sound for words the CMU dictionary lacks; test speech
  sox                    # audio assembly in tests and benchmarks
  festival               # test speech (HTS voice)
  festvox-us-slt-hts
  pocketsphinx-testdata  # real recorded speech for benchmarks
  apertium               # embedded translation, with its language pairs:
  apertium-eng-spa apertium-eng-cat apertium-en-gl apertium-eo-en
  apertium-eu-en apertium-isl-eng apertium-mkd-eng
  chromium               # the desktop renderer's end-to-end tests and benchmarks (Playwright drives it)
  fonts-liberation       # so chromium renders text the same on a bare machine
  fonts-noto-cjk         # Japanese glyphs in the renderer's screenshots and tests
  build-essential        # whisper.cpp (smart-whisper) compiles from source
  python3
  postgresql             # the PostgreSQL backend: its tests start a throwaway cluster (test/support/postgres.ts)
)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: Debian packages present"
fi

# Electron's binary cannot be fetched everywhere; the server and tests never need it.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
# whisper.cpp is compiled by smart-whisper's install script during npm ci. -march=native enables
# AVX/AVX2 (without it whisper runs ~12x slower); the result only runs on CPUs like this one.
export CFLAGS="-march=native" CXXFLAGS="-march=native"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
# From here on, as in every npm script, `node` is the Node 24 that the `node` dev dependency ships
# (docs/decisions/0023-node-24.md).
export PATH="$PWD/node_modules/.bin:$PATH"
node -e "new (require('better-sqlite3'))(':memory:').close()" || { echo "setup: better-sqlite3 does not load under Node $(node --version)" >&2; exit 1; }
if ! grep -q -- '-march=native' node_modules/smart-whisper/build/Release/.deps/Release/obj.target/smart-whisper/whisper.cpp/ggml/src/ggml.o.d 2>/dev/null; then
  echo "setup: building whisper.cpp (smart-whisper) for this CPU"
  npm rebuild smart-whisper --foreground-scripts
fi
node -e "require('smart-whisper')" || { echo "setup: the whisper.cpp binding (smart-whisper) did not build" >&2; exit 1; }
unset CFLAGS CXXFLAGS
# The desktop app's Electron binary: fetched where its release host is reachable; `npm start` retries.
env -u ELECTRON_SKIP_BINARY_DOWNLOAD node node_modules/electron/install.js >/dev/null 2>&1 || echo "setup: the Electron binary could not be downloaded here; npm start needs it (npm run serve does not)"
# Stamped with its inputs' hash, so the pretest of a following `npm test` does not build again.
npm run build:if-changed
echo "setup: done. Start the app with: npm start (the server alone: npm run serve)"
