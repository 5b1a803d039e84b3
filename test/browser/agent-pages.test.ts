// Issue 34 (point 2): the agent on every page of a mixed-agent index, in a real browser: an agent column on the
// Findings list, the Files tables and the Session page, the finding's metadata naming it, versions read
// `agent version` where rows can hold several agents, and one chart per agent on the Overview and the Versions
// page when the filter shows every agent.
import { cpSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { addRoot } from '../../server/store/roots';
import { requireChromiumOrSkip, reusedTab } from '../support/browser';
import { fixturesRoot } from '../support/detector-fixtures';
import { type PageServer, startPageServer } from '../support/page-server';

describe.runIf(requireChromiumOrSkip('agent pages'))('the agent on every page (Debian Chromium)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-agent-pages-'));
  let served: PageServer;
  let browser: Browser;
  let base: string;
  const api = async <T>(path: string) => (await (await fetch(base + path)).json()) as T;
  const errors: string[] = [];

  beforeAll(async () => {
    served = await startPageServer(
      tmp,
      async (db) => {
        generateDemoCorpus({ out: join(tmp, 'demo'), seed: 34, sessions: 20 });
        // The agent fixtures, a file no reader recognises (failed: no agent), and a Codex file deleted after indexing (gone: its agent kept).
        const agents = join(tmp, 'agents');
        cpSync(join(fixturesRoot, 'agents'), agents, { recursive: true });
        rmSync(join(agents, 'expected.json'));
        writeFileSync(join(agents, 'not-a-transcript.jsonl'), 'no JSON here\n');
        mkdirSync(join(tmp, 'agents', 'old'));
        cpSync(join(agents, 'codex-tail.jsonl'), join(agents, 'old', 'codex-deleted.jsonl'));
        addRoot(db, join(tmp, 'demo/projects'), 'demo');
        addRoot(db, agents, 'agents');
        await indexDatabase(db, { analyser: 'inline' });
        unlinkSync(join(agents, 'old', 'codex-deleted.jsonl'));
      },
      { watch: false },
    );
    ({ browser, base } = served);
  }, 180_000);

  afterAll(async () => {
    await served?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  // Every test loads its pages in this one tab (test/support/browser.ts: reusedTab).
  const tab = reusedTab(
    () => browser,
    (page) => page.on('pageerror', (e) => errors.push(`${new URL(page.url()).pathname}: ${e.message}`)),
  );

  async function open(path: string): Promise<Page> {
    const page = await tab(base + path, { width: 1400, height: 900 });
    await page.locator('main h1').first().waitFor();
    return page;
  }

  it('the Overview on every agent draws one time chart per agent; on one agent, one chart', async () => {
    const page = await open('/?agent=all');
    const series = page.getByTestId('agent-series');
    await expect.poll(() => series.count()).toBe(3);
    expect(await series.evaluateAll((els) => els.map((e) => e.getAttribute('data-agent')))).toEqual(['claude-code', 'codex', 'opencode']);
    for (const agent of ['claude-code', 'codex', 'opencode']) {
      const chart = page.getByTestId(`timeline-chart-${agent}`);
      await chart.waitFor();
      expect(Number(await chart.getAttribute('data-points')), agent).toBeGreaterThan(0);
    }
    // Each agent's chart holds its own days: the Codex chart has as many points as Codex's own timeline.
    const codexDays = (await api<{ rows: Array<{ day: string | null }> }>('/api/timeline?agent=codex')).rows.filter((r) => r.day !== null).length;
    expect(Number(await page.getByTestId('timeline-chart-codex').getAttribute('data-points'))).toBe(codexDays);
    // The top versions name their agent.
    const top = (await page.getByTestId('top-versions').textContent()) ?? '';
    expect(top).toMatch(/codex 0\.146\.0|opencode 1\.14\.28|claude-code 2\.1\./);

    const one = await open('/');
    await one.getByTestId('timeline-chart').waitFor();
    expect(await one.getByTestId('agent-series').count()).toBe(0);
  });

  it('the Versions page on every agent: one version chart per agent, and the table names each version with its agent', async () => {
    const page = await open('/versions');
    for (const agent of ['claude-code', 'codex', 'opencode']) await page.getByTestId(`versions-chart-${agent}`).waitFor();
    const table = (await page.getByTestId('versions-table').textContent()) ?? '';
    expect(table).toContain('codex 0.146.0');
    expect(table).toContain('opencode 1.14.28');
    expect(table).toMatch(/claude-code 2\.1\.\d+/);
    expect(table).not.toMatch(/(^|[^a-z ])0\.146\.0/);
    const codex = await open('/versions?agent=codex');
    await codex.getByTestId('versions-chart').waitFor();
    expect(await codex.getByTestId('agent-series').count()).toBe(0);
    expect((await codex.getByTestId('versions-table').textContent()) ?? '').not.toContain('codex 0.146.0');
  });

  it('the Findings list has an agent column and `agent version`; the finding and its session name the agent', async () => {
    // Two agents chosen: the rows can hold either, so versions name their agent (the whole list is virtual: a filter keeps both rows in view).
    const page = await open('/findings?agent=codex,opencode');
    await page.getByTestId('finding-row').first().waitFor();
    expect(await page.getByTestId('finding-row').count()).toBe(2);
    const agents = await page.getByTestId('finding-agent').allTextContents();
    const versions = await page.getByTestId('finding-version').allTextContents();
    expect(agents.map((a, i) => `${a} | ${versions[i]}`).sort()).toEqual(['Codex CLI | codex 0.146.0', 'OpenCode | opencode 1.14.28']);
    expect(await page.getByRole('columnheader', { name: 'agent' }).count()).toBe(1);

    const one = await open('/findings?agent=opencode');
    const row = one.getByTestId('finding-row').first();
    await row.waitFor();
    expect(await row.getByTestId('finding-agent').textContent()).toBe('OpenCode');
    expect(await row.getByTestId('finding-version').textContent()).toBe('1.14.28');

    const [opencode] = (await api<{ rows: Array<{ id: string }> }>('/api/findings?agent=opencode')).rows;
    const finding = await open(`/findings/${opencode!.id}`);
    const facts = finding.locator('dl');
    await facts.first().waitFor();
    const text = (await facts.first().textContent()) ?? '';
    expect(text).toContain('agentOpenCode');
    expect(text).toContain('OpenCode version1.14.28');
    const session = (await api<{ session_hash: string }>(`/api/findings/${opencode!.id}`)).session_hash;
    const sessionPage = await open(`/sessions/${session}`);
    await sessionPage.getByTestId('session-file-agent').first().waitFor();
    const sessionFiles = (await api<{ rows: unknown[] }>(`/api/sessions/${session}`)).rows.length;
    expect(sessionFiles).toBeGreaterThan(0);
    expect(await sessionPage.getByTestId('session-file-agent').allTextContents()).toEqual(Array(sessionFiles).fill('OpenCode'));
  });

  it('the Files tables name each file agent: none for a file not read, its own for a deleted one', async () => {
    const page = await open('/files');
    const failed = page.getByTestId('file-row').filter({ hasText: 'not-a-transcript.jsonl' });
    await failed.waitFor();
    expect(await failed.getByTestId('file-agent').textContent()).toBe('–');
    const gone = page.getByTestId('gone-row').filter({ hasText: 'codex-deleted.jsonl' });
    await gone.waitFor();
    expect(await gone.getByTestId('file-agent').textContent()).toBe('Codex CLI');
    const headers = await page.getByTestId('gone-table').locator('th').allTextContents();
    expect(headers).toEqual(['folder', 'file', 'first day', 'deleted after', 'agent', '']);
    expect(errors).toEqual([]);
  });
});
