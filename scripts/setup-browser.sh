#!/usr/bin/env bash
# Finds or installs the Chromium the Playwright suite drives (scripts/chromium.ts, ADR 083):
# $PLAYWRIGHT_CHROMIUM, else Debian's chromium-headless-shell (the suite's browser: ~2.5× faster per page than
# the full browser's headless mode) beside Debian's chromium and the CJK fonts, else Playwright's own download.
set -euo pipefail
if [ -n "${PLAYWRIGHT_CHROMIUM:-}" ] && [ -x "${PLAYWRIGHT_CHROMIUM}" ]; then
  echo "Chromium: ${PLAYWRIGHT_CHROMIUM}"; exit 0
fi
wanted=()
[ -x /usr/bin/chromium-headless-shell ] || wanted+=(chromium-headless-shell)
[ -x /usr/bin/chromium ] || wanted+=(chromium)
fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || wanted+=(fonts-noto-cjk)
if [ "${#wanted[@]}" -gt 0 ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing ${wanted[*]} from Debian..."
  install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${wanted[@]}" >/dev/null 2>&1; }
  install || (apt-get update -qq && install) || echo "apt-get could not install ${wanted[*]}"
fi
for bin in /usr/bin/chromium-headless-shell /usr/bin/chromium; do
  if [ -x "$bin" ]; then echo "Chromium: $bin"; exit 0; fi
done
echo "Installing Playwright's Chromium..."
npx playwright install chromium
