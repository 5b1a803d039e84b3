import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { addRoot } from '../../server/store/roots';
import type {
  ModelRatesResponse,
  RegressionsResponse,
  SummaryResponse,
  TimelineResponse,
  VersionEffortResponse,
  VersionModelResponse,
  VersionRatesResponse,
} from '../../shared/api-schemas';
import { FINDING_CODES } from '../../shared/finding-codes';
import { expandRates } from '../../shared/sparse-rates';
import { requireChromiumOrSkip, reusedTab } from '../support/browser';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { fixturesRoot } from '../support/detector-fixtures';
import { type PageServer, startPageServer } from '../support/page-server';

const artifacts = join(import.meta.dirname, '../../test-artifacts');
const PAGES = [
  ['overview', '/'],
  ['timeline', '/timeline'],
  ['versions', '/versions'],
  ['compare', '/compare'],
  ['findings', '/findings'],
  ['evidence', '/evidence'],
  ['files', '/files'],
  ['folders', '/folders'],
  ['glossary', '/glossary'],
] as const;

describe.runIf(requireChromiumOrSkip('dashboard in a real browser'))('dashboard in a real browser (Debian Chromium)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-browser-'));
  const canary = newCanary();
  let served: PageServer;
  let browser: Browser;
  let base: string;
  const networkLeaks: string[] = [];
  const consoleErrors: string[] = [];
  const api = async <T>(path: string) => (await (await fetch(base + path)).json()) as T;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    // Every progress event is sent (no 100 ms throttle), so the bar's advance does not depend on
    // how fast this machine indexes the larger corpus.
    served = await startPageServer(
      tmp,
      (db) => {
        const transcripts = writeCanaryTranscripts(tmp, canary, { canaryInNames: false });
        generateDemoCorpus({ out: join(tmp, 'demo'), seed: 17, sessions: 90, canary });
        // A larger corpus, added later from the Sources page, so the progress bar has time to move.
        generateDemoCorpus({ out: join(tmp, 'big'), seed: 18, sessions: 900, canary });
        addRoot(db, join(tmp, 'demo/projects'), 'demo');
        addRoot(db, transcripts, 'canary');
        // Issue 37's classes: foreign files with their hint, a file with unknown row types, empty files.
        cpSync(join(fixturesRoot, 'formats'), join(tmp, 'formats'), { recursive: true });
        // Codex and Copilot CLI sessions are read since issue 34 (their pages: test/browser/agents.test.ts); this corpus stays Claude Code's.
        for (const other of ['codex-rollout.jsonl', 'copilot-events.jsonl']) rmSync(join(tmp, 'formats', other));
        addRoot(db, join(tmp, 'formats'), 'formats');
      },
      { progressIntervalMs: 0 },
    );
    ({ browser, base } = served);
  }, 180_000);

  afterAll(async () => {
    await served?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  // Every test loads its page in this one tab (test/support/browser.ts: reusedTab); a new test calls
  // `open(path, scheme, width)` and leaves the tab open for the next.
  const tab = reusedTab(
    () => browser,
    (page) => {
      const at = () => new URL(page.url()).pathname;
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(`${at()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => consoleErrors.push(`${at()}: ${e.message}`));
      page.on('response', async (r) => {
        try {
          const body = await r.text();
          if (body.includes(canary)) networkLeaks.push(r.url());
        } catch {
          // event streams and aborted requests have no readable body
        }
      });
    },
  );

  async function open(path: string, scheme: 'light' | 'dark' = 'light', width = 1280, inPlace = false): Promise<Page> {
    const page = await tab(base + path, { scheme, width, inPlace });
    await page.waitForLoadState('networkidle').catch(() => {});
    return page;
  }

  it.each(PAGES.flatMap(([name, path]) => (['light', 'dark'] as const).map((scheme) => [name, path, scheme] as const)))(
    '%s (%s) loads without console errors, shows no payload, and is screenshotted in %s',
    async (name, path, scheme) => {
      // Dark restyles the page the light test just loaded (CSS alone follows the colour scheme).
      const page = await open(path, scheme, 1280, scheme === 'dark');
      await page.locator('main h1').first().waitFor();
      await page.waitForTimeout(300);
      expect(await page.content()).not.toContain(canary);
      await page.screenshot({ path: join(artifacts, `${name}-${scheme}.png`), fullPage: true });
      expect(consoleErrors).toEqual([]);
    },
    30_000,
  );

  it.each(PAGES)('%s is readable at 390 px wide: nothing but scrollable tables is wider than the screen', async (name, path) => {
    const page = await open(path, 'light', 390);
    await page.locator('main h1').first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(artifacts, `${name}-390px.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  });

  it('draws one denominator bar per day with tool-use turns, a line per code with findings, and a marker only where a verdict names a version', async () => {
    const timeline = await api<TimelineResponse>('/api/timeline');
    const summary = await api<SummaryResponse>('/api/summary');
    const page = await open('/timeline?bucket=day');
    await page.locator('[data-testid="timeline-chart"] .recharts-bar-rectangle').first().waitFor();
    const bars = await page.locator('[data-testid="timeline-chart"] .denominator-bar .recharts-bar-rectangle').count();
    expect(bars).toBe(timeline.rows.filter((r) => r.day != null && r.tool_use_turns > 0).length);
    const regressions = await api<RegressionsResponse>('/api/regressions');
    const named = new Set(regressions.rows.filter((c) => c.strength !== 'insufficient' && c.first_bad).map((c) => c.first_bad));
    expect(named.size).toBeGreaterThan(0);
    const markers = await page.locator('[data-testid="timeline-chart"] .version-marker').count();
    // One per named version or day (a day that is also a version's first day is drawn once); no others.
    expect(markers).toBeGreaterThanOrEqual(1);
    expect(markers).toBeLessThanOrEqual(named.size);
    expect(markers).toBeLessThan(timeline.version_markers.length);
    expect(await page.locator('[data-testid="timeline-chart"] svg').first().textContent()).toContain('first bad: 2.1.40');
    expect(await page.locator('[data-testid="timeline-chart"] .rate-line').count()).toBe(summary.codes.filter((c) => c.count > 0).length);
    await page.getByTestId('toggle-zero-codes').click();
    await expect
      .poll(() => page.locator('[data-testid="timeline-chart"] .rate-line').count())
      .toBe(
        new Set(
          expandRates(timeline)
            .filter((r) => r.day != null)
            .flatMap((r) => r.codes.filter((c) => c.not_measurable === null).map((c) => c.code)),
        ).size,
      );
  });

  it('draws one whisker bar per version and per model, as the API says', async () => {
    const versions = await api<VersionRatesResponse>('/api/versions');
    const models = await api<ModelRatesResponse>('/api/models');
    const page = await open('/versions');
    await page.locator('[data-testid="versions-chart"] .recharts-bar-rectangle').first().waitFor();
    // The chart shows the first code with findings; a zero draws no bar and no whisker.
    const count = (r: { codes: Array<{ code: string; count: number }> }, code: string) => r.codes.find((c) => c.code === code)?.count ?? 0;
    const code = FINDING_CODES.find((c) => versions.rows.some((r) => count(r, c) > 0))!;
    expect(await page.locator('[data-testid="versions-chart"] .recharts-bar-rectangle').count()).toBe(versions.rows.filter((r) => count(r, code) > 0).length);
    expect(await page.locator('[data-testid="models-chart"] .recharts-bar-rectangle').count()).toBe(models.rows.filter((r) => count(r, code) > 0).length);
    expect(await page.locator('[data-testid="versions-chart"] .recharts-errorBar').count()).toBe(versions.rows.filter((r) => count(r, code) > 0).length);
    expect(await page.locator('[data-testid="versions-chart"] .recharts-errorBar').count()).toBeGreaterThan(0);
    // The folded cross tables: version × model, a row per version with the code's findings; version × effort, a row per
    // version; a column per model or effort the answer holds (`unknown` for none), as the API says.
    const byModel = await api<VersionModelResponse>('/api/version-models');
    const byEffort = await api<VersionEffortResponse>('/api/version-efforts');
    const versionKey = (r: { agent: string; version: string | null }) => `${r.agent} ${r.version}`;
    const shape = async (testId: string) => {
      const table = page.getByTestId(testId);
      await table.waitFor({ state: 'attached' });
      return { rows: await table.locator('tbody tr').count(), columns: (await table.locator('thead th').count()) - 1 };
    };
    expect(await shape('version-model-table')).toEqual({
      rows: new Set(byModel.rows.filter((r) => count(r, code) > 0).map(versionKey)).size,
      columns: new Set(byModel.rows.map((r) => r.model ?? 'unknown')).size,
    });
    expect(byEffort.rows.length).toBeGreaterThan(0);
    expect(await shape('version-effort-table')).toEqual({
      rows: new Set(byEffort.rows.map(versionKey)).size,
      columns: new Set(byEffort.rows.map((r) => r.effort ?? 'unknown')).size,
    });
  });

  it('draws rates by effort, how turns end by effort and for the last turn only, and filters by effort (issue 33)', async () => {
    const efforts = await api<{ rows: Array<{ effort: string | null }> }>('/api/efforts');
    // The canary corpus records xhigh; the demo corpus records none (unknown).
    expect(efforts.rows.map((r) => r.effort)).toEqual(['xhigh', null]);
    const page = await open('/versions');
    await page.locator('[data-testid="efforts-table"]').waitFor();
    expect(await page.locator('[data-testid="efforts-table"] tbody tr').count()).toBe(efforts.rows.length);
    const chart = page.locator('[data-testid="turn-ends-chart"]');
    await chart.waitFor();
    const byVersion = await api<{ rows: unknown[] }>('/api/turn-ends?dimension=version');
    expect(await chart.getAttribute('data-points')).toBe(String(Math.min(byVersion.rows.length, 24)));
    await page.getByTestId('turn-ends-by').selectOption('effort');
    await expect.poll(() => page.url()).toContain('ends_by=effort');
    const byEffort = await api<{ rows: Array<{ effort: string | null; ends: Record<string, number> }> }>('/api/turn-ends?dimension=effort');
    await expect.poll(() => chart.getAttribute('data-dimension')).toBe('effort');
    expect(await chart.getAttribute('data-points')).toBe(String(byEffort.rows.length));
    expect(await chart.locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    await page.getByTestId('turn-ends-turns').selectOption('last');
    await expect.poll(() => chart.getAttribute('data-turns')).toBe('last');
    expect(page.url()).toContain('ends=last');
    // Switching xhigh off keeps only unknown: the effort filter reaches every rate on the page.
    await page.getByRole('button', { name: 'effort xhigh' }).click();
    await expect.poll(() => page.url()).toContain('effort=unknown');
    await expect.poll(() => page.locator('[data-testid="efforts-table"] tbody tr').count()).toBe(1);
  });

  it('filters change the URL and the figures', async () => {
    const all = await api<SummaryResponse>('/api/summary');
    const main = await api<SummaryResponse>('/api/summary?sidechain=main');
    expect(main.assistant_messages).toBeLessThan(all.assistant_messages);
    const page = await open('/');
    const stat = page.locator('[data-testid="stat-messages"] .stat-value');
    await expect.poll(() => stat.textContent()).toBe(all.assistant_messages.toLocaleString('en-US'));
    await page.getByLabel('Thread').selectOption('main');
    await expect.poll(() => page.url()).toContain('sidechain=main');
    await expect.poll(() => stat.textContent()).toBe(main.assistant_messages.toLocaleString('en-US'));

    const findings = await open('/findings');
    await findings.locator('[data-testid="finding-row"]').first().waitFor();
    await findings.getByRole('button', { name: 'empty tool input with error result' }).click();
    await expect.poll(() => findings.url()).toContain('code=missing_tool_use_block');
    expect(findings.url()).not.toContain('empty_tool_input_with_error_result');
    await expect
      .poll(() => findings.locator('[data-testid="findings-total"]').textContent())
      .toContain(
        `${(await (await fetch(`${base}/api/findings?limit=1&code=${FINDING_CODES.filter((c) => c !== 'empty_tool_input_with_error_result').join(',')}`)).json()).total} findings`,
      );
    const codes = await findings.locator('[data-testid="finding-row"] [role="cell"]:first-child').allTextContents();
    expect(codes.length).toBeGreaterThan(0);
    expect(codes).not.toContain('empty tool input with error result');
    await findings.locator('[data-testid="finding-row"]').first().click();
    await findings.locator('[data-testid="finding-detail"]').waitFor();
    expect(findings.url()).toMatch(/finding=\d+/);
    expect(await findings.content()).not.toContain(canary);
  });

  it('lists a failed file with its code and line', async () => {
    const page = await open('/files');
    await page.locator('[data-testid="file-row"]').first().waitFor();
    const text = await page.locator('[data-testid="files-table"]').textContent();
    expect(text).toContain('malformed_json');
    expect(text).toContain('duplicate_key');
    expect(text).toContain('being written');
  });

  it('groups unknown_format files by what they look like, lists unknown row types and counts empty files', async () => {
    const page = await open('/files');
    await page.locator('[data-testid="unknown-format-groups"]').waitFor();
    const groups = await page.locator('[data-testid="unknown-format-groups"]').textContent();
    expect(groups).toContain('chat messages ({role, content} rows): 2 files');
    expect(groups).toContain('not recognised (no hint): 1 file');
    expect(await page.locator('[data-testid="files-table"]').textContent()).toContain('OpenTelemetry export');
    expect(await page.locator('[data-testid="unknown-rows-table"]').textContent()).toContain('brand-new-row (1)');
    expect(await page.locator('[data-testid="files-empty"]').textContent()).toContain('2 empty files');
  });

  it('adding a folder starts its index run, and the progress bar advances during it', async () => {
    const page = await open('/folders');
    // Record every text the progress line shows, at each DOM change rather than by polling,
    // so a fast index run cannot slip between two looks.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenProgress: string[] }).seenProgress = seen;
      const record = () => {
        const text = document.querySelector('main [data-testid="index-run-files"]')?.textContent;
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('Folder (absolute path)').fill(join(tmp, 'big/projects'));
    await page.getByLabel('Label (shown instead of the path)').fill('big');
    // Only Add folder is clicked: the run that follows is the click's own.
    await page.getByRole('button', { name: 'Add folder' }).click();
    await page.getByRole('cell', { name: 'big', exact: true }).waitFor();
    await expect.poll(() => page.locator('main [data-testid="index-run-progress"]').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    const big = (await api<{ rows: Array<{ label: string; last_indexed_at: string | null; files: number }> }>('/api/folders')).rows.find(
      (r) => r.label === 'big',
    )!;
    expect(big.last_indexed_at).not.toBeNull();
    const seen = new Set(await page.evaluate(() => (window as unknown as { seenProgress: string[] }).seenProgress));
    expect(seen.size).toBeGreaterThan(2);
    expect(await page.locator('main [data-testid="index-run-progress"]').getAttribute('data-state')).toBe('done');
    await page.screenshot({ path: join(artifacts, 'folders-after-index-run.png'), fullPage: true });

    // Ticking salvage changes what is read: the folder is indexed again with it, at once.
    await page
      .getByTestId(`salvage-${(await api<{ rows: Array<{ id: number; label: string }> }>('/api/folders')).rows.find((r) => r.label === 'big')!.id}`)
      .click(); // click, not check: the box follows the stored setting, which changes once the PATCH is answered
    await expect
      .poll(
        async () =>
          (await api<{ rows: Array<{ label: string; last_indexed_at: string | null }> }>('/api/folders')).rows.find((r) => r.label === 'big')!.last_indexed_at,
        {
          timeout: 60_000,
        },
      )
      .not.toBe(big.last_indexed_at);
  }, 120_000);

  it('shows the regression verdicts on the Versions page and compares two sides as the API does', async () => {
    const page = await open('/versions');
    await page.locator('[data-testid="verdicts-version"] [data-testid="verdict-card"]').first().waitFor();
    expect(await page.locator('[data-testid="verdicts-version"] [data-testid="verdict-card"]').first().getAttribute('data-first-bad')).toBe('2.1.40');

    const compare = await open('/compare?a=2.1.36..2.1.39&b=2.1.40..2.1.42');
    await compare.locator('[data-testid="compare-table"] tbody tr').first().waitFor();
    const api = await (await fetch(`${base}/api/compare?a=2.1.36..2.1.39&b=2.1.40..2.1.42`)).json();
    const firstRow = await compare.locator('[data-testid="compare-table"] tbody tr').first().textContent();
    expect(firstRow).toContain(`${api.rows[0].b.count} · `);
    // One chart per code with findings on either side; one bar per side with findings.
    const codes = api.rows as Array<{ a: { count: number }; b: { count: number } }>;
    expect(await compare.locator('[data-testid^="compare-chart-"]').count()).toBe(codes.filter((c) => c.a.count + c.b.count > 0).length);
    expect(await compare.locator('[data-testid^="compare-chart-"] .recharts-bar-rectangle').count()).toBe(
      codes.reduce((n, c) => n + (c.a.count > 0 ? 1 : 0) + (c.b.count > 0 ? 1 : 0), 0),
    );
    await compare.getByLabel('Side B').fill('2.1.42');
    await expect.poll(() => compare.url()).toContain('b=2.1.42');
  });

  it('shows on the Evidence page exactly the text the export API gives, and downloads the chart as SVG and PNG', async () => {
    const page = await open('/evidence?files=omit&models=generalize');
    const pre = page.locator('[data-testid="report-text"]');
    await pre.waitFor();
    const shown = (await pre.textContent())!;
    const api = await (await fetch(`${base}/api/export?files=omit&models=generalize&format=md`)).text();
    const stamp = (t: string) => t.replace(/ at \d{4}-\d\d-\d\dT[\d:.]+Z\./, ' at <time>.');
    expect(stamp(shown)).toBe(stamp(api));
    expect(shown).toContain('Redaction: files=omit, lines=keep, digests=keep, models=generalize.');
    expect(shown).not.toContain(canary);

    await page.locator('.recharts-surface').first().waitFor();
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download SVG' }).click()]);
    const svg = readFileSync((await svgDownload.path())!, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).not.toContain('var(--');
    expect(svg).toContain('recharts');
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PNG' }).click()]);
    const png = readFileSync((await pngDownload.path())!);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('never sent the canary over the network, and logged no console errors', () => {
    expect(networkLeaks).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
