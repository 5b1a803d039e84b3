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

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The environment variable through which a test run shares one Chromium (started by
 * test/support/global-setup.ts when selected files use it) with every browser test file.
 */
export const CHROMIUM_ENDPOINT_ENV = 'TCF_TEST_CHROMIUM_ENDPOINT';

/** One Chromium for a whole test run: its endpoint, and how to stop it. */
export async function startSharedChromium(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return { endpoint: server.wsEndpoint(), close: () => server.close() };
}

/**
 * A browser for one test file: connected to the run's shared Chromium when there is one (each page
 * still gets a fresh context, and close() drops this file's contexts and disconnects), else a
 * Chromium of its own (a file run alone, or a benchmark).
 */
export function launchChromium(): Promise<Browser> {
  const endpoint = process.env[CHROMIUM_ENDPOINT_ENV];
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
