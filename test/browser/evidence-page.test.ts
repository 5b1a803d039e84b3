import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { addRoot } from '../../server/store/roots';
import type { TimelineResponse } from '../../shared/api-schemas';
import { FINDING_CODES } from '../../shared/finding-codes';
import { requireChromiumOrSkip, reusedTab } from '../support/browser';
import { newCanary } from '../support/canary-transcripts';
import { LONG_MODEL, writeClaimCorpus } from '../support/claim-corpus';
import { type PageServer, startPageServer } from '../support/page-server';

const artifacts = join(import.meta.dirname, '../../test-artifacts');
mkdirSync(artifacts, { recursive: true });

describe.runIf(requireChromiumOrSkip('evidence page in a real browser'))('evidence page: issue copy and chart images (Debian Chromium)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-evpage-'));
  const canary = newCanary();
  let served: PageServer;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    served = await startPageServer(tmp, (db) => {
      generateDemoCorpus({ out: join(tmp, 'demo'), seed: 21, sessions: 60, canary });
      addRoot(db, join(tmp, 'demo/projects'), 'demo');
    });
    ({ browser, base } = served);
  }, 180_000);

  afterAll(async () => {
    await served?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  // Every test loads its page in this one tab (test/support/browser.ts: reusedTab).
  const tab = reusedTab(() => browser);

  async function open(path: string, width = 1100): Promise<Page> {
    const page = await tab(base + path, { width, height: 900 });
    await page.locator('[data-testid="timeline-chart"] .rate-line').first().waitFor();
    return page;
  }

  async function downloadOf(page: Page, button: string): Promise<Buffer> {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
    return readFileSync((await dl.path())!);
  }

  it.each(['light', 'dark'] as const)(
    'the downloaded SVG (%s) is the chart with its series, title and legend, and the PNG decodes at twice its size',
    async (theme) => {
      const page = await open(`/evidence${theme === 'dark' ? '?chart_theme=dark' : ''}`);
      const svg = (await downloadOf(page, 'Download SVG')).toString('utf8');
      const [, w, h] = /^<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg)!.map(Number);
      expect(w).toBeGreaterThan(300);
      expect(h).toBeGreaterThan(300);
      // One rate line per code with findings (the chart's series), not a 14×14 legend icon; none for the others.
      const found = (await page.locator('[data-testid="report-chart"]').getAttribute('data-codes'))!.split(',');
      expect(found.length).toBeGreaterThan(0);
      for (const code of FINDING_CODES) expect(svg.includes(`rate-line-${code}`), code).toBe(found.includes(code));
      expect((svg.match(/<path[^>]*class="recharts-curve recharts-line-curve"/g) ?? []).length).toBe(found.length);
      expect(svg).toContain('class="export-title"');
      expect(svg).toContain('Lost tool calls per 1,000 opportunities, by day');
      expect((svg.match(/class="export-legend-item"/g) ?? []).length).toBeGreaterThanOrEqual(found.length);
      expect(svg).toContain('missing tool use block');
      expect(svg).not.toContain('var(--');
      expect(svg).toContain(theme === 'dark' ? 'fill="#171b21"' : 'fill="#ffffff"');
      const timeline = (await (await fetch(`${base}/api/timeline`)).json()) as TimelineResponse;
      expect(svg.match(/denominator-bar/g)?.length ?? 0).toBeGreaterThan(0);
      expect(timeline.rows.length).toBeGreaterThan(10);

      const png = await downloadOf(page, 'Download PNG');
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2 * w!, 2 * h!]);
      const decoded = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      }, png.toString('base64'));
      expect(decoded).toEqual([2 * w!, 2 * h!]);
      expect(svg).not.toContain(canary);
    },
  );

  it('offers the report as a GitHub issue with a suggested title, and warns before printing project folders', async () => {
    const page = await open('/evidence');
    const json = await (await fetch(`${base}/api/export?format=json`)).json();
    await expect.poll(() => page.locator('[data-testid="issue-title"]').inputValue()).toBe(json.title);
    expect(await page.locator('[data-testid="issue-size"]').textContent()).toMatch(/^[\d,]+ characters of Markdown/);
    expect(await page.locator('[data-testid="home-path-warning"]').count()).toBe(0);
    await page.getByLabel('files').selectOption('keep');
    await page.locator('[data-testid="home-path-warning"]').waitFor();
    expect(await page.content()).not.toContain(canary);
    // At 390 px the issue box, the warning and the chart controls stay within the screen.
    const narrow = await open('/evidence?files=keep', 390);
    await narrow.locator('[data-testid="issue-title"]').waitFor();
    await narrow.locator('[data-testid="home-path-warning"]').waitFor();
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
  });
});

describe.runIf(requireChromiumOrSkip('report chart in a real browser'))('issue 28: the report chart cannot mislead; the day card says where it starts', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tcf-claimpage-'));
  let served: PageServer;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    served = await startPageServer(tmp, (db) => {
      addRoot(db, writeClaimCorpus(join(tmp, 'corpus')), 'claim');
    });
    ({ browser, base } = served);
  }, 180_000);

  afterAll(async () => {
    await served?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  // Every test loads its page in this one tab (test/support/browser.ts: reusedTab).
  const tab = reusedTab(() => browser);

  it('one series per code with findings, the top tick at most 5x the largest rate drawn, no two version labels overlapping', async () => {
    const page = await tab(`${base}/evidence`, { width: 1100, height: 900 });
    const chart = page.locator('[data-testid="report-chart"]');
    await chart.locator('.rate-line').first().waitFor();
    const timeline = (await (await fetch(`${base}/api/timeline`)).json()) as TimelineResponse;
    const withFindings = FINDING_CODES.filter((code) => timeline.rows.some((r) => (r.codes.find((c) => c.code === code)?.count ?? 0) > 0));
    expect(withFindings).toEqual(
      ['unparseable_tool_input', 'empty_tool_input_with_error_result'].sort((a, b) => FINDING_CODES.indexOf(a as never) - FINDING_CODES.indexOf(b as never)),
    );
    expect(await chart.locator('path.recharts-line-curve').count()).toBe(withFindings.length);
    for (const code of withFindings) expect(await chart.locator(`.rate-line-${code}`).count()).toBe(1);

    const largest = Math.max(
      ...timeline.rows.flatMap((r) => withFindings.map((code) => r.codes.find((c) => c.code === code)?.per_1000_opportunities?.rate ?? 0)),
    );
    expect(largest).toBeGreaterThan(0);
    const ticks = (await chart.locator('.recharts-yAxis-tick-labels text').allTextContents())
      .filter((t) => t.includes('‰'))
      .map((t) => Number.parseFloat(t.replace(/[‰,]/g, '')));
    const top = Math.max(...ticks);
    expect(top).toBeGreaterThanOrEqual(largest);
    expect(top).toBeLessThanOrEqual(5 * largest);
    // Intervals clipped at the top end in a visible mark.
    expect(await chart.locator('.clip-mark').count()).toBeGreaterThan(0);

    // Version labels: the chart's texts that are a version (Recharts 3 draws labels in a layer of their own).
    const boxes = (await chart.locator('svg.recharts-surface text').evaluateAll((els) =>
      els
        .filter((e) => /^\d+\.\d+\.\d+$/.test(e.textContent ?? ''))
        .map((e) => {
          const b = e.getBoundingClientRect();
          return { x: b.x, y: b.y, w: b.width, h: b.height, t: e.textContent };
        }),
    )) as Array<{ x: number; y: number; w: number; h: number; t: string }>;
    expect(boxes.length).toBeGreaterThan(1);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        expect(overlap, `${a.t} and ${b.t}`).toBe(false);
      }
    // The claim's versions keep their labels.
    const labels = boxes.map((b) => b.t);
    expect(labels).toContain('2.1.211');
  });

  it('the page offers the one claim by default and, like `export --all-codes`, the whole-corpus report', async () => {
    const page = await tab(`${base}/evidence`, { width: 1100, height: 900 });
    const title = page.locator('[data-testid="issue-title"]');
    await expect.poll(() => title.inputValue()).toMatch(/^unparseable_tool_input in Claude Code 2\.1\.211–2\.1\.220:/);
    await page.locator('[data-testid="report-scope"]').selectOption('all');
    await expect.poll(() => title.inputValue()).toBe('5 lost tool calls in Claude Code 2.1.91–2.1.225 transcripts');
    expect(page.url()).toContain('scope=all');
    expect(await page.locator('[data-testid="report-text"]').textContent()).toMatch(/^## 5 lost tool calls/);
  });

  it.each([1100, 390])('issue 29: the Models chart shows every model id whole at %s px, and marks the whisker clipped at its top', async (width) => {
    const page = await tab(`${base}/versions?chart=unparseable_tool_input`, { width, height: 900 });
    const chart = page.locator('[data-testid="models-chart"]');
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    const labels = await chart.locator('.recharts-xAxis-tick-labels text').evaluateAll((els) => {
      const svg = els[0]!.closest('svg')!.getBoundingClientRect();
      return els.map((e) => {
        const b = e.getBoundingClientRect();
        return {
          text: e.textContent,
          inside: b.left >= svg.left - 0.5 && b.right <= svg.right + 0.5 && b.top >= svg.top - 0.5 && b.bottom <= svg.bottom + 0.5,
          b,
        };
      });
    });
    expect(labels.map((l) => l.text).sort()).toEqual(['claude-haiku-4-5-20251001', 'claude-opus-4-8', 'claude-sonnet-5']);
    for (const l of labels) expect(l.inside, `${l.text} ${JSON.stringify(l.b)}`).toBe(true);
    // At 390 px the labels stand upright, so the long one is taller than any fixed 110 px cap.
    if (width === 390) expect(labels.find((l) => l.text === LONG_MODEL)!.b.height).toBeGreaterThan(110);
    // claude-sonnet-5: 4 in 90 tool-use turns; its interval runs past the axis, and ends in a mark.
    expect(await chart.getAttribute('data-clipped')).toBe('1');
    expect(await chart.locator('.clip-mark .clip-triangle').count()).toBe(1);
    await page.screenshot({ path: join(artifacts, `models-chart-${width}px.png`), fullPage: true });
  });

  it('the day card names where it starts (the first finding) and labels the highest rate as the peak', async () => {
    const page = await tab(`${base}/timeline`, { width: 1100, height: 900 });
    const card = page.locator('[data-testid="verdict-card"]', { hasText: 'unparseable' }).first();
    await card.waitFor();
    const start = await card.locator('[data-testid="card-start"]').textContent();
    // First finding 2026-06-02 (2.1.211); the highest rate is on 2026-06-10 (2.1.215's two calls).
    expect(start).toMatch(/^First finding Jun 2 · peak Jun 10$/);
    expect(await card.textContent()).toContain('before the peak');
  });
});
