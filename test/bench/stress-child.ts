/**
 * One measured step of `npm run bench:stress`, in its own process so its peak RSS is its own.
 * Prints one JSON line. Modes:
 *   blank <file>            scan a file (analyseFile, as the index does)
 *   index <folder> <db>     index a folder into a fresh database, measuring event-loop lag
 *   idle <seconds>          the same lag probe with nothing to do (the machine's noise floor)
 */
import { statSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { analyseFile } from '../../server/detect/analyse-file';
import { IndexRunner } from '../../server/index/index-runner';
import { openDatabase } from '../../server/store/database';
import { sqliteIndexStore } from '../../server/store/index-store';
import { addRoot } from '../../server/store/roots';

const [mode, a, b] = process.argv.slice(2);
const started = performance.now();
const rss = () => Math.round(process.resourceUsage().maxRSS / 1024);

if (mode === 'idle') {
  // The noise floor: the same probe with nothing to do, for the same time (a loaded machine delays timers too).
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let worstGap = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worstGap = Math.max(worstGap, now - last - 10);
    last = now;
  }, 10);
  await new Promise((resolve) => setTimeout(resolve, Number(a) * 1000));
  clearInterval(probe);
  histogram.disable();
  process.stdout.write(
    `${JSON.stringify({ lagMaxMs: Math.round(Math.max(worstGap, histogram.max / 1e6)), lagP99Ms: Math.round(histogram.percentile(99) / 1e6) })}\n`,
  );
} else if (mode === 'blank') {
  const analysis = analyseFile(a!, { forIndex: true });
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `${JSON.stringify({ status: analysis.status, lines: analysis.status === 'ok' ? analysis.lineCount : null, seconds, peakRssMb: rss() })}\n`,
  );
} else if (mode === 'index') {
  const db = openDatabase(b!);
  if (process.env.STRESS_NO_AUTOCHECKPOINT) db.pragma('wal_autocheckpoint = 0');
  // Wall time of every write transaction on this thread (commits included, so a WAL checkpoint
  // that a commit runs shows here): the slow ones, to tell them from other stalls.
  const slowTransactions: number[] = [];
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const timed =
      (run: (...args: unknown[]) => unknown) =>
      (...args: unknown[]) => {
        const t = performance.now();
        try {
          return run(...args);
        } finally {
          const ms = performance.now() - t;
          if (ms > 30) slowTransactions.push(Math.round(ms));
        }
      };
    return Object.assign(timed(tx), { immediate: timed(tx.immediate), deferred: timed(tx.deferred), exclusive: timed(tx.exclusive) });
  }) as typeof db.transaction;
  addRoot(db, a!);
  // The server's way: an IndexRunner on the event loop, while a probe measures how late timers fire.
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let worstGap = 0;
  let worstPhase = '';
  let phase = 'start';
  const gaps: string[] = [];
  let memoryAtPeak = process.memoryUsage();
  let phaseAtPeak = 'start';
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    const gap = now - last - 10;
    // Where the resident memory is when it peaks: this thread's heap, off-heap buffers, the rest (workers' heaps, SQLite, code).
    const m = process.memoryUsage();
    if (m.rss > memoryAtPeak.rss) {
      memoryAtPeak = m;
      phaseAtPeak = phase;
    }
    // With the time since the process started (as --trace-gc prints it), to line gaps up with collections.
    if (gap > 50) gaps.push(`${phase}:${Math.round(gap)}@${Math.round(now)}ms`);
    if (gap > worstGap) {
      worstGap = gap;
      worstPhase = phase;
    }
    last = now;
  }, 10);
  const runner = new IndexRunner(sqliteIndexStore(db), (process.env.STRESS_ANALYSER as 'auto' | 'inline' | 'workers' | undefined) ?? 'auto', 100);
  runner.on('progress', (s: { phase: string | null; files_done: number }) => {
    phase = `${s.phase}@${s.files_done}`;
  });
  const summary = await (await runner.start()).done;
  clearInterval(probe);
  histogram.disable();
  db.close();
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `${JSON.stringify({
      files: summary?.filesSeen,
      failed: summary?.filesFailed,
      seconds,
      peakRssMb: rss(),
      dbBytes:
        statSync(b!).size +
        (() => {
          try {
            return statSync(`${b}-wal`).size;
          } catch {
            return 0;
          }
        })(),
      lagMaxMs: Math.round(Math.max(worstGap, histogram.max / 1e6)),
      lagP99Ms: Math.round(histogram.percentile(99) / 1e6),
      worstPhase,
      gapsOver50: gaps.length,
      gaps: process.env.STRESS_GAPS ? gaps.join(' ') : undefined,
      slowTransactions: slowTransactions.length ? slowTransactions.join(' ') : undefined,
      phaseAtPeak,
      memoryAtPeakMb: Object.fromEntries(Object.entries(memoryAtPeak).map(([k, v]) => [k, Math.round(v / 2 ** 20)])),
    })}\n`,
  );
}
