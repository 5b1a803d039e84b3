/**
 * `npm run bench:web`: the built page's JavaScript size (gzip) for the first page, and in
 * headless Chromium the time to first chart on the 300 MB benchmark corpus's index
 * (built by `npm run bench`). Targets: < 350 KB gzip of JS for the first page; first verdict card
 * and first chart < 1 s.
 * Options: --db FILE (any index, e.g. your own; `--db real-scale` builds the year-long fixture's),
 * --tabs N (6: new tabs, then as many reloads; the first of each warms caches and is not counted).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { generateRealScaleCorpus } from '../../fixtures/real-scale-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { startServer } from '../../server/app/serve';
import { ensureWebBuild, WEB_DIST } from '../../server/build/web-build';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { launchChromium } from '../support/browser';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({ options: { db: { type: 'string' }, tabs: { type: 'string', default: '6' } } });
const tabs = Math.max(2, Number(values.tabs));
await ensureWebBuild(console.log);

// JS the first page needs: the entry script and every module it preloads.
const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
const firstPageJs = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
const gzipKb = firstPageJs.reduce((n, f) => n + gzipSync(readFileSync(join(WEB_DIST, f))).length, 0) / 1024;
console.log(`first page JavaScript: ${firstPageJs.join(', ')} = ${gzipKb.toFixed(1)} KB gzip (target < 350 KB)`);

// The 300 MB corpus's index (from `npm run bench`, needs ../shared); --db (or TCF_BENCH_DB) names another;
// `real-scale` builds the year-long 120-version fixture's index (no ../shared needed).
const given = values.db ?? process.env.TCF_BENCH_DB;
let dbPath = given === 'real-scale' || given === undefined ? (given ?? join(root, 'bench-out/bench-index.db')) : resolve(given);
if (dbPath === 'real-scale') {
  const out = join(root, '.tmp/bench-real-scale');
  generateRealScaleCorpus({ out });
  dbPath = join(out, 'index.db');
  rmSync(dbPath, { force: true });
  const db = openDatabase(dbPath);
  addRoot(db, join(out, 'projects'), 'real-scale');
  await indexDatabase(db, { analyser: 'inline' });
  db.close();
}
console.log(`index: ${dbPath}`);
if (!existsSync(dbPath)) {
  console.error('no benchmark index: run `npm run bench` first (it needs ../shared), or pass --db FILE (or --db real-scale)');
  process.exit(1);
}
const server = await startServer({ port: 0, db: dbPath, webRoot: WEB_DIST, log: () => {} });
const browser = await launchChromium();
const freshTab: number[] = [];
const freshCard: number[] = [];
const reload: number[] = [];
// The same, on the page's own clock: from the navigation's start to the element in the document.
const pageCard: number[] = [];
const pageChart: number[] = [];
// The first verdict card, or the one line saying why there is none.
const verdict = '[data-testid="verdict-card"], [data-testid="verdict-none"]';
const chart = '[data-testid="timeline-chart"] .rate-line path';
/**
 * Marks `card` and `chart` (performance.mark) when each first appears: a mutation observer from the document's
 * start. Playwright's wall adds its own round trips before the navigation starts (60–140 ms here) and after the
 * element appears (its polling, 50–170 ms), which no user waits for. Text, not a function: the TypeScript loader
 * wraps functions in a helper the page does not have.
 */
const markFirsts = `(() => {
  const pending = new Map(${JSON.stringify(Object.entries({ card: verdict, chart }))});
  const observer = new MutationObserver(() => {
    for (const [name, selector] of pending)
      if (document.querySelector(selector)) {
        performance.mark(name);
        pending.delete(name);
      }
    if (pending.size === 0) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;
try {
  // A new tab each time (includes starting its renderer), then reloads of one tab (a user pressing F5).
  for (let i = 0; i < tabs; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(markFirsts);
    const started = Date.now();
    await page.goto(server.url, { waitUntil: 'commit' });
    const card = page
      .locator(verdict)
      .first()
      .waitFor({ timeout: 30_000 })
      .then(() => Date.now() - started);
    await page.locator(chart).first().waitFor({ timeout: 30_000 });
    const chartMs = Date.now() - started;
    const cardMs = await card;
    const marks = await page.evaluate(() => ['card', 'chart'].map((n) => performance.getEntriesByName(n)[0]?.startTime ?? Number.NaN));
    if (i > 0) {
      freshTab.push(chartMs); // the first load warms the server's caches and the disk
      freshCard.push(cardMs);
      pageCard.push(Math.round(marks[0]!));
      pageChart.push(Math.round(marks[1]!));
    }
    await page.close();
  }
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (let i = 0; i < tabs; i++) {
    const started = Date.now();
    await page.goto(server.url, { waitUntil: 'commit' });
    await page.locator(chart).first().waitFor({ timeout: 30_000 });
    if (i > 0) reload.push(Date.now() - started);
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`load average ${loadavg()[0]!.toFixed(2)}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `time to first verdict card, new tab, the page's clock (navigation start to the card in the document): median ${median(pageCard)} ms, worst ${Math.max(...pageCard)} ms (target < 1000 ms)`,
);
console.log(`time to first chart, new tab, the page's clock: median ${median(pageChart)} ms, worst ${Math.max(...pageChart)} ms`);
console.log(`time to first verdict card, new tab, Playwright's wall: median ${median(freshCard)} ms, worst ${Math.max(...freshCard)} ms`);
console.log(`time to first chart, new tab, Playwright's wall: median ${median(freshTab)} ms, worst ${Math.max(...freshTab)} ms`);
console.log(`time to first chart, reload:  median ${median(reload)} ms, worst ${Math.max(...reload)} ms`);
