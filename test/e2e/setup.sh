#!/usr/bin/env bash
# Prepares a Debian 12 machine for the editor tests: `npm test` runs Neovim against the language server, and
# `npm run test:e2e` runs the VSIX in code-server (a real VS Code) in headless Chromium. Idempotent; run as root
# (CI) before `npm run test:e2e`.
#   bash test/e2e/setup.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# chromium: the browser code-server's workbench runs in (driven by playwright-core).
# neovim: the second LSP client (test/e2e/neovim.test.ts).
# ripgrep: seeds @vscode/ripgrep's download cache, which would otherwise fetch rg from GitHub.
# build-essential, python3, libkrb5-dev: node-gyp builds code-server's native modules (kerberos needs the krb5
#   headers; spdlog, node-pty, native-watchdog, deviceid and argon2 need only a compiler and python3).
PACKAGES=(chromium neovim ripgrep build-essential python3 libkrb5-dev)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi

bash test/e2e/setup-code-server.sh >/dev/null
echo "editor test prerequisites ready: ${PACKAGES[*]}, code-server $(bash test/e2e/setup-code-server.sh)"
