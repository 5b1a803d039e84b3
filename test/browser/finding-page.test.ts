import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRoot } from '../../server/store/roots';
import type { FindingsResponse } from '../../shared/api-schemas';
import { requireChromiumOrSkip, reusedTab } from '../support/browser';
import { newCanary } from '../support/canary-transcripts';
import { writeContextFixtures } from '../support/context-fixtures';
import { type PageServer, startPageServer } from '../support/page-server';

const artifacts = join(import.meta.dirname, '../../test-artifacts');

describe.runIf(requireChromiumOrSkip('finding page in a real browser'))('a finding as its own page (Debian Chromium)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-fpage-'));
  const canary = newCanary();
  let served: PageServer;
  let browser: Browser;
  let base: string;
  let findings: FindingsResponse['rows'];
  const leaks: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    served = await startPageServer(tmp, (db) => {
      addRoot(db, writeContextFixtures(tmp, canary), 'fixtures');
    });
    ({ browser, base } = served);
    findings = ((await (await fetch(`${base}/api/findings?limit=500`)).json()) as FindingsResponse).rows;
  }, 180_000);

  afterAll(async () => {
    await served?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  // Every test loads its page in this one tab (test/support/browser.ts: reusedTab).
  const tab = reusedTab(
    () => browser,
    (page) => {
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('response', async (r) => {
        try {
          if ((await r.text()).includes(canary)) leaks.push(r.url());
        } catch {
          // no readable body
        }
      });
    },
  );

  const open = (path: string, scheme: 'light' | 'dark', width: number): Promise<Page> => tab(base + path, { scheme, width });

  const find = (file: string, code: string) => findings.find((f) => f.file.endsWith(file) && f.code === code)!;

  it.each([
    ['light', 1280],
    ['dark', 1280],
    ['light', 390],
  ] as const)('opens by URL in %s at %i px: the strip, the highlighted rows, no payload, nothing wider than the screen', async (scheme, width) => {
    const f = find('compaction.jsonl', 'empty_tool_input_with_error_result');
    const page = await open(`/findings/${f.id}`, scheme, width);
    await page.locator('[data-testid="turn-strip"]').waitFor();
    expect(await page.locator('[data-testid="finding-title"]').textContent()).toBe('empty tool input with error result');
    expect(await page.locator('.strip-row').count()).toBe(7);
    expect(await page.locator('.strip-row.in-finding').evaluateAll((els) => els.map((e) => e.getAttribute('data-line')))).toEqual(['2', '3']);
    expect(await page.locator('.strip-row.kind-compaction').count()).toBe(2);
    expect(await page.locator('[data-testid="local-command"]').textContent()).toBe("sed -n '1,7p' './-home-user-project/compaction.jsonl'");
    expect(await page.content()).not.toContain(canary);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, `finding-${scheme}-${width}px.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    expect(leaks).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('follows a chain link from the retry nudge to the "retry also failed" row, and the session link', async () => {
    const nudge = find('chain.jsonl', 'malformed_retry_injected');
    const exhausted = find('chain.jsonl', 'malformed_retry_exhausted');
    const page = await open(`/findings/${nudge.id}`, 'light', 390);
    await page.locator('[data-testid="chain-links"]').waitFor();
    await page.locator('[data-testid="chain-links"] a', { hasText: 'malformed retry exhausted' }).click();
    await expect.poll(() => page.url()).toContain(`/findings/${exhausted.id}`);
    await expect.poll(() => page.locator('[data-testid="finding-title"]').textContent()).toBe('malformed retry exhausted');
    await page.getByRole('link', { name: 'Session time line' }).click();
    await page.locator('[data-testid="session-findings"]').first().waitFor();
    expect(await page.locator('[data-testid="session-findings"] li').count()).toBe(8);
    expect(await page.content()).not.toContain(canary);
    expect(errors).toEqual([]);
  });
});
