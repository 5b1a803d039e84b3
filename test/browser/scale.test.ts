/**
 * The pages at a real user's scale (issue 22) and the verdict-first views (issue 15), in Debian
 * Chromium: a year of sessions over ~120 versions with findings in a few (fixtures/real-scale-corpus.ts),
 * and the demo corpus (regression from 2.1.40) for the interactions.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { generateRealScaleCorpus, REAL_SCALE_FIRST_BAD } from '../../fixtures/real-scale-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { startServer } from '../../server/app/serve';
import { ensureWebBuild, WEB_DIST } from '../../server/build/web-build';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import type { SummaryResponse, TimelineResponse, VersionRatesResponse } from '../../shared/api-schemas';
import { FINDING_DEFINITIONS, type FindingCode } from '../../shared/finding-codes';
import { expandRates } from '../../shared/sparse-rates';
import { launchChromium, requireChromiumOrSkip, reusedTab } from '../support/browser';

const artifacts = join(import.meta.dirname, '../../test-artifacts');
const VIEWS = [
  ['overview', '/'],
  ['timeline', '/timeline'],
  ['versions', '/versions'],
] as const;

describe.runIf(requireChromiumOrSkip('dashboard at real scale'))('dashboard at real scale and verdict-first (Debian Chromium)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-scale-'));
  let scale: Awaited<ReturnType<typeof startServer>>;
  let demo: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  const errors: string[] = [];

  async function index(name: string, projects: string) {
    const db = openDatabase(join(tmp, `${name}.db`));
    addRoot(db, projects, name);
    await indexDatabase(db, { analyser: 'inline' });
    db.close();
    return startServer({ port: 0, db: join(tmp, `${name}.db`), webRoot: WEB_DIST, log: () => {} });
  }

  beforeAll(async () => {
    await ensureWebBuild(() => {});
    mkdirSync(artifacts, { recursive: true });
    generateRealScaleCorpus({ out: join(tmp, 'scale') });
    generateDemoCorpus({ out: join(tmp, 'demo'), seed: 17, sessions: 200 });
    scale = await index('scale', join(tmp, 'scale/projects'));
    demo = await index('demo', join(tmp, 'demo/projects'));
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await scale?.close();
    await demo?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const base = (s: { url: string }) => s.url.replace(/\/$/, '');
  const api = async <T>(s: { url: string }, path: string) => (await (await fetch(base(s) + path)).json()) as T;

  // Every test loads its page in this one tab (test/support/browser.ts: reusedTab); a new test calls
  // `open(server, path, width, scheme)` and leaves the tab open for the next.
  const tab = reusedTab(
    () => browser,
    (page) => {
      const at = () => new URL(page.url()).pathname;
      page.on('pageerror', (e) => errors.push(`${at()}: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${at()}: ${m.text()}`);
      });
    },
  );

  async function open(s: { url: string }, path: string, width = 1280, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const page = await tab(base(s) + path, { width, scheme });
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.waitForTimeout(250);
    return page;
  }

  /** Pairs of SVG text elements whose boxes overlap by more than one pixel each way. */
  const overlappingTexts = (page: Page) =>
    page.evaluate(() => {
      const boxes = [...document.querySelectorAll('main svg text')]
        .filter((t) => (t.textContent ?? '').trim() !== '')
        .map((t) => ({ text: t.textContent!, r: t.getBoundingClientRect() }))
        .filter((b) => b.r.width > 0 && b.r.height > 0);
      const out: string[] = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!.r;
          const b = boxes[j]!.r;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 1 && h > 1) out.push(`${boxes[i]!.text} × ${boxes[j]!.text}`);
        }
      return out;
    });

  it.each(VIEWS.flatMap(([name, path]) => [1280, 390].map((w) => [name, path, w] as const)))(
    'real scale: %s at %s px has no overlapping chart labels, stays under 4,000 px, and says "No regression" at most once',
    async (name, path, width) => {
      const page = await open(scale, path, width);
      await page.locator('main .recharts-surface').first().waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, `scale-${name}-${width}px.png`), fullPage: true });
      expect(await overlappingTexts(page)).toEqual([]);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height).toBeLessThan(4000);
      const text = await page.evaluate(() => document.body.textContent ?? '');
      expect(text.match(/No regression/g)?.length ?? 0).toBeLessThanOrEqual(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(1);
    },
    30_000,
  );

  it.each(VIEWS)('real scale: %s in dark mode is screenshotted', async (name, path) => {
    const page = await open(scale, path, 1280, 'dark');
    await page.locator('main .recharts-surface').first().waitFor();
    await page.screenshot({ path: join(artifacts, `scale-${name}-dark.png`), fullPage: true });
  });

  it('real scale: the Overview leads with a card naming the generated first bad version; no tile for a code without opportunities', async () => {
    const summary = await api<SummaryResponse>(scale, '/api/summary');
    const page = await open(scale, '/');
    const card = page.locator('[data-testid="verdicts-overview"] [data-testid="verdict-card"]').first();
    await card.waitFor();
    expect(await card.getAttribute('data-first-bad')).toBe(REAL_SCALE_FIRST_BAD);
    expect(await card.textContent()).toContain('strong evidence');
    // The card comes before any chart or table.
    const order = await page.evaluate(() => {
      const c = document.querySelector('[data-testid="verdict-card"]')!;
      const chart = document.querySelector('main .chart')!;
      return c.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    expect(order).toBeTruthy();
    const tiles = await page.locator('[data-testid^="stat-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    for (const c of summary.codes) {
      const has = tiles.includes(`stat-${c.code}`);
      if (c.not_measurable !== null) expect(has, c.code).toBe(false);
      // Tiles by default: measurable codes with findings only.
      else expect(has, c.code).toBe(c.count > 0);
    }
    // "Highest rates" lists only versions with findings.
    const listed = await page.locator('[data-testid="top-versions"] tbody tr td:first-child').allTextContents();
    const versions = await api<VersionRatesResponse>(scale, '/api/versions');
    for (const v of listed) expect(versions.rows.find((r) => r.version === v)!.codes.some((c) => c.count > 0)).toBe(true);
  });

  it('real scale: the default charts draw only codes with findings, no band or whisker for a zero, and at most 30 version columns', async () => {
    const summary = await api<SummaryResponse>(scale, '/api/summary');
    const withFindings = summary.codes.filter((c) => c.count > 0 && c.not_measurable === null).map((c) => c.code);
    const page = await open(scale, '/timeline');
    await page.locator('[data-testid="timeline-chart"] .rate-line').first().waitFor();
    const lines = await page.locator('[data-testid="timeline-chart"] .rate-line').evaluateAll((els) => els.map((e) => e.getAttribute('class')));
    expect(lines).toHaveLength(withFindings.length);
    for (const code of withFindings) expect(lines.some((c) => c!.includes(`rate-line-${code}`))).toBe(true);
    // No band drawn until a code is focused; then only that code's, only where it has findings.
    const bandPaths = () =>
      page.locator('[data-testid="timeline-chart"] .rate-band path').evaluateAll((els) => els.filter((e) => /\d/.test(e.getAttribute('d') ?? '')).length);
    expect(await bandPaths()).toBe(0);
    await page.locator('[data-testid="timeline-chart"] [data-testid="chart-legend"] li[data-code] button').first().hover();
    await expect.poll(bandPaths).toBeGreaterThan(0);
    await page.mouse.move(5, 5);
    await expect.poll(bandPaths).toBe(0);
    expect(await page.locator('[data-testid="timeline-chart"]').getAttribute('data-bucket')).toBe('week');
    // The first bad version is marked, with its label; no other version lines.
    expect(await page.locator('[data-testid="timeline-chart"] .first-bad-marker').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="timeline-chart"] svg').first().textContent()).toContain(`first bad: ${REAL_SCALE_FIRST_BAD}`);

    const versions = await open(scale, '/versions');
    const chart = versions.locator('[data-testid="versions-chart"]');
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    const columns = Number(await chart.getAttribute('data-points'));
    expect(columns).toBeLessThanOrEqual(31);
    expect(await versions.locator('[data-testid="fold-note"]').textContent()).toMatch(/pooled into \d+ ranges/);
    // Whiskers only on columns with findings.
    const rows = (await api<VersionRatesResponse>(scale, '/api/versions')).rows;
    const code = withFindings[0]!;
    const found = rows.filter((r) => (r.codes.find((c) => c.code === code)?.count ?? 0) > 0).length;
    expect(await chart.locator('.recharts-errorBar').count()).toBeLessThanOrEqual(found);
    expect(await chart.locator('.recharts-errorBar').count()).toBeGreaterThan(0);
    expect(await chart.locator('.first-bad-marker').count()).toBe(1);
    expect(await chart.textContent()).toContain(`first bad: ${REAL_SCALE_FIRST_BAD}`);
  });

  it('real scale: on the Versions chart a version where the rate cannot be measured is hatched, unlike a zero, and a clipped whisker ends in a mark', async () => {
    // The answer is sparse (issue 32): the page rebuilds every code's figures, as expandRates does here.
    const rows = expandRates(await api<VersionRatesResponse>(scale, '/api/versions'));
    const page = await open(scale, '/versions?chart=missing_tool_use_block');
    const chart = page.locator('[data-testid="versions-chart"]');
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    // 2.1.12–2.1.52 record no stop reason: missing_tool_use_block has no rate there.
    expect(rows.find((r) => r.version === '2.1.30')!.codes.find((c) => c.code === 'missing_tool_use_block')!.not_measurable).toBe('stop_reason_not_recorded');
    const marks = chart.locator('.not-measurable-mark');
    const flagged = Number(await chart.getAttribute('data-not-measurable'));
    expect(flagged).toBeGreaterThan(0);
    expect(await marks.count()).toBe(flagged);
    // Drawn (a column with height and the hatch), where a measured zero draws nothing.
    const mark = await marks.first().evaluate((e) => ({ h: e.getBoundingClientRect().height, fill: e.getAttribute('fill') }));
    expect(mark.h).toBeGreaterThan(50);
    expect(mark.fill).toMatch(/^url\(#not-measurable-hatch-versions-chart\)$/);
    expect(await chart.locator('[data-testid="chart-marks"]').textContent()).toContain('Hatched: not measurable');
    await chart.scrollIntoViewIfNeeded();
    const box = (await marks.first().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => chart.locator('.chart-tooltip').textContent()).toContain('not measurable: stop reason not recorded');
    // Whiskers running past the axis top end in a triangle, and the tooltip gives the real end.
    const clipped = Number(await chart.getAttribute('data-clipped'));
    expect(clipped).toBeGreaterThan(0);
    const tri = chart.locator('.clip-mark .clip-triangle');
    expect(await tri.count()).toBe(clipped);
    const t = (await tri.first().boundingBox())!;
    const plotTop = (await chart.locator('.recharts-cartesian-grid').boundingBox())!.y;
    expect(Math.abs(t.y - plotTop)).toBeLessThan(2); // its tip on the axis top, its body below it
    await page.mouse.move(t.x + t.width / 2, t.y + t.height + 20);
    await expect.poll(() => chart.locator('.chart-tooltip').textContent()).toMatch(/interval runs to [\d.,]+‰ \(above the axis\)/);
    await page.screenshot({ path: join(artifacts, 'scale-versions-marks.png'), fullPage: true });
  }, 60_000);

  it('demo: Overview, Timeline and Versions name 2.1.40; the timeline marks it', async () => {
    const page = await open(demo, '/');
    await page.locator('[data-testid="verdict-card"]').first().waitFor();
    expect(await page.locator('[data-testid="verdict-card"]').first().getAttribute('data-first-bad')).toBe('2.1.40');
    expect(await page.locator('[data-testid="verdict-card"]').first().textContent()).toMatch(/2\.1\.39\s*→\s*2\.1\.40/);
    const timeline = await open(demo, '/timeline');
    await timeline.locator('[data-testid="timeline-chart"] .first-bad-marker').first().waitFor({ state: 'attached' });
    expect(await timeline.locator('[data-testid="timeline-chart"] svg').first().textContent()).toContain('first bad: 2.1.40');
    const versions = await open(demo, '/versions');
    await versions.locator('[data-testid="versions-chart"] .first-bad-marker').first().waitFor({ state: 'attached' });
  });

  it('demo: dragging the brush moves `from` by the dragged amount, and it stays', async () => {
    const timeline = await api<TimelineResponse>(demo, '/api/timeline');
    const days = timeline.rows.flatMap((r) => (r.day ? [r.day] : []));
    const page = await open(demo, '/timeline?bucket=day');
    const traveller = page.locator('[data-testid="timeline-chart"] .recharts-brush-traveller').first();
    await traveller.waitFor();
    await traveller.scrollIntoViewIfNeeded();
    const brush = (await page.locator('[data-testid="timeline-chart"] .recharts-brush > rect').first().boundingBox())!;
    const t = (await traveller.boundingBox())!;
    const drag = Math.round(brush.width * 0.4);
    await page.mouse.move(t.x + t.width / 2, t.y + t.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(t.x + t.width / 2 + (drag * i) / 10, t.y + t.height / 2);
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).not.toBeNull();
    const from = new URL(page.url()).searchParams.get('from')!;
    // The brush spans the points (one per day here, gaps included as their own point).
    const span = (Date.parse(days[days.length - 1]!) - Date.parse(days[0]!)) / 86_400_000;
    const moved = (Date.parse(from) - Date.parse(days[0]!)) / 86_400_000;
    expect(Math.abs(moved - 0.4 * span)).toBeLessThanOrEqual(2);
    await page.waitForTimeout(800);
    expect(new URL(page.url()).searchParams.get('from')).toBe(from);
    expect(await page.locator('[data-testid="timeline-chart"]').getAttribute('data-points')).toBe(String(days.filter((d) => d >= from).length));
  });

  it('demo: Compare refuses overlapping and unknown sides and shows no ratio for zero against zero', async () => {
    const page = await open(demo, '/compare?a=2.1.36..2.1.39&b=2.1.40..2.1.42');
    await page.locator('[data-testid="compare-table"]').waitFor();
    await page.getByLabel('Side B').fill('2.1.39..2.1.42');
    await page.locator('[data-testid="compare-conflict"]').waitFor();
    expect(await page.locator('[data-testid="compare-conflict"]').textContent()).toContain('overlap');
    expect(await page.locator('[data-testid="compare-table"]').count()).toBe(0);
    await page.getByLabel('Side B').fill('2.1.36..2.1.392.19');
    expect(await page.locator('[data-testid="side-b-error"]').textContent()).toContain('2.1.392.19');
    await page.getByLabel('Side B').fill('9.9.9');
    expect(await page.locator('[data-testid="side-b-error"]').textContent()).toContain('not in the index');
    await page.getByLabel('Side B').fill('');
    expect(await page.getByLabel('Side B').inputValue()).toBe('');
    expect(new URL(page.url()).searchParams.get('b')).toBe('2.1.40..2.1.42');

    const zero = await open(demo, '/compare?a=2.1.36&b=2.1.37');
    await zero.locator('[data-testid="compare-table"]').waitFor();
    const row = zero.locator('[data-testid="compare-table"] tr[data-code="missing_tool_use_block"]');
    expect(await row.textContent()).toContain('no findings on either side');
    expect(await row.textContent()).not.toMatch(/×/);
    expect(await zero.locator('[data-testid="compare-coverage"]').textContent()).toMatch(/A: 1 version, [\d,]+ tool-use turns/);

    const bad = await fetch(`${base(demo)}/api/compare?a=2.1.36..2.1.39&b=2.1.39..2.1.42`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('overlap');
  });

  it.each([
    ['overview', '/'],
    ['timeline', '/timeline'],
    ['versions', '/versions'],
    ['compare', '/compare?a=2.1.36..2.1.39&b=2.1.40..2.1.42'],
  ])('demo: every chart on %s has a legend whose codes carry their definition and a glossary link', async (_name, path) => {
    const page = await open(demo, path);
    await page.locator('main .chart').first().waitFor();
    const charts = await page.locator('main .chart').count();
    expect(charts).toBeGreaterThan(0);
    for (let i = 0; i < charts; i++) {
      const items = page.locator('main .chart').nth(i).locator('[data-testid="chart-legend"] li[data-code]');
      expect(await items.count()).toBeGreaterThan(0);
      const code = (await items.first().getAttribute('data-code')) as FindingCode;
      expect(await items.first().locator('button').getAttribute('title')).toContain(FINDING_DEFINITIONS[code]);
      expect(await items.first().locator('a').getAttribute('href')).toBe(`/glossary#${code}`);
    }
    const first = page.locator('main .chart [data-testid="chart-legend"] li[data-code] a').first();
    const code = (await first.locator('..').getAttribute('data-code')) as FindingCode;
    await first.click();
    await page.locator(`[id="${code}"]`).waitFor();
    expect(await page.locator(`[id="${code}"]`).textContent()).toContain(FINDING_DEFINITIONS[code]);
  });

  it('each page links to its API call and offers CSV', async () => {
    for (const path of ['/', '/timeline', '/versions']) {
      const page = await open(demo, path);
      const link = page.locator('[data-testid="api-link"]').first();
      await link.waitFor();
      const href = (await link.getAttribute('href'))!;
      expect((await fetch(base(demo) + href)).status).toBe(200);
      expect(await page.locator('[data-testid="csv-download"]').count()).toBeGreaterThan(0);
    }
  });

  it('logged no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
