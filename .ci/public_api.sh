#!/usr/bin/env bash
# The library's public API, one item a line (see public_api.py for what is listed), compared
# with the committed list .ci/public-api.txt, so that a change to the public surface is seen
# and decided in review. `.ci/public_api.sh --bless` writes the list after such a decision.
# Needs cargo (stable is enough) and python3; the default features are on.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "" | --bless) ;;
  *)
    echo "usage: .ci/public_api.sh [--bless]" >&2
    exit 2
    ;;
esac

# rustdoc's JSON output is unstable; RUSTC_BOOTSTRAP lets the stable toolchain write it.
# -D warnings: the same pass refuses a broken or private intra-doc link (rustdoc's lints run
# whatever the output format), so that CI need not document the crate a second time as HTML.
RUSTC_BOOTSTRAP=1 cargo rustdoc --lib --locked --quiet -- -D warnings -Z unstable-options \
  --output-format json
target="$(cargo metadata --format-version 1 --no-deps --locked |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
python3 .ci/public_api.py "$target/doc/quadrille.json" .ci/public-api.txt "$@"
