/**
 * `npm run bench:real -- DIR [DIR…] [--rounds N] [--installed]`: the index against the bare
 * baseline (test/bench/baseline-parse.mjs: a single-thread read + JSON.parse of the same files),
 * on any folders of transcripts — point it at your own ~/.claude/projects. Each round runs, back
 * to back, the baseline, a full index into a fresh database and a re-index with nothing changed,
 * each a fresh process (the order of the first two alternates by round). For each it takes the
 * wall time, the CPU time (user + system, worker threads included) and the peak resident set;
 * it prints their medians, the per-round paired ratios index / baseline (CPU and wall) and the
 * database's size, with the load average beside them (a busy shared machine skews ratios).
 *
 * The CLI measured is what `npm run cli` runs (server/cli/launch.mjs), or with --installed the
 * prebuilt bundle an installed package runs (dist/cli, built here into node_modules/.cache).
 * Targets (issue 32): index CPU ≤ 1.0× and wall ≤ 0.7× the baseline; a no-op re-index's CPU (the
 * run's fixed cost) < 0.5 s.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCliBundle } from '../../server/build/build-tools.mjs';
import { table } from './api-load';
import { measureProcess, median, type ProcessRun } from './process-usage';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '5' },
    installed: { type: 'boolean', default: false },
    // The baseline parses each file as one JSON document (OpenCode's export), not a row per line: bench:agents.
    'baseline-document': { type: 'boolean', default: false },
  },
});
if (positionals.length === 0) {
  console.error('usage: npm run bench:real -- DIR [DIR…] [--rounds N] [--installed]');
  process.exit(1);
}
// The real paths: the index never follows a symbolic link, not even one on the way to a named folder.
const dirs = positionals.map((d) => (existsSync(d) ? realpathSync(d) : resolve(d)));
for (const d of dirs) {
  if (!existsSync(d) || !statSync(d).isDirectory()) {
    console.error(`not a folder: ${d}`);
    process.exit(1);
  }
}
const rounds = Math.max(1, Number(values.rounds));

let cli = join(root, 'server/cli/launch.mjs');
if (values.installed) {
  // Inside the checkout, so that the bundle finds its packages in node_modules, as installed.
  const out = join(root, 'node_modules/.cache/tool-call-forensics/bench-installed');
  rmSync(out, { recursive: true, force: true });
  await buildCliBundle(root, out);
  cli = join(out, 'main.mjs');
}

type Run = ProcessRun;

const tmp = mkdtempSync(join(tmpdir(), 'tcf-bench-real-'));
const measure = (args: string[]) => measureProcess(args, root);

const dbPath = join(tmp, 'index.db');
const dbFiles = ['', '-wal', '-shm'].map((s) => dbPath + s);
const dbBytes = () => dbFiles.reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
const corpusBytes = dirs.reduce((n, d) => n + Number(spawnSync('du', ['-sbl', d], { encoding: 'utf8' }).stdout.split('\t')[0]), 0);

const loadStart = loadavg()[0]!;
console.log(`corpus: ${(corpusBytes / 1e6).toFixed(1)} MB in ${dirs.join(', ')}`);
console.log(`cli: ${values.installed ? 'installed bundle (dist/cli)' : 'server/cli/launch.mjs'}; ${rounds} rounds; load average ${loadStart.toFixed(2)}`);
// One unmeasured run: the launcher bundles the sources if they changed, and the disk cache warms.
measure([cli, 'index', ...dirs, '--db', dbPath]);

const runs: Record<'baseline' | 'index' | 'again', Run[]> = { baseline: [], index: [], again: [] };
let size = 0;
try {
  for (let r = 0; r < rounds; r++) {
    const baseline = () => runs.baseline.push(measure([join(here, 'baseline-parse.mjs'), ...dirs, ...(values['baseline-document'] ? ['--document'] : [])]));
    const index = () => {
      for (const f of dbFiles) rmSync(f, { force: true });
      const run = measure([cli, 'index', ...dirs, '--db', dbPath]);
      // Exit 2 is an index that reported damaged or unreadable files: expected of real folders.
      if (run.status !== 0 && run.status !== 2) throw new Error(`index exited ${run.status}`);
      size = dbBytes();
      if (size === 0) throw new Error('the index wrote no database');
      runs.index.push(run);
    };
    if (r % 2 === 0) {
      baseline();
      index();
    } else {
      index();
      baseline();
    }
    runs.again.push(measure([cli, 'index', ...dirs, '--db', dbPath]));
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const loadEnd = loadavg()[0]!;

const med = (which: keyof typeof runs, key: 'wall_s' | 'cpu_s') => median(runs[which].map((x) => x[key]));
const paired = (key: 'wall_s' | 'cpu_s') => runs.index.map((x, i) => x[key] / runs.baseline[i]![key]);
const peak = (which: keyof typeof runs) => Math.max(...runs[which].map((x) => x.rss_mb));
const ratio = { cpu: median(paired('cpu_s')), wall: median(paired('wall_s')) };
const row = (what: string, which: keyof typeof runs, note: string) => [
  what,
  med(which, 'wall_s').toFixed(3),
  med(which, 'cpu_s').toFixed(3),
  peak(which).toFixed(0),
  note,
];
console.log(
  table(
    ['what (median)', 'wall s', 'CPU s', 'peak RSS MB', 'note'],
    [
      row('baseline: read + JSON.parse, 1 thread', 'baseline', ''),
      row(
        'index, fresh database',
        'index',
        `CPU ${ratio.cpu.toFixed(2)}× (target ≤ 1.0×), wall ${ratio.wall.toFixed(2)}× (target ≤ 0.7×) the baseline, paired`,
      ),
      row('re-index, nothing changed', 'again', `the run's fixed cost (CPU target < 0.5 s)`),
      ['database', '', '', '', `${(size / 1e6).toFixed(2)} MB = ${((size / corpusBytes) * 100).toFixed(2)}% of the corpus`],
    ],
  ),
);
console.log(
  `load average ${loadStart.toFixed(2)} at start, ${loadEnd.toFixed(2)} at end${Math.max(loadStart, loadEnd) >= 3 ? ' — a busy machine: ratios skewed' : ''}`,
);
console.log(
  JSON.stringify({
    corpus_bytes: corpusBytes,
    rounds,
    installed: values.installed,
    load_average: [+loadStart.toFixed(2), +loadEnd.toFixed(2)],
    baseline: { wall_s: med('baseline', 'wall_s'), cpu_s: med('baseline', 'cpu_s'), peak_rss_mb: peak('baseline') },
    index: { wall_s: med('index', 'wall_s'), cpu_s: med('index', 'cpu_s'), peak_rss_mb: peak('index') },
    noop_reindex: { wall_s: med('again', 'wall_s'), cpu_s: med('again', 'cpu_s'), peak_rss_mb: peak('again') },
    index_vs_baseline: { cpu: +ratio.cpu.toFixed(3), wall: +ratio.wall.toFixed(3) },
    /** Each round's index / baseline CPU (the median above is theirs). */
    paired_cpu: paired('cpu_s').map((x) => +x.toFixed(3)),
    db_bytes: size,
  }),
);
