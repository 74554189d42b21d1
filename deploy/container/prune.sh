#!/bin/sh
# Leaves in an installed node_modules ($1) only what Wharf runs: no type declarations, source
# maps, documents, a native module's sources or other platforms' builds, and of swagger-ui-dist
# the three files the API docs serve. Keeps the image small.
set -eu
modules="$1"
find "$modules" -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \
  -o -iname '*.md' -o -iname 'CHANGELOG*' -o -name '*.tsbuildinfo' \) -delete
rm -rf "$modules/@types"
# better-sqlite3: the compiled module of this platform (Node-API), not its sources or the others'.
sqlite="$modules/better-sqlite3"
platform="$(node -p 'process.platform + "-" + process.arch')"
rm -rf "$sqlite/deps" "$sqlite/src" "$sqlite/binding.gyp"
find "$sqlite/prebuilds" -type f ! -name "$platform.node" -delete
find "$modules/swagger-ui-dist" -type f ! -name package.json ! -name swagger-ui.css \
  ! -name swagger-ui-bundle.js ! -name swagger-ui-standalone-preset.js -delete
