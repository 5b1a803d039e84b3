/**
 * `npm run bench:scale [-- --size-mb 3000]`: does indexing stay linear, small and fast to query at
 * ten times the benchmark corpus? Generates (or reuses, keyed by size and seed, under bench-out/)
 * two corpora with ../shared/bench/gen-corpus.mjs: the 300 MB benchmark one and one of --size-mb,
 * both with the same largest transcript (--big-file-mb, 120 as in `npm run bench`: a bigger team
 * machine has more sessions, not one bigger session). Indexes each into a fresh database with the
 * CLI, ROUNDS times interleaved (whole process timed; peak RSS of the process tree, polled from
 * /proc and taken with the process's own maximum), then serves the big index and loads the main
 * endpoints at 50 connections (test/bench/api-load.ts). Prints a table and writes
 * bench-out/bench-scale-<size>.json.
 *
 * Targets (issue 19): time within 10% of (size / 300 MB) × the 300 MB time, peak RSS < 300 MB,
 * database < 2% of the corpus, API p99 < 50 ms. Run it on a quiet machine (`uptime` load < 3): the
 * ratio compares two timings, and a loaded 2-core machine skews them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type EndpointLoad, endpointTable, loadEndpoints, PAGE_ENDPOINTS, table } from './api-load';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const generator = resolve(root, '../shared/bench/gen-corpus.mjs');
const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '3000' },
    'base-mb': { type: 'string', default: '300' },
    'big-file-mb': { type: 'string', default: '120' },
    seed: { type: 'string', default: '1' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '3' },
    'api-seconds': { type: 'string', default: '8' },
    'skip-api': { type: 'boolean', default: false },
  },
});

if (!existsSync(generator)) {
  console.error('bench:scale needs ../shared/bench/gen-corpus.mjs beside the checkout; it is not there.');
  process.exit(1);
}
const outDir = join(root, 'bench-out');
mkdirSync(outDir, { recursive: true });
const cli = join(root, 'server/cli/launch.mjs');

/** The corpus of one size, generated once: the same folder and stamp as `npm run bench` for seed 1. */
function corpus(sizeMb: string): string {
  const seeded = values.seed === '1' ? [] : ['--seed', values.seed!];
  const args = ['--size-mb', sizeMb, '--big-file-mb', values['big-file-mb']!, ...seeded];
  const dir = join(outDir, `corpus-${sizeMb}-${values['big-file-mb']}${seeded.length ? `-s${values.seed}` : ''}`);
  const stamp = join(dir, 'params.json');
  const want = JSON.stringify(args);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== want) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    console.log(`generating ${sizeMb} MB corpus…`);
    const r = spawnSync(process.execPath, [generator, '--out', dir, '--quiet', ...args], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('corpus generation failed');
    writeFileSync(stamp, want);
  }
  return join(dir, 'projects');
}

const dirBytes = (dir: string) => Number(spawnSync('du', ['-sb', dir], { encoding: 'utf8' }).stdout.split('\t')[0]);

/** Resident set (bytes) of a process and all its descendants, from /proc; 0 once it is gone. */
function treeRss(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // gone meanwhile
    }
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

interface Run {
  seconds: number;
  /** Peak RSS in MB: the larger of the polled process tree and the process's own maximum (worker threads included). */
  rss_mb: number;
  status: number | null;
}

async function measure(args: string[]): Promise<Run> {
  const rssFile = join(outDir, 'rss-scale.txt');
  rmSync(rssFile, { force: true });
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', join(here, 'report-rss.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(child.pid!));
  }, 25);
  const status = await new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  const own = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : 0;
  return { seconds, rss_mb: Math.max(own, peak / 2 ** 20), status };
}

const dbFiles = (db: string) => ['', '-wal', '-shm'].map((s) => db + s);
const dbBytes = (db: string) => dbFiles(db).reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);

const baseMb = values['base-mb']!;
const sizeMb = values['size-mb']!;
const rounds = Number(values.rounds);
const load = loadavg()[0]!;
console.log(`load average ${load.toFixed(2)}${load >= 3 ? ' — the machine is busy: ratios will be skewed' : ''}`);
const corpora = { base: corpus(baseMb), big: corpus(sizeMb) };
const bytes = { base: dirBytes(corpora.base), big: dirBytes(corpora.big) };
console.log(`corpora: ${(bytes.base / 1e6).toFixed(0)} MB and ${(bytes.big / 1e6).toFixed(0)} MB`);
const dbs = { base: join(outDir, `scale-${baseMb}.db`), big: join(outDir, `scale-${sizeMb}.db`) };
const runs: Record<'base' | 'big', Run[]> = { base: [], big: [] };
for (let r = 0; r < rounds; r++) {
  for (const which of ['base', 'big'] as const) {
    for (const f of dbFiles(dbs[which])) rmSync(f, { force: true });
    const run = await measure([cli, 'index', corpora[which], '--db', dbs[which]]);
    // Exit 2 is expected: the generator damages ~1.5% of files on purpose, and the index reports them.
    if (run.status !== 0 && run.status !== 2) throw new Error(`index of the ${which} corpus exited ${run.status}`);
    runs[which].push(run);
    console.log(`round ${r + 1}: ${which} ${run.seconds.toFixed(2)} s, ${run.rss_mb.toFixed(0)} MB`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = { base: median(runs.base.map((r) => r.seconds)), big: median(runs.big.map((r) => r.seconds)) };
const rss = { base: Math.max(...runs.base.map((r) => r.rss_mb)), big: Math.max(...runs.big.map((r) => r.rss_mb)) };
const factor = bytes.big / bytes.base;
const ratio = time.big / (time.base * factor);
const perRound = runs.big.map((r, i) => r.seconds / (runs.base[i]!.seconds * factor));
const db = { base: dbBytes(dbs.base), big: dbBytes(dbs.big) };

let api: EndpointLoad[] = [];
if (!values['skip-api']) {
  api = await loadEndpoints(dbs.big, PAGE_ENDPOINTS, { seconds: Number(values['api-seconds']), serveArgs: ['--no-watch', '--no-build'] });
}

const mb = (n: number) => (n / 1e6).toFixed(0);
const rows = [
  [`index ${mb(bytes.base)} MB (median of ${rounds})`, time.base.toFixed(2), rss.base.toFixed(0), `${((db.base / bytes.base) * 100).toFixed(2)}%`, ''],
  [
    `index ${mb(bytes.big)} MB (median of ${rounds})`,
    time.big.toFixed(2),
    rss.big.toFixed(0),
    `${((db.big / bytes.big) * 100).toFixed(2)}%`,
    `${ratio.toFixed(3)}× of ${factor.toFixed(2)}× the ${mb(bytes.base)} MB time (rounds ${perRound.map((x) => x.toFixed(2)).join(', ')}; target ≤ 1.10)`,
  ],
];
console.log(table(['what', 'seconds', 'peak RSS MB', 'database / corpus', 'linearity'], rows));
console.log(
  `targets: time ${ratio <= 1.1 ? 'met' : 'MISSED'}, RSS < 300 MB ${rss.big < 300 ? 'met' : 'MISSED'}, database < 2% ${db.big / bytes.big < 0.02 ? 'met' : 'MISSED'}`,
);
if (api.length > 0) {
  console.log(endpointTable(api));
}
const report = {
  measured_at: new Date().toISOString(),
  load_average_at_start: +load.toFixed(2),
  rounds,
  big_file_mb: Number(values['big-file-mb']),
  seed: Number(values.seed),
  base: { corpus_bytes: bytes.base, seconds: runs.base.map((r) => +r.seconds.toFixed(3)), peak_rss_mb: +rss.base.toFixed(1), db_bytes: db.base },
  big: { corpus_bytes: bytes.big, seconds: runs.big.map((r) => +r.seconds.toFixed(3)), peak_rss_mb: +rss.big.toFixed(1), db_bytes: db.big },
  time_ratio: +ratio.toFixed(4),
  db_pct_of_corpus: +((db.big / bytes.big) * 100).toFixed(3),
  api,
};
const out = join(outDir, `bench-scale-${sizeMb}.json`);
writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
console.log(`written: ${out}`);
