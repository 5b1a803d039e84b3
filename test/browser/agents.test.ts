// Issue 34: the agent dimension on the page, in a real browser: the Overview opens on Claude Code when the folders
// hold it, says which other agents they hold, and the FilterBar's agent filter changes what every figure counts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { startServer } from '../../server/app/serve';
import { ensureWebBuild, WEB_DIST } from '../../server/build/web-build';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { launchChromium, requireChromiumOrSkip } from '../support/browser';
import { fixturesRoot } from '../support/detector-fixtures';

describe.runIf(requireChromiumOrSkip('agent dimension'))('the agent dimension on the page (Debian Chromium)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-agents-browser-'));
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let base: string;
  const api = async <T>(path: string) => (await (await fetch(base + path)).json()) as T;
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureWebBuild(() => {});
    generateDemoCorpus({ out: join(tmp, 'demo'), seed: 34, sessions: 20 });
    const dbPath = join(tmp, 'index.db');
    const db = openDatabase(dbPath);
    addRoot(db, join(tmp, 'demo/projects'), 'demo');
    addRoot(db, join(fixturesRoot, 'agents'), 'agents');
    await indexDatabase(db, { analyser: 'inline' });
    db.close();
    server = await startServer({ port: 0, db: dbPath, webRoot: WEB_DIST, log: () => {}, watch: false });
    base = server.url.replace(/\/$/, '');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    await page.goto(base + path);
    await page.locator('main h1').first().waitFor();
    return page;
  }

  const messages = async (agent: string) => (await api<{ assistant_messages: number }>(`/api/summary?agent=${agent}`)).assistant_messages;

  it('the Overview opens on Claude Code, names the other agents, and the agent filter switches every figure', async () => {
    const claude = await messages('claude-code');
    const codex = await messages('codex');
    expect(claude).toBeGreaterThan(0);
    expect(codex).toBeGreaterThan(0);
    const page = await open('/');
    const line = page.getByTestId('other-agents');
    await line.waitFor();
    expect(await line.textContent()).toMatch(/Showing Claude Code\..*also hold: Codex CLI \(4 files\), OpenCode \(2 files\)/);
    const filter = page.getByTestId('agent-filter');
    expect(await filter.inputValue()).toBe('claude-code');
    const stat = page.getByTestId('stat-messages');
    await expect.poll(async () => (await stat.textContent()) ?? '').toContain(claude.toLocaleString('en-US'));

    await filter.selectOption('codex');
    await expect.poll(() => new URL(page.url()).searchParams.get('agent')).toBe('codex');
    await expect.poll(async () => (await stat.textContent()) ?? '').toContain(String(codex));
    expect(await page.getByTestId('other-agents').textContent()).toContain('Showing Codex CLI.');

    await filter.selectOption('all');
    await expect.poll(() => new URL(page.url()).searchParams.get('agent')).toBe('all');
    const all = (await api<{ assistant_messages: number }>('/api/summary')).assistant_messages;
    expect(all).toBe(claude + codex + (await messages('opencode')));
    await expect.poll(async () => (await stat.textContent()) ?? '').toContain(all.toLocaleString('en-US'));
    await page.screenshot({ path: join(import.meta.dirname, '../../test-artifacts/agents-overview.png') }).catch(() => {});
    await page.close();
  });

  it('the Findings page filters by agent from the address', async () => {
    const page = await open('/findings?agent=opencode');
    await page.getByTestId('finding-path').first().waitFor();
    const paths = await page.getByTestId('finding-path').allTextContents();
    expect(paths.length).toBe(1);
    expect(paths[0]).toContain('opencode-invalid-call.jsonl');
    expect(await page.getByTestId('agent-filter').inputValue()).toBe('opencode');
    await page.close();
    expect(errors).toEqual([]);
  });
});
