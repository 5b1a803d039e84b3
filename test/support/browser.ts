import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

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

export interface TabOptions {
  width?: number;
  height?: number;
  scheme?: 'light' | 'dark';
  /**
   * When the tab already shows exactly this URL, keep that load and only restyle it (viewport and
   * colour scheme change in place, as when a user switches their system theme). For a check that
   * differs from the previous test's only in what CSS follows (the page's scripts never read the
   * colour scheme); run alone, the test loads the page itself.
   */
  inPlace?: boolean;
}

/**
 * The one tab a browser test file loads its pages in, reused from test to test. A new page per
 * test cost a browser context and a renderer process each (1–3 s of a 2-core machine's CPU per
 * test, more than the page's own load); a full navigation in the same tab starts the page's
 * scripts over as a new tab does. `open` sets the tab's viewport and colour scheme, puts the
 * pointer back in the corner (where a new tab's is), then loads the URL. `onNewTab` attaches the
 * file's listeners (console errors, responses) once per tab. A test that closes the tab (or a
 * crash) costs only a new one at the next `open`. Tests run one after another within a file
 * (never `it.concurrent` here: one tab is shared).
 */
export function reusedTab(browser: () => Browser, onNewTab: (page: Page) => void = () => {}) {
  let tab: Page | undefined;
  return async function open(url: string, { width = 1280, height = 800, scheme = 'light', inPlace = false }: TabOptions = {}): Promise<Page> {
    if (!tab || tab.isClosed()) {
      tab = await browser().newPage({ viewport: { width, height }, colorScheme: scheme, acceptDownloads: true });
      onNewTab(tab);
    } else {
      await tab.setViewportSize({ width, height });
      await tab.emulateMedia({ colorScheme: scheme });
      if (inPlace && tab.url() === url) return tab;
      // The pointer stays where the last test left it: back to the corner, hovering nothing a page draws there.
      await tab.mouse.move(0, 0);
    }
    await tab.goto(url);
    return tab;
  };
}
