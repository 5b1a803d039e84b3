import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { ensureWebBuild } from '../../server/build/web-build';
import { READ_ONLY_OFF } from '../../shared/read-only';
import { READ_ONLY_FOLDER_MODE, readerBlocked, startServeAsReader } from '../reliability/support/read-only-server';
import type { Child } from '../reliability/support/spawn';
import { launchChromium, requireChromiumOrSkip } from '../support/browser';
import { runCli } from '../support/run-cli';

const artifacts = join(import.meta.dirname, '../../test-artifacts');

// A real read-only server: the CLI's `serve`, as a user who cannot write the index's folder
// (`nobody` on a root-owned 0755 folder when the suite runs as root), serving the built page.
describe.runIf(readerBlocked === null && requireChromiumOrSkip('read-only index in a real browser'))(
  'a read-only index in a real browser (Debian Chromium)',
  () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tcf-robrowser-'));
    let server: { child: Child; port: number; token: string };
    let browser: Browser;
    let base: string;
    const errors: string[] = [];

    beforeAll(async () => {
      await ensureWebBuild(() => {});
      mkdirSync(artifacts, { recursive: true });
      chmodSync(tmp, 0o755);
      generateDemoCorpus({ out: join(tmp, 'corpus'), seed: 21, sessions: 40 });
      const dir = join(tmp, 'index');
      mkdirSync(dir);
      // 2: the demo corpus holds one damaged file on purpose.
      expect(runCli(['index', join(tmp, 'corpus/projects'), '--db', join(dir, 'index.db')]).status).toBe(2);
      chmodSync(dir, READ_ONLY_FOLDER_MODE);
      server = await startServeAsReader(tmp, ['--db', join(dir, 'index.db')]);
      base = `http://127.0.0.1:${server.port}`;
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      server?.child.proc.kill('SIGTERM');
      if (server) expect(await server.child.exit).toBe(0);
      chmodSync(join(tmp, 'index'), 0o755);
      rmSync(tmp, { recursive: true, force: true });
    });

    async function open(path: string): Promise<Page> {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${path}: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
      await page.goto(base + path);
      return page;
    }

    it('says so in a banner on every page, and the charts still render', async () => {
      const page = await open('/');
      const banner = page.getByTestId('read-only-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toBe(`Read-only index — ${READ_ONLY_OFF} (this user cannot write the database's folder).`);
      await page.locator('.recharts-surface').first().waitFor();
      await page.goto(`${base}/timeline?bucket=day`);
      await page.locator('[data-testid="timeline-chart"] .recharts-bar-rectangle').first().waitFor();
      expect(await page.locator('[data-testid="timeline-chart"] .rate-line').count()).toBeGreaterThan(0);
      await page.getByTestId('read-only-banner').waitFor();
      await page.screenshot({ path: join(artifacts, 'read-only-timeline.png'), fullPage: true });
      await page.close();
      expect(errors).toEqual([]);
    });

    it('disables adding, indexing, salvage and removing, each titled with why', async () => {
      const page = await open('/folders');
      const row = page.getByTestId('folders-table').locator('tbody tr');
      await row.first().waitFor();
      const title = `Read-only index: ${READ_ONLY_OFF}`;
      for (const button of [
        page.getByRole('button', { name: 'Add folder' }),
        page.getByRole('button', { name: 'Index all' }),
        row.getByRole('button', { name: 'Index', exact: true }),
        row.getByRole('button', { name: 'Remove' }),
        row.getByRole('checkbox'),
      ]) {
        expect(await button.isDisabled()).toBe(true);
        expect(await button.getAttribute('title')).toBe(title);
      }
      await page.screenshot({ path: join(artifacts, 'read-only-folders.png'), fullPage: true });
      await page.close();
      // And the folder is as it was: no side files, nothing written.
      expect(readdirSync(join(tmp, 'index'))).toEqual(['index.db']);
      expect(errors).toEqual([]);
    });
  },
);
