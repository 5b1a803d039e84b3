/**
 * `npm run bench:stress`: memory and responsiveness under scale (issue 13). Not a test: it
 * prints figures to copy into the README. Steps, each in its own process:
 *   1. a file of N million blank lines and a few rows (--blank-millions, 50): scan time, peak RSS;
 *   2. M tiny transcripts in nested folders (--files, 100000): index time, peak RSS, database
 *      size against the corpus size, and the event loop's worst lag while the server's runner
 *      indexes them (a timer every 10 ms; the largest delay seen), and the write transactions that
 *      took over 30 ms. STRESS_GAPS=1 lists every delay over 50 ms with its phase and time (to line up
 *      with `node --trace-gc`); STRESS_NO_AUTOCHECKPOINT=1 turns SQLite's automatic WAL checkpoint off,
 *      to see whether slow commits are checkpoints; STRESS_ANALYSER=inline|workers overrides the runner's
 *      'auto' choice. The child reports where the memory was at the peak (this thread's heap, array
 *      buffers, the rest). Step 3 runs the same probe idle: the noise floor.
 *   Then the same folder re-indexed: unchanged, and with a tenth of its files gone (lag and time).
 *   4. the same tiny files through the real server (stress-server.ts): `serve` on a free loopback
 *      port, POST /api/folders and POST /api/index-runs, /api/health asked throughout (p50/p99/max),
 *      the server's peak RSS and WAL at the end; and the CLI's `index` of the same folder beside it.
 *      `--server-watch` serves with the folder watcher on (as `npm start` does), off by default; /api/health
 *      is then also asked for 35 s after the run, while the watcher reconciles the whole folder once.
 * `--steps blank,tiny,server,reindex,idle` picks steps (all by default).
 * Bounded: a few minutes on a loaded 2-core machine with the defaults.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { tinyAssistantRow } from '../support/tiny-transcript';
import { cliRun, serverRun } from './stress-server';

const { values } = parseArgs({
  options: {
    'blank-millions': { type: 'string', default: '50' },
    files: { type: 'string', default: '100000' },
    steps: { type: 'string', default: 'blank,tiny,server,reindex,idle' },
    'server-watch': { type: 'boolean', default: false },
  },
});
const steps = new Set(values.steps.split(','));
const root = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-stress-'));

function child(args: string[]): Record<string, number | string | null> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'stress-child.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const row = (i: number) => tinyAssistantRow(`msg_${i}`);

try {
  // 1. Blank lines.
  if (steps.has('blank')) {
    const millions = Number(values['blank-millions']);
    const blankFile = join(tmp, 'blank.jsonl');
    const fd = openSync(blankFile, 'w');
    writeSync(fd, `${row(0)}\n`);
    const block = Buffer.alloc(1024 * 1024, 0x0a);
    for (let written = 0; written < millions * 1e6; written += block.length) writeSync(fd, block, 0, Math.min(block.length, millions * 1e6 - written));
    writeSync(fd, `${row(1)}\n`);
    closeSync(fd);
    const blank = child(['blank', blankFile]);
    rmSync(blankFile);
    console.log(`blank lines: ${millions} million (${millions} MB): ${blank.status}, ${Number(blank.seconds).toFixed(1)} s, peak RSS ${blank.peakRssMb} MB`);
  }

  // 2. Tiny files.
  const count = Number(values.files);
  const corpus = join(tmp, 'tiny');
  let corpusBytes = 0;
  for (let i = 0; i < count; i++) {
    // Named as Claude Code names them (a project folder, a session UUID): the path is part of a
    // file's cost in the index, and short names (p12/s12345.jsonl) understated it by ~25 points.
    const dir = join(corpus, `-home-user-src-project-${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) mkdirSync(dir, { recursive: true });
    const text = `${row(i)}\n`;
    corpusBytes += text.length;
    const h = createHash('sha256').update(String(i)).digest('hex');
    writeFileSync(join(dir, `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}.jsonl`), text);
  }
  if (steps.has('server')) {
    const viaServer = await serverRun(corpus, join(tmp, 'server.db'), { watch: values['server-watch'] });
    console.log(
      `through the server (${values['server-watch'] ? 'watching' : '--no-watch'}): ${viaServer.files} files, ${viaServer.state} in ${viaServer.seconds.toFixed(1)} s, ` +
        `peak RSS ${viaServer.peakRssMb} MB, /api/health ${viaServer.healthCount} answers: p50 ${viaServer.healthP50Ms} ms, p99 ${viaServer.healthP99Ms} ms, ` +
        `max ${viaServer.healthMaxMs} ms, ${viaServer.healthOver200} over 200 ms (idle before the run: p99 ${viaServer.idleP99Ms} ms, max ${viaServer.idleMaxMs} ms); database ${viaServer.dbMb.toFixed(1)} MB, WAL at the end ${viaServer.walMb.toFixed(1)} MB; ` +
        `first /api/timeline after: ${viaServer.timelineMs} ms` +
        (viaServer.afterMaxMs === null ? '' : `; watching for 35 s after the run: p99 ${viaServer.afterP99Ms} ms, max ${viaServer.afterMaxMs} ms`),
    );
    const viaCli = cliRun(corpus, join(tmp, 'cli.db'));
    console.log(
      `the CLI path (\`index\`, same folder): ${viaCli.seconds.toFixed(1)} s, peak RSS ${viaCli.peakRssMb} MB ` +
        `(server/CLI peak: ${(viaServer.peakRssMb / viaCli.peakRssMb).toFixed(2)}×, target ≤ 1.5×)`,
    );
  }
  if (steps.has('tiny') || steps.has('reindex')) {
    const indexed = child(['index', corpus, join(tmp, 'tiny.db')]);
    console.log(
      `tiny files: ${indexed.files} files, ${(corpusBytes / 1e6).toFixed(1)} MB: indexed in ${Number(indexed.seconds).toFixed(1)} s, peak RSS ${indexed.peakRssMb} MB, ` +
        `database ${(Number(indexed.dbBytes) / 1e6).toFixed(1)} MB (${Math.round((100 * Number(indexed.dbBytes)) / corpusBytes)}% of the corpus), ` +
        `event-loop lag: worst ${indexed.lagMaxMs} ms, p99 ${indexed.lagP99Ms} ms, ${indexed.gapsOver50} timer delays over 50 ms (worst while ${indexed.worstPhase})`,
    );
    const slow = String(indexed.slowTransactions ?? '')
      .split(' ')
      .filter(Boolean)
      .map(Number);
    console.log(`  write transactions over 30 ms (commits, and any WAL checkpoint a commit runs): ${slow.length}, worst ${Math.max(0, ...slow)} ms`);
    const at = indexed.memoryAtPeakMb as unknown as { rss: number; heapTotal: number; heapUsed: number; external: number };
    console.log(
      `  at the peak (while ${indexed.phaseAtPeak}): this thread's heap ${at.heapUsed} MB used of ${at.heapTotal} MB, ${at.external} MB outside it (array buffers), ` +
        `${at.rss - at.heapTotal - at.external} MB the rest (worker threads, SQLite, code)`,
    );
    // The same folder again, nothing changed, then with a tenth of its files gone: planning reads
    // every known file and removes the gone ones, which must not hold the loop either.
    const again = child(['index', corpus, join(tmp, 'tiny.db')]);
    console.log(
      `re-index, nothing changed: ${Number(again.seconds).toFixed(1)} s, peak RSS ${again.peakRssMb} MB, event-loop lag: worst ${again.lagMaxMs} ms, p99 ${again.lagP99Ms} ms, ${again.gapsOver50} over 50 ms`,
    );
    for (let p = 0; p < count / 1000; p += 10) rmSync(join(corpus, `-home-user-src-project-${p}`), { recursive: true, force: true });
    const shrunk = child(['index', corpus, join(tmp, 'tiny.db')]);
    console.log(
      `re-index, a tenth of the files gone: ${Number(shrunk.seconds).toFixed(1)} s, event-loop lag: worst ${shrunk.lagMaxMs} ms, p99 ${shrunk.lagP99Ms} ms, ${shrunk.gapsOver50} over 50 ms`,
    );
  }
  if (steps.has('idle')) {
    const idle = child(['idle', '20']);
    console.log(`noise floor (same probe, idle, same machine load): worst ${idle.lagMaxMs} ms, p99 ${idle.lagP99Ms} ms`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
