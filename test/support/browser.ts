import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

/**
 * Browser tests run Debian's Chromium. In CI (CI or TCF_REQUIRE_SHARED set) a missing
 * Chromium fails the suite; elsewhere it is skipped with a visible notice.
 */
export function requireChromiumOrSkip(suite: string): boolean {
  if (chromiumAvailable) return true;
  if (process.env.CI || process.env.TCF_REQUIRE_SHARED) throw new Error(`${suite} needs Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  console.warn(`NOTICE: skipping "${suite}": no Chromium at ${CHROMIUM} (apt-get install -y chromium).`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
