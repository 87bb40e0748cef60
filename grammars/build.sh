#!/usr/bin/env bash
# Regenerates the nginx parser (src/) and its wasm from grammar.js, and records their provenance.
#   bash grammars/build.sh           rebuild in place
#   bash grammars/build.sh --check   rebuild in a scratch copy and fail if the committed files differ (CI)
# Needs: tree-sitter-cli 0.27.1 (built from crates.io, since its npm package downloads from GitHub) and Debian's
# emscripten (`tree-sitter build --wasm` would download wasi-sdk). Missing tools are installed on first use.
set -euo pipefail

TS_VERSION=0.27.1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
grammar_dir="$here/nginx"
mode=${1:-build}

tool_root=${NGINX_KEEPALIVE_TOOLS:-$HOME/.cache/nginx-keepalive/tree-sitter-cli-$TS_VERSION}
tree_sitter="$tool_root/bin/tree-sitter"

ensure_tools() {
  # CI runs a non-login shell, where rustup's PATH entry is not set up.
  if ! command -v cargo >/dev/null && [ -f "$HOME/.cargo/env" ]; then . "$HOME/.cargo/env"; fi
  if ! "$tree_sitter" --version 2>/dev/null | grep -q " $TS_VERSION"; then
    echo "build.sh: installing tree-sitter-cli $TS_VERSION from crates.io into $tool_root (about 4 minutes)" >&2
    cargo install "tree-sitter-cli@$TS_VERSION" --locked --root "$tool_root" >&2
  fi
  if ! command -v emcc >/dev/null; then
    echo "build.sh: installing Debian's emscripten" >&2
    apt-get update -qq >&2
    apt-get install -y -qq emscripten >&2
  fi
}

# Generates src/ and the wasm inside $1 (a directory holding grammar.js and src/scanner.c).
build_in() {
  local dir=$1
  (cd "$dir" && "$tree_sitter" generate --abi 15 >/dev/null)
  (cd "$dir" && emcc -o tree-sitter-nginx.wasm -Os -fPIC -s WASM=1 -s SIDE_MODULE=2 \
    -s 'EXPORTED_FUNCTIONS=["_tree_sitter_nginx"]' -I src src/parser.c src/scanner.c)
}

write_provenance() {
  local dir=$1 sum
  sum() { sha256sum "$dir/$1" | cut -d' ' -f1; }
  cat > "$dir/PROVENANCE.json" <<JSON
{
  "generator": "tree-sitter-cli $("$tree_sitter" --version | awk '{print $2}') (cargo install tree-sitter-cli@$TS_VERSION --locked)",
  "generateCommand": "tree-sitter generate --abi 15",
  "compiler": "$(emcc --version | head -1 | sed 's/"/\\"/g') (Debian package emscripten)",
  "compileCommand": "emcc -o tree-sitter-nginx.wasm -Os -fPIC -s WASM=1 -s SIDE_MODULE=2 -s EXPORTED_FUNCTIONS=[\"_tree_sitter_nginx\"] -I src src/parser.c src/scanner.c",
  "sha256": {
    "grammar.js": "$(sum grammar.js)",
    "src/scanner.c": "$(sum src/scanner.c)",
    "src/parser.c": "$(sum src/parser.c)",
    "tree-sitter-nginx.wasm": "$(sum tree-sitter-nginx.wasm)"
  }
}
JSON
}

ensure_tools
case "$mode" in
  build)
    build_in "$grammar_dir"
    write_provenance "$grammar_dir"
    echo "build.sh: regenerated $grammar_dir/src and tree-sitter-nginx.wasm"
    ;;
  --check)
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    mkdir -p "$scratch/src"
    cp "$grammar_dir/grammar.js" "$grammar_dir/package.json" "$grammar_dir/tree-sitter.json" "$scratch/"
    cp "$grammar_dir/src/scanner.c" "$scratch/src/"
    build_in "$scratch"
    write_provenance "$scratch"
    stale=0
    for f in src/parser.c src/grammar.json src/node-types.json tree-sitter-nginx.wasm PROVENANCE.json; do
      if ! cmp -s "$scratch/$f" "$grammar_dir/$f"; then
        echo "build.sh: $f is stale against grammar.js/scanner.c: run 'bash grammars/build.sh' and commit the result" >&2
        stale=1
      fi
    done
    [ "$stale" = 0 ] && echo "build.sh: committed parser and wasm match grammar.js"
    # The hand-written corpus in nginx/test/corpus, run natively by the pinned CLI. Compiled into the scratch
    # directory: the CLI's default cache (~/.cache/tree-sitter/lib/nginx.so, one per grammar name) is reused while it
    # is newer than src/parser.c, so another checkout's build would be tested instead of this one.
    (cd "$grammar_dir" && TREE_SITTER_LIBDIR="$scratch/lib" "$tree_sitter" test) || stale=1
    exit "$stale"
    ;;
  *)
    echo "usage: bash grammars/build.sh [--check]" >&2
    exit 2
    ;;
esac
