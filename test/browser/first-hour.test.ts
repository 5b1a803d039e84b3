// The small page defects a new user's first hour tripped on (issue 29): each checked in a real browser.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { addRoot, setRootSalvage } from '../../server/store/roots';
import { requireChromiumOrSkip, reusedTab } from '../support/browser';
import { newCanary } from '../support/canary-transcripts';
import { writeContextFixtures } from '../support/context-fixtures';
import { fixturesRoot } from '../support/detector-fixtures';
import { type PageServer, startPageServer } from '../support/page-server';

describe.runIf(requireChromiumOrSkip('first-hour page fixes'))('first-hour page fixes (Debian Chromium)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-first-hour-'));
  const canary = newCanary();
  let served: PageServer;
  let browser: Browser;
  let base: string;
  const api = async <T>(path: string) => (await (await fetch(base + path)).json()) as T;

  beforeAll(async () => {
    served = await startPageServer(
      tmp,
      (db) => {
        const context = writeContextFixtures(tmp, canary);
        // A copy of one transcript in another project folder: one session, two files.
        mkdirSync(join(context, '-home-user-project-copy'));
        cpSync(join(context, '-home-user-project', 'compaction.jsonl'), join(context, '-home-user-project-copy', 'compaction.jsonl'));
        generateDemoCorpus({ out: join(tmp, 'demo'), seed: 17, sessions: 40, canary });
        addRoot(db, join(tmp, 'demo/projects'), 'demo');
        addRoot(db, context, 'context');
        // Two rows on one line, in a folder read with salvage and in one that is not.
        for (const name of ['salvaged', 'damaged']) {
          mkdirSync(join(tmp, name));
          cpSync(join(fixturesRoot, 'errors/concatenated_rows.jsonl'), join(tmp, name, 'two-rows.jsonl'));
        }
        setRootSalvage(db, addRoot(db, join(tmp, 'salvaged'), 'salvaged').id, true);
        addRoot(db, join(tmp, 'damaged'), 'damaged');
      },
      { watch: false },
    );
    ({ browser, base } = served);
  }, 180_000);

  afterAll(async () => {
    await served?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  // Every test loads its page in this one tab (test/support/browser.ts: reusedTab).
  const tab = reusedTab(() => browser);

  async function open(path: string, width = 1280): Promise<Page> {
    const page = await tab(base + path, { width, height: 900 });
    await page.locator('main h1').first().waitFor();
    return page;
  }

  const compactionFinding = async () => {
    const rows = (await api<{ rows: Array<{ id: string; file: string; code: string }> }>('/api/findings?limit=500')).rows;
    return rows.find((f) => f.file.endsWith('-home-user-project/compaction.jsonl') && f.code === 'empty_tool_input_with_error_result')!;
  };

  it('the Files page shows salvaged files as a state of their own, and a concatenated_rows failure suggests salvage', async () => {
    const page = await open('/files');
    const salvaged = page.getByTestId('salvaged-row');
    await salvaged.first().waitFor();
    expect(await salvaged.count()).toBe(1);
    expect(await salvaged.first().textContent()).toMatch(/^salvagedsalvagedtwo-rows\.jsonlconcatenated_rows.*2.*1/);
    expect(await page.locator('main').textContent()).toContain('1 file salvaged (read around damaged lines)');
    expect(await page.locator('main').textContent()).not.toContain('Every file read cleanly');
    // The same file in a folder without salvage failed: its row says what keeps its rows, linking to the Folders page.
    const failed = page.getByTestId('file-row').filter({ hasText: 'damaged' });
    expect(await failed.count()).toBe(1);
    const advice = failed.getByTestId('salvage-advice');
    expect(await advice.textContent()).toContain('tick salvage for this folder on the Folders page to keep its complete rows');
    expect(await advice.locator('a').getAttribute('href')).toBe('/folders');
  });

  it('the Glossary shows code as code, never raw backticks', async () => {
    const page = await open('/glossary');
    const words = page.getByTestId('glossary-words');
    expect(await words.textContent()).not.toContain('`');
    expect(await words.locator('code').count()).toBeGreaterThan(0);
  });

  it("the Findings list cuts a long path in the middle: its start and the file's own name's end stay visible", async () => {
    const page = await open('/findings');
    const path = page.getByTestId('finding-path').first();
    await path.waitFor();
    const whole = (await path.getAttribute('title'))!;
    const shown = (await path.textContent())!;
    expect(whole.length).toBeGreaterThan(40);
    expect(shown).toContain('…');
    expect(whole.startsWith(shown.slice(0, shown.indexOf('…')))).toBe(true);
    expect(whole.endsWith(shown.slice(shown.indexOf('…') + 1))).toBe(true);
    expect(shown.endsWith(whole.slice(-16))).toBe(true);
    expect(await path.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });

  it('the Finding page names its strip columns and explains its details', async () => {
    const f = await compactionFinding();
    const page = await open(`/findings/${f.id}`);
    const head = page.getByTestId('turn-strip-head');
    await head.waitFor();
    for (const column of ['line', 'row', 'blocks', 'tool calls', 'stop reason', 'gap']) expect(await head.textContent()).toContain(column);
    const facts = await page.locator('dl.facts').textContent();
    expect(facts).toContain('error kind of the call’s result');
    expect(facts).toMatch(/missing_parameter: a required parameter was missing|other: an error of no known kind/);
  });

  it('the Session page names a copied transcript a copy, counts it once, and has a legend for its marks', async () => {
    const f = await compactionFinding();
    const hash = (await api<{ session_hash: string }>(`/api/findings/${f.id}`)).session_hash;
    const page = await open(`/sessions/${hash}`);
    expect(await page.getByTestId('session-files').textContent()).toBe('2 files: the main transcript, 1 copy (counted once)');
    expect(await page.getByTestId('session-turns').textContent()).toContain('2');
    expect(await page.locator('h2', { hasText: 'Copy (counted once)' }).count()).toBe(1);
    const legend = await page.getByTestId('session-legend').textContent();
    for (const words of ['compaction', 'error result', 'interrupt', 'API error', 'retry nudge', 'a finding']) expect(legend).toContain(words);
  });

  it('Compare takes ranges whose ends were never indexed and compares the indexed versions within', async () => {
    const query = 'a=2.1.30..2.1.39&b=2.1.40..2.1.99';
    expect((await fetch(`${base}/api/compare?${query}`)).status).toBe(200);
    const page = await open(`/compare?${query}`);
    await page.locator('[data-testid="compare-table"] tbody tr').first().waitFor();
    expect(await page.getByTestId('side-a-error').count()).toBe(0);
    await page.getByLabel('Side B').fill('2.1.95..2.1.99');
    await expect
      .poll(() =>
        page
          .getByTestId('side-b-error')
          .textContent({ timeout: 5000 })
          .catch(() => ''),
      )
      .toContain('no indexed version in 2.1.95..2.1.99');
  });
});
