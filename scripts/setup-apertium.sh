#!/usr/bin/env bash
# Finds or installs Apertium, the offline translator of digital translation (ADR 072): the `apertium` command
# with the modes spa-eng (apertium-eng-spa) and pt-es (apertium-es-pt). As root with apt-get it installs the
# missing Debian packages quietly; otherwise it only says what is missing. It never fails the run: without
# Apertium, translations are refused in live mode and made by the labelled sandbox in TRANSLATION_MODE=sandbox
# (the db test of the engines fails in CI, where this script installs it).
set -uo pipefail
have() { command -v apertium >/dev/null 2>&1 && [ -f "/usr/share/apertium/modes/$1.mode" ]; }
if have spa-eng && have pt-es; then
  echo "Apertium: $(command -v apertium) (spa-eng, pt-es)"; exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's apertium, apertium-eng-spa and apertium-es-pt..."
  # The browser setup may hold apt's lock at the same time: wait for it rather than fail.
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 apertium apertium-eng-spa apertium-es-pt >/dev/null 2>&1; }
  apt_install || { apt-get update -qq -o DPkg::Lock::Timeout=300 >/dev/null 2>&1 && apt_install; } || true
fi
if have spa-eng && have pt-es; then
  echo "Apertium: $(command -v apertium) (spa-eng, pt-es)"
else
  echo "Apertium: not installed (apt-get install apertium apertium-eng-spa apertium-es-pt as root); translations use the sandbox in TRANSLATION_MODE=sandbox only"
fi
exit 0
