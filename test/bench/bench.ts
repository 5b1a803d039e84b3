/**
 * `npm run bench`: speed and memory of the scanner (and, as they land, the indexer) on a
 * corpus from ../shared/bench/gen-corpus.mjs, each against the bare single-threaded
 * read + JSON.parse baseline, in one run. Figures are printed as a table; copy the latest
 * into the README. Options: --size-mb N (300), --big-file-mb N (120), --huge (also scan a
 * single transcript of over 512 MB).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const generator = resolve(root, '../shared/bench/gen-corpus.mjs');
const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '300' },
    'big-file-mb': { type: 'string', default: '120' },
    huge: { type: 'boolean', default: false },
  },
});

if (!existsSync(generator)) {
  console.error('bench needs ../shared/bench/gen-corpus.mjs beside the checkout; it is not there.');
  process.exit(1);
}

const outDir = join(root, 'bench-out');
mkdirSync(outDir, { recursive: true });

function corpus(name: string, args: string[]): string {
  const dir = join(outDir, name);
  const stamp = join(dir, 'params.json');
  const want = JSON.stringify(args);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== want) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const r = spawnSync(process.execPath, [generator, '--out', dir, '--quiet', ...args], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('corpus generation failed');
    writeFileSync(stamp, want);
  }
  return join(dir, 'projects');
}

interface Run {
  seconds: number;
  rssMb: number;
  status: number | null;
}

function measure(args: string[]): Run {
  const rssFile = join(outDir, 'rss.txt');
  rmSync(rssFile, { force: true });
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', join(here, 'report-rss.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'inherit'],
    maxBuffer: 1 << 30,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, rssMb: existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : NaN, status: r.status };
}

function dirBytes(dir: string): number {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(r.stdout.split('\t')[0]);
}

const rows: string[][] = [];
const add = (what: string, run: Run, extra = '') =>
  rows.push([what, run.seconds.toFixed(2), Number.isNaN(run.rssMb) ? '?' : run.rssMb.toFixed(0), String(run.status), extra]);

const main = corpus(`corpus-${values['size-mb']}-${values['big-file-mb']}`, ['--size-mb', values['size-mb']!, '--big-file-mb', values['big-file-mb']!]);
const mb = dirBytes(main) / 1e6;
console.log(`corpus: ${mb.toFixed(0)} MB at ${main}`);
// The machine's speed drifts (a shared VM): each measurement runs ROUNDS times, interleaved,
// and the median is reported, with the range.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const cli = [join(root, 'server/cli/launch.mjs')]; // what `npm run cli` runs
const dbPath = join(outDir, 'bench-index.db');
const runs: Record<'baseline' | 'scan' | 'index' | 'again', Run[]> = { baseline: [], scan: [], index: [], again: [] };
for (let r = 0; r < ROUNDS; r++) {
  runs.baseline.push(measure([join(here, 'baseline-parse.mjs'), main]));
  runs.scan.push(measure([...cli, 'scan', '--json', main]));
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  runs.index.push(measure([...cli, 'index', main, '--db', dbPath]));
  runs.again.push(measure([...cli, 'index', main, '--db', dbPath]));
}
const median = (xs: Run[]): Run => {
  const sorted = [...xs].sort((a, b) => a.seconds - b.seconds);
  const mid = sorted[Math.floor(sorted.length / 2)]!;
  return { ...mid, rssMb: Math.max(...xs.map((x) => x.rssMb)) };
};
const range = (xs: Run[]) => `${Math.min(...xs.map((x) => x.seconds)).toFixed(2)}–${Math.max(...xs.map((x) => x.seconds)).toFixed(2)} s`;
const baseline = median(runs.baseline);
const scan = median(runs.scan);
const full = median(runs.index);
const again = median(runs.again);
const ratios = (xs: Run[]) => xs.map((x, i) => (x.seconds / runs.baseline[i]!.seconds).toFixed(2)).join(', ');
add(`baseline: read + JSON.parse, 1 thread (median of ${ROUNDS})`, baseline, range(runs.baseline));
add('scan --json', scan, `${(scan.seconds / baseline.seconds).toFixed(2)}x baseline; per round ${ratios(runs.scan)} (target <= 1.5x, RSS < 300 MB)`);
add('index (fresh database)', full, `${(full.seconds / baseline.seconds).toFixed(2)}x baseline; per round ${ratios(runs.index)} (target <= 1.0x)`);
add('re-index, nothing changed', again, `${((again.seconds / full.seconds) * 100).toFixed(1)}% of full (target < 2% or < 1 s)`);
const dbBytes = ['', '-wal'].reduce((n, s) => n + (existsSync(dbPath + s) ? statSync(dbPath + s).size : 0), 0);
rows.push(['database size', '', '', '', `${(dbBytes / 1e6).toFixed(2)} MB = ${((dbBytes / (mb * 1e6)) * 100).toFixed(2)}% of the corpus (target < 2%)`]);
if (!process.env.BENCH_SKIP_PEER) {
  const peer = measure([
    '-e',
    `require('child_process').execFileSync('npx', ['--yes', 'ccusage@18.0.11', 'daily', '--json', '--offline'], { env: { ...process.env, CLAUDE_CONFIG_DIR: ${JSON.stringify(dirname(main))} }, stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 })`,
  ]);
  add('peer: npx ccusage@18.0.11 daily --json --offline', peer, 'reference only (tokens, not findings); RSS is npx, not its child');
}

if (values.huge) {
  const huge = corpus('corpus-huge', ['--size-mb', '530', '--big-file-mb', '530', '--days', '10']);
  const hugeFile = spawnSync('find', [huge, '-name', '*.jsonl', '-size', '+500M'], { encoding: 'utf8' }).stdout.trim().split('\n')[0]!;
  console.log(`huge transcript: ${(statSync(hugeFile).size / 1e6).toFixed(0)} MB`);
  add('scan --json, one transcript > 512 MB', measure([...cli, 'scan', '--json', hugeFile]));
}

const header = ['what', 'seconds', 'peak RSS MB', 'exit', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const fmt = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
console.log([fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n'));
