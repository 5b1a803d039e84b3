import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app/serve';
import { ensureWebBuild, WEB_DIST } from '../../server/build/web-build';
import { launchChromium, requireChromiumOrSkip } from '../support/browser';
import { newCanary } from '../support/canary-transcripts';
import { sessionText } from '../support/session-transcripts';

describe.runIf(requireChromiumOrSkip('live updates in a real browser'))('live updates in a real browser', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-live-browser-'));
  const project = join(tmp, 'projects', 'p');
  const canary = newCanary();
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild(() => {});
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'first.jsonl'), sessionText('lost_call', canary, { idPrefix: 'first' }));
    server = await startServer({ port: 0, db: join(tmp, 'index.db'), webRoot: WEB_DIST, log: () => {}, dirs: [join(tmp, 'projects')] });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a finding written while the page is open appears in the table, with a dismissible notice, without a reload', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}findings`);
    await page.locator('[data-testid="findings-total"]').getByText('1 findings', { exact: false }).waitFor({ timeout: 20_000 });
    let loads = 0;
    page.on('load', () => loads++);
    writeFileSync(join(project, 'second.jsonl'), sessionText('lost_call', canary, { idPrefix: 'second' }));
    await page.locator('[data-testid="live-notice"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid="live-notice"]').textContent()).toContain('New finding');
    await page.locator('[data-testid="findings-total"]').getByText('2 findings', { exact: false }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Dismiss the new-finding notice' }).click();
    await page.locator('[data-testid="live-notice"]').waitFor({ state: 'detached', timeout: 5_000 });
    expect(loads).toBe(0);
    expect(await page.content()).not.toContain(canary);
    // The Versions page draws how turns end.
    await page.goto(`${server.url}versions`);
    await page.locator('[data-testid="turn-ends-chart"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid="turn-ends-chart"]').getAttribute('data-points')).toBe('1');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
