/**
 * `npm run bench:agents [-- --size-mb N --rounds 3 --claude DIR…]` (issue 34 point 6): reading a Codex and an
 * OpenCode corpus against a bare parse of the same files, beside Claude Code's ratio. The Codex and OpenCode
 * corpora are made here: every file of those agents in fixtures/agents and ../shared/corpus/agents (the agent told
 * by the scanner, by content, as the index tells it) copied round-robin under unique names (`c<NNNNN>-<name>`, 200
 * to a folder) until `--size-mb` is reached: by default the size of Claude Code's corpus, since an index run has a
 * fixed cost (process, workers, database) that a bare parse has not, so index/baseline ratios of corpora of
 * different sizes differ by that cost alone (at 30 MB against Claude Code's 65 MB, Codex read 1.21x Claude Code's
 * ratio with the same per-byte cost). Claude Code's corpus is ../shared/corpus/real + public (the corpus of
 * `bench:real`), or the folders given with `--claude`, or, without ../shared, a generated demo corpus.
 *
 * Each round measures every corpus in turn (which goes first rotates by round): the bare baseline
 * (test/bench/baseline-parse.mjs) and a full index into a fresh database, each a fresh process, their order
 * alternating by round. OpenCode writes a session as one JSON document (pretty-printed, many lines), so its baseline
 * parses each file whole with one JSON.parse (`--document`); Codex and Claude Code write a JSON row per line and their
 * baseline parses line by line. The same target holds for each: index CPU within Claude Code's ratio to its
 * baseline. That ratio of ratios is taken round by round, from runs minutes apart at most: measured corpus after
 * corpus (as `bench:real` three times, until 2026-12-05), a machine whose speed drifted between them moved it by
 * 10-30% (OpenCode's baseline, which takes fresh pages from the kernel for every file, drifting most).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { scanFile } from '../../server/scan/scan-file';
import { table } from './api-load';
import { measureProcess, median, type ProcessRun } from './process-usage';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '3' },
    claude: { type: 'string', multiple: true },
  },
});
const rounds = Math.max(1, Number(values.rounds));
const shared = resolve(root, '../shared');
const sharedCorpus = existsSync(join(shared, 'corpus')) ? realpathSync(join(shared, 'corpus')) : null;

function* jsonlFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* jsonlFiles(p);
    else if (e.isFile() && e.name.endsWith('.jsonl')) yield p;
  }
}

/** The files the scanner reads as `agent` (read whole and cleanly: a refused file would measure nothing). */
function sources(agent: 'codex' | 'opencode'): string[] {
  const dirs = [join(root, 'fixtures/agents'), ...(sharedCorpus ? [join(sharedCorpus, 'agents')] : [])];
  return dirs
    .flatMap((d) => [...jsonlFiles(d)])
    .filter((p) => {
      const scan = scanFile(p);
      return scan.status === 'ok' && scan.agent === agent;
    });
}

/** The bytes of the *.jsonl files under `dir` (what the baseline reads). */
function bytesUnder(dir: string): number {
  let n = 0;
  for (const p of jsonlFiles(dir)) n += statSync(p).size;
  return n;
}

/** Copies `files` round-robin under unique names into `out` until it holds `bytes`. */
function replicate(files: string[], out: string, bytes: number): { bytes: number; files: number } {
  if (files.length === 0) throw new Error(`no source files for ${out}`);
  let total = 0;
  let n = 0;
  while (total < bytes) {
    const src = files[n % files.length]!;
    const dir = join(out, `d${Math.floor(n / 200)}`);
    if (n % 200 === 0) mkdirSync(dir, { recursive: true });
    copyFileSync(src, join(dir, `c${String(n).padStart(5, '0')}-${basename(src)}`));
    total += statSync(src).size;
    n++;
  }
  return { bytes: total, files: n };
}

const tmp = mkdtempSync(join(tmpdir(), 'tcf-bench-agents-'));
const cli = join(root, 'server/cli/launch.mjs');

interface Corpus {
  agent: 'claude-code' | 'codex' | 'opencode';
  dirs: string[];
  files: number | null;
  /** The baseline parses each file whole (one JSON document), not line by line. */
  document: boolean;
}
interface Runs {
  baseline: ProcessRun[];
  index: ProcessRun[];
}

/** A full index of `corpus` into a fresh database; exit 2 (files reported damaged or unreadable) is expected of real folders. */
function indexRun(corpus: Corpus): ProcessRun {
  const db = join(tmp, `${corpus.agent}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const run = measureProcess([cli, 'index', ...corpus.dirs, '--db', db], root);
  if (run.status !== 0 && run.status !== 2) throw new Error(`index of ${corpus.agent} exited ${run.status}`);
  return run;
}
const baselineRun = (corpus: Corpus) => measureProcess([join(here, 'baseline-parse.mjs'), ...corpus.dirs, ...(corpus.document ? ['--document'] : [])], root);

try {
  let claude = values.claude?.map((d) => realpathSync(d));
  if (!claude?.length) {
    if (sharedCorpus) claude = [join(sharedCorpus, 'real'), join(sharedCorpus, 'public')];
    else {
      generateDemoCorpus({ out: join(tmp, 'claude'), seed: 7, sessions: 40 });
      claude = [realpathSync(join(tmp, 'claude/projects'))];
    }
  }
  // The same size as Claude Code's corpus unless told (see above).
  const sizeBytes = values['size-mb'] !== undefined ? Number(values['size-mb']) * 1e6 : claude.reduce((n, d) => n + bytesUnder(d), 0);
  const codex = replicate(sources('codex'), join(tmp, 'codex'), sizeBytes);
  const opencode = replicate(sources('opencode'), join(tmp, 'opencode'), sizeBytes);
  const corpora: Corpus[] = [
    { agent: 'claude-code', dirs: claude, files: null, document: false },
    { agent: 'codex', dirs: [realpathSync(join(tmp, 'codex'))], files: codex.files, document: false },
    { agent: 'opencode', dirs: [realpathSync(join(tmp, 'opencode'))], files: opencode.files, document: true },
  ];
  const loadStart = loadavg()[0]!;
  console.log(`load average ${loadStart.toFixed(2)}; ${rounds} rounds; Codex ${codex.files} files, OpenCode ${opencode.files} files`);
  // One unmeasured index of each: the launcher bundles the sources if they changed, and the disk cache warms.
  for (const corpus of corpora) indexRun(corpus);
  const runs = new Map<string, Runs>(corpora.map((c) => [c.agent, { baseline: [], index: [] }]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < corpora.length; k++) {
      const corpus = corpora[(r + k) % corpora.length]!;
      const mine = runs.get(corpus.agent)!;
      if (r % 2 === 0) {
        mine.baseline.push(baselineRun(corpus));
        mine.index.push(indexRun(corpus));
      } else {
        mine.index.push(indexRun(corpus));
        mine.baseline.push(baselineRun(corpus));
      }
    }
  }
  const loadEnd = loadavg()[0]!;
  const paired = (agent: string, key: 'cpu_s' | 'wall_s') => {
    const { index, baseline } = runs.get(agent)!;
    return index.map((x, i) => x[key] / baseline[i]![key]);
  };
  const reference = paired('claude-code', 'cpu_s');
  // Each round's ratio over Claude Code's in the same round.
  const vsClaude = (agent: string) => paired(agent, 'cpu_s').map((x, i) => x / reference[i]!);
  const results = corpora.map((c) => {
    const { index, baseline } = runs.get(c.agent)!;
    return {
      agent: c.agent,
      corpus_bytes: c.dirs.reduce((n, d) => n + bytesUnder(d), 0),
      files: c.files,
      baseline_cpu_s: +median(baseline.map((x) => x.cpu_s)).toFixed(3),
      index_cpu_s: +median(index.map((x) => x.cpu_s)).toFixed(3),
      cpu_ratio: +median(paired(c.agent, 'cpu_s')).toFixed(3),
      paired_cpu: paired(c.agent, 'cpu_s').map((x) => +x.toFixed(3)),
      wall_ratio: +median(paired(c.agent, 'wall_s')).toFixed(3),
      vs_claude_code: +median(vsClaude(c.agent)).toFixed(3),
      paired_vs_claude_code: vsClaude(c.agent).map((x) => +x.toFixed(3)),
    };
  });
  console.log(
    table(
      ['agent', 'corpus MB', 'baseline CPU s', 'index CPU s', 'index / baseline CPU', 'wall', 'vs Claude Code, paired by round', 'rounds'],
      results.map((r) => [
        r.agent,
        (r.corpus_bytes / 1e6).toFixed(1),
        r.baseline_cpu_s.toFixed(3),
        r.index_cpu_s.toFixed(3),
        `${r.cpu_ratio.toFixed(2)}×`,
        `${r.wall_ratio.toFixed(2)}×`,
        r.agent === 'claude-code' ? '' : `${r.vs_claude_code.toFixed(2)}× (target ≤ 1.0)`,
        r.agent === 'claude-code' ? '' : `${Math.min(...r.paired_vs_claude_code).toFixed(2)}–${Math.max(...r.paired_vs_claude_code).toFixed(2)}`,
      ]),
    ),
  );
  console.log(`load average ${loadStart.toFixed(2)} at start, ${loadEnd.toFixed(2)} at end`);
  console.log(
    JSON.stringify({
      rounds,
      load_average: [+loadStart.toFixed(2), +loadEnd.toFixed(2)],
      agents: Object.fromEntries(results.map(({ agent, ...r }) => [agent, r])),
    }),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
