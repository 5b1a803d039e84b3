/**
 * The server path of `npm run bench:stress` (issue 31): the real server (`serve`, from the CLI's
 * launcher, as `npm start` runs it) on a free loopback port, a folder added and indexed through the
 * API (POST /api/folders, POST /api/index-runs, with the launch token the guards ask for), and
 * /api/health asked one request at a time while the run goes on. Reports the run's time, the health
 * answers' p50/p99/max, the server process's peak RSS (its own high-water mark, worker threads
 * included), the database and WAL sizes at the end, and the first /api/timeline after the run.
 * Also the CLI path on the same folder (`index`, peak RSS by report-rss.mjs), for the comparison.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const launcher = join(root, 'server/cli/launch.mjs');

export interface ServerRunFigures {
  seconds: number;
  files: number | null;
  state: string;
  healthCount: number;
  healthP50Ms: number;
  healthP99Ms: number;
  healthMaxMs: number;
  healthOver200: number;
  /** The same probe against the same server before the run, idle, for `idleSeconds`: the machine's noise floor. */
  idleP99Ms: number;
  idleMaxMs: number;
  /** With the watcher on: the same probe for `afterSeconds` after the run (one reconciliation of the whole folder falls in it). */
  afterP99Ms: number | null;
  afterMaxMs: number | null;
  peakRssMb: number;
  dbMb: number;
  walMb: number;
  timelineMs: number;
}

const sizeMb = (path: string) => {
  try {
    return statSync(path).size / 1e6;
  } catch {
    return 0;
  }
};

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolvePort(port));
    });
  });
}

/** The server process's own peak resident set (VmHWM: threads share the process, so they are included). */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

async function waitForLines(child: ChildProcess, want: RegExp[], timeoutMs: number): Promise<string[]> {
  let text = '';
  return new Promise((resolveLines, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${text}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const found = want.map((re) => re.exec(text)?.[1]);
      if (found.every((f) => f !== undefined)) {
        clearTimeout(timer);
        resolveLines(found as string[]);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${text}`)));
  });
}

/** Indexes `folder` into a fresh database `db` through a real server; `watch` as `serve` has it by default. */
export async function serverRun(
  folder: string,
  db: string,
  options: { watch: boolean; idleSeconds?: number; afterSeconds?: number },
): Promise<ServerRunFigures> {
  const port = await freePort();
  const args = [launcher, 'serve', '--db', db, '--port', String(port), '--no-build', ...(options.watch ? [] : ['--no-watch'])];
  const server = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [token, base] = await waitForLines(server, [/API token[^:]*: (\S+)/, /Dashboard: (\S+)/], 120_000);
    const headers = { 'content-type': 'application/json', 'x-tcf-token': token! };
    const post = async (path: string, body: unknown) => {
      const r = await fetch(new URL(path, base), { method: 'POST', headers, body: JSON.stringify(body) });
      if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return (await r.json()) as Record<string, unknown>;
    };
    const probe = async () => {
      const t = performance.now();
      await (await fetch(new URL('/api/health', base))).arrayBuffer();
      return performance.now() - t;
    };
    // The noise floor: the same probe, nothing to do.
    const idle: number[] = [];
    const idleUntil = performance.now() + (options.idleSeconds ?? 10) * 1000;
    while (performance.now() < idleUntil) {
      idle.push(await probe());
      await new Promise((r) => setTimeout(r, 10));
    }
    idle.sort((a, b) => a - b);
    const folderRow = await post('/api/folders', { path: folder });
    const started = performance.now();
    await post('/api/index-runs', { folder_id: folderRow.id });
    let state = 'running';
    let files: number | null = null;
    const latencies: number[] = [];
    // The run's state, twice a second (its own requests are not counted as health answers).
    const watcher = (async () => {
      while (state === 'running') {
        await new Promise((r) => setTimeout(r, 500));
        const s = (await (await fetch(new URL('/api/index-runs/current', base))).json()) as { state: string; files_total: number };
        state = s.state;
        files = s.files_total;
      }
    })();
    while (state === 'running') {
      latencies.push(await probe());
      await new Promise((r) => setTimeout(r, 10));
    }
    await watcher;
    const seconds = (performance.now() - started) / 1000;
    const t = performance.now();
    await (await fetch(new URL('/api/timeline', base))).arrayBuffer();
    const timelineMs = Math.round(performance.now() - t);
    latencies.sort((a, b) => a - b);
    // The watcher's periodic stat walk of all the files (RECONCILE_MS, 30 s) must not hold the loop either.
    const after: number[] = [];
    if (options.watch) {
      const afterUntil = performance.now() + (options.afterSeconds ?? 35) * 1000;
      while (performance.now() < afterUntil) {
        after.push(await probe());
        await new Promise((r) => setTimeout(r, 10));
      }
      after.sort((a, b) => a - b);
    }
    return {
      seconds,
      files,
      state,
      healthCount: latencies.length,
      healthP50Ms: Math.round(percentile(latencies, 50)),
      healthP99Ms: Math.round(percentile(latencies, 99)),
      healthMaxMs: Math.round(latencies.at(-1) ?? 0),
      healthOver200: latencies.filter((l) => l > 200).length,
      idleP99Ms: Math.round(percentile(idle, 99)),
      idleMaxMs: Math.round(idle.at(-1) ?? 0),
      afterP99Ms: options.watch ? Math.round(percentile(after, 99)) : null,
      afterMaxMs: options.watch ? Math.round(after.at(-1) ?? 0) : null,
      peakRssMb: peakRssMb(server.pid!),
      dbMb: sizeMb(db),
      walMb: sizeMb(`${db}-wal`),
      timelineMs,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

/** The CLI path on the same folder: `index --db`, whole process timed, its peak RSS from report-rss.mjs. */
export function cliRun(folder: string, db: string): { seconds: number; peakRssMb: number; walMb: number } {
  const rssFile = `${db}.rss`;
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--import', join(import.meta.dirname, 'report-rss.mjs'), launcher, 'index', '--db', db, folder], {
    cwd: root,
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
    encoding: 'utf8',
  });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0 && r.status !== 2) throw new Error(`index failed (${r.status}): ${r.stderr}`);
  const peak = Math.round(Number(readFileSync(rssFile, 'utf8')));
  rmSync(rssFile, { force: true });
  return { seconds, peakRssMb: peak, walMb: sizeMb(`${db}-wal`) };
}
