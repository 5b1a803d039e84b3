/**
 * `npm run bench:hook`: what `hook stop --index` costs on a large session (issue 27). An index of a generated corpus
 * (400 sessions) plus one 10 MB transcript under the same folder; the transcript is indexed once, then 10 times
 * 64 KiB is appended (a turn) and the hook's index step runs, in process (indexForHook: open, lock, re-read the file,
 * write, rebuild the denominators) and as Claude Code runs it (the CLI, the hook JSON on stdin, which also waits for
 * the transcript to be flushed and diagnoses the last turn). Target: the index step well under 1 s.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { indexForHook } from '../../server/cli/hook-command';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { sessionRows } from '../support/session-transcripts';

const root = join(import.meta.dirname, '../..');
const RUNS = 10;
const tmp = mkdtempSync(join(tmpdir(), 'tcf-bench-hook-'));
try {
  generateDemoCorpus({ out: tmp, seed: 7, sessions: 400 });
  const dir = join(tmp, 'projects/-home-bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'long-session.jsonl');
  const chunk = (i: number) => `${sessionRows('said_nothing', 'bench', { idPrefix: `b${i}` }).join('\n')}\n`;
  let i = 0;
  writeFileSync(path, '');
  while (statSync(path).size < 10 * 1024 * 1024) appendFileSync(path, chunk(i++));
  const dbPath = join(tmp, 'index.db');
  const db = openDatabase(dbPath);
  addRoot(db, join(tmp, 'projects'));
  await indexDatabase(db, { analyser: 'inline' });
  db.close();
  const append = () => {
    const start = statSync(path).size;
    while (statSync(path).size < start + 64 * 1024) appendFileSync(path, chunk(i++));
  };
  // The bare cost of reading the same file and parsing every line, measured beside each run (this shared VM's
  // load moves every figure; the ratio to this baseline does not).
  const baseline: number[] = [];
  const parseAll = () => {
    const t0 = performance.now();
    for (const line of readFileSync(path, 'utf8').split('\n')) if (line) JSON.parse(line);
    baseline.push(performance.now() - t0);
  };
  const inProcess: number[] = [];
  const cli: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    append();
    parseAll();
    let t0 = performance.now();
    const outcome = await indexForHook(dbPath, path);
    inProcess.push(performance.now() - t0);
    if (outcome !== 'indexed') throw new Error(`expected the transcript indexed, got ${outcome}`);
    append();
    t0 = performance.now();
    const r = spawnSync(process.execPath, [join(root, 'server/cli/launch.mjs'), 'hook', 'stop', '--index', '--db', dbPath, '--port', '9'], {
      input: JSON.stringify({ transcript_path: path }),
      encoding: 'utf8',
    });
    cli.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(`hook exited ${r.status}`);
  }
  const check = openDatabase(dbPath);
  const size = check.prepare("SELECT size FROM files WHERE rel_path = '-home-bench/long-session.jsonl'").pluck().get();
  const files = check.prepare('SELECT count(*) FROM files').pluck().get();
  check.close();
  if (size !== statSync(path).size) throw new Error('the CLI hook did not index the last append');
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `median ${s[Math.floor(s.length / 2)]!.toFixed(0)} ms, max ${s[s.length - 1]!.toFixed(0)} ms`;
  };
  console.log(`transcript ${(statSync(path).size / 1e6).toFixed(1)} MB, index of ${files} files, load average ${loadavg()[0]!.toFixed(1)}`);
  console.log(`baseline (read + JSON.parse every line, 1 thread): ${stats(baseline)}`);
  console.log(`hook index step (in process, ${RUNS} appends of 64 KiB): ${stats(inProcess)}`);
  console.log(`hook stop --index (CLI, with flush wait and diagnosis): ${stats(cli)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
