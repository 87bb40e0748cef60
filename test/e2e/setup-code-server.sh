#!/usr/bin/env bash
# Installs code-server (a real VS Code in the browser) into a private cached prefix for the e2e test, outside the
# project's package.json: it is 300+ MB with native modules and only the e2e test needs it. A no-op when the pinned
# version is already there. Prints the code-server executable's path on its last line.
#   bash test/e2e/setup-code-server.sh
set -euo pipefail

version=4.100.3 # the last code-server whose install scripts run on node 20
prefix="${NK_CODE_SERVER_PREFIX:-$HOME/.cache/nginx-keepalive/code-server-$version}"
bin="$prefix/node_modules/.bin/code-server"

if [ -x "$bin" ] && [ -f "$prefix/.installed" ]; then
  echo "$bin"
  exit 0
fi

# @vscode/ripgrep's postinstall downloads rg from GitHub, which is unreachable here; it first looks in this cache
# for the exact tarball name, so seed it with Debian's rg.
rg_path=$(command -v rg) || { echo "ripgrep (Debian package 'ripgrep') is required" >&2; exit 1; }
tmp_root="${TMPDIR:-/tmp}"
rg_cache="$tmp_root/vscode-ripgrep-cache-1.15.11"
rg_tarball="$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -f "$rg_tarball" ]; then
  mkdir -p "$rg_cache"
  staging=$(mktemp -d)
  cp "$rg_path" "$staging/rg"
  tar -czf "$rg_tarball" -C "$staging" rg
  rm -rf "$staging"
fi

rm -rf "$prefix"
mkdir -p "$prefix"
echo '{ "name": "nk-code-server", "private": true }' >"$prefix/package.json"
# unsafe_perm: the install scripts refuse to run as root otherwise (CI runs as root).
npm_config_unsafe_perm=true npm_config_yes=true \
  npm install --prefix "$prefix" --foreground-scripts --no-audit --no-fund --no-save "code-server@$version" >&2
# --version writes a default config.yaml under XDG_CONFIG_HOME: keep it out of the user's ~/.config.
scratch_config=$(mktemp -d)
XDG_CONFIG_HOME="$scratch_config" "$bin" --version >&2
rm -rf "$scratch_config"
touch "$prefix/.installed"
echo "$bin"
