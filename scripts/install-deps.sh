#!/usr/bin/env bash
# Installs what tplab's tests and benchmarks need when it is missing: Debian packages via apt-get.
# Usage: scripts/install-deps.sh test|bench
set -euo pipefail
what="${1:-test}"
packages=()
have_pg() { compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null; }
have_pg || packages+=(postgresql)
# diagnose --dump is tested on a core of a process without .NET, written by gdb's gcore.
[ "$what" = test ] && ! command -v gcore >/dev/null && packages+=(gdb)
# watch --prometheus is tested against a real Prometheus, and the alert rules with its promtool.
[ "$what" = test ] && ! command -v prometheus >/dev/null && packages+=(prometheus)
# The HTML report is tested in Debian's Chromium (tests/browser).
if [ -d "$(dirname "$0")/../tests/browser" ]; then
  command -v chromium >/dev/null || packages+=(chromium)
  # playwright-core drives it from Node.js (test.sh runs npm ci in tests/browser).
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi
if [ "$what" = bench ]; then
  command -v wrk >/dev/null || packages+=(wrk)
  command -v hey >/dev/null || packages+=(hey)
  command -v ab >/dev/null || packages+=(apache2-utils)
fi
if [ "${#packages[@]}" -gt 0 ]; then
  echo "install-deps: installing ${packages[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
# diagnose --trace is tested on a trace collected by the real dotnet-trace (a .NET global tool; needs nuget.org).
if [ "$what" = test ] && ! command -v dotnet-trace >/dev/null && [ ! -x "$HOME/.dotnet/tools/dotnet-trace" ]; then
  echo "install-deps: installing dotnet-trace" >&2
  dotnet tool install -g dotnet-trace >/dev/null || echo "install-deps: dotnet-trace could not be installed; its tests will be skipped" >&2
fi
# The private PostgreSQL runs as the postgres user when tplab runs as root; the Debian package creates it.
