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
 * Each corpus goes through `bench:real` (test/bench/bench-real.ts: per round, the bare baseline, a full index into a
 * fresh database and a no-op re-index, each a fresh process; medians and per-round paired ratios). OpenCode writes a
 * session as one JSON document (pretty-printed, many lines), so its baseline parses each file whole with one
 * JSON.parse (`--baseline-document`); Codex and Claude Code write a JSON row per line and their baseline parses
 * line by line. The same target holds for each: index CPU within Claude Code's ratio to its baseline.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { scanFile } from '../../server/scan/scan-file';
import { table } from './api-load';

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
interface Result {
  corpus_bytes: number;
  load_average: [number, number];
  baseline: { cpu_s: number; wall_s: number };
  index: { cpu_s: number; wall_s: number; peak_rss_mb: number };
  index_vs_baseline: { cpu: number; wall: number };
  paired_cpu: number[];
}
function benchReal(dirs: string[], document: boolean): Result {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(here, 'bench-real.ts'), ...dirs, '--rounds', String(rounds), ...(document ? ['--baseline-document'] : [])],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`bench:real exited ${r.status}`);
  const json = r.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .at(-1);
  if (!json) throw new Error('bench:real printed no figures');
  return JSON.parse(json) as Result;
}

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
  console.log(`load average ${loadavg()[0]!.toFixed(2)}; ${rounds} rounds each; Codex ${codex.files} files, OpenCode ${opencode.files} files`);
  const results: [string, number | null, Result][] = [
    ['claude-code', null, benchReal(claude, false)],
    ['codex', codex.files, benchReal([realpathSync(join(tmp, 'codex'))], false)],
    ['opencode', opencode.files, benchReal([realpathSync(join(tmp, 'opencode'))], true)],
  ];
  const reference = results[0]![2].index_vs_baseline.cpu;
  console.log(
    table(
      ['agent', 'corpus MB', 'baseline CPU s', 'index CPU s', 'index / baseline CPU', 'wall', 'vs Claude Code', 'load'],
      results.map(([agent, , r]) => [
        agent,
        (r.corpus_bytes / 1e6).toFixed(1),
        r.baseline.cpu_s.toFixed(3),
        r.index.cpu_s.toFixed(3),
        `${r.index_vs_baseline.cpu.toFixed(2)}×`,
        `${r.index_vs_baseline.wall.toFixed(2)}×`,
        agent === 'claude-code' ? '' : `${(r.index_vs_baseline.cpu / reference).toFixed(2)}× (target ≤ 1.0)`,
        r.load_average.join('–'),
      ]),
    ),
  );
  console.log(
    JSON.stringify({
      rounds,
      agents: Object.fromEntries(
        results.map(([agent, files, r]) => [
          agent,
          {
            corpus_bytes: r.corpus_bytes,
            files,
            baseline_cpu_s: r.baseline.cpu_s,
            index_cpu_s: r.index.cpu_s,
            cpu_ratio: r.index_vs_baseline.cpu,
            paired_cpu: r.paired_cpu,
            wall_ratio: r.index_vs_baseline.wall,
            vs_claude_code: +(r.index_vs_baseline.cpu / reference).toFixed(3),
            load_average: r.load_average,
          },
        ]),
      ),
    }),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
