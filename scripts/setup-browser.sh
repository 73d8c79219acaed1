#!/usr/bin/env bash
# Finds or installs the Chromium the Playwright suite drives:
# $PLAYWRIGHT_CHROMIUM, else /usr/bin/chromium, else (as root) Debian's
# chromium and CJK fonts, else Playwright's own download.
set -euo pipefail
if [ -n "${PLAYWRIGHT_CHROMIUM:-}" ] && [ -x "${PLAYWRIGHT_CHROMIUM}" ]; then
  echo "Chromium: ${PLAYWRIGHT_CHROMIUM}"; exit 0
fi
if [ -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
    (apt-get install -y -qq fonts-noto-cjk >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq fonts-noto-cjk >/dev/null 2>&1)) || true
  fi
  echo "Chromium: /usr/bin/chromium"; exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium and fonts-noto-cjk..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 chromium fonts-noto-cjk >/dev/null
  echo "Chromium: /usr/bin/chromium"; exit 0
fi
echo "Installing Playwright's Chromium..."
npx playwright install chromium
