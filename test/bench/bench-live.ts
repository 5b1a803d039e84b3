/**
 * `npm run bench:live`: how fast the folder watcher brings a new finding to the API, and what
 * it costs while nothing happens. Starts the real server (`serve <dir> --no-build`, watching)
 * on a generated corpus of 400 sessions, then 50 times appends a session that ends in a lost
 * call to a transcript and polls /api/findings until the finding is there; then measures the
 * server process's CPU time over an idle minute (BENCH_IDLE_SECONDS to change it).
 * Target: p95 under 2 s from the write to the finding in the API; idle CPU near zero.
 * Options (for a quick check): --sessions N (400), --appends N (50), --idle-seconds N (60, or
 * BENCH_IDLE_SECONDS).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { sessionRows } from '../support/session-transcripts';
import { freePort } from './api-load';

const root = join(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '400' },
    appends: { type: 'string', default: '50' },
    'idle-seconds': { type: 'string', default: process.env.BENCH_IDLE_SECONDS ?? '60' },
  },
});
const APPENDS = Number(values.appends);
const IDLE_SECONDS = Number(values['idle-seconds']);
const CLOCK_TICKS = 100; // USER_HZ on Linux (getconf CLK_TCK)

const tmp = mkdtempSync(join(tmpdir(), 'tcf-bench-live-'));
generateDemoCorpus({ out: tmp, seed: 7, sessions: Number(values.sessions) });
const projects = join(tmp, 'projects');
const transcripts: string[] = [];
const walk = (dir: string) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.jsonl')) transcripts.push(path);
  }
};
walk(projects);
// Appended to: whole, well-formed main-session transcripts (the demo corpus also holds damaged files, which stay failed).
const targets = transcripts.filter((p) => p.includes('-home-user-project-') && !p.includes('/subagents/')).sort();

const server = spawn(
  process.execPath,
  [join(root, 'server/cli/launch.mjs'), 'serve', projects, '--db', join(tmp, 'index.db'), '--port', String(await freePort()), '--no-build'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const m = /Dashboard: (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  server.on('exit', () => reject(new Error('server exited')));
});

const lostCalls = async () => ((await (await fetch(`${base}api/findings?code=missing_tool_use_block&limit=1`)).json()) as { total: number }).total;
const cpuTicks = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
};

try {
  const latencies: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const before = await lostCalls();
    const target = targets[(i * 37) % targets.length]!;
    // A new turn ending in a lost call, appended as Claude Code appends rows.
    const rows = sessionRows('lost_call', 'BENCH', { idPrefix: `bench${i}`, version: '2.1.90' }).slice(1);
    const started = performance.now();
    appendFileSync(target, rows.join('\n') + '\n');
    for (;;) {
      if ((await lostCalls()) > before) break;
      if (performance.now() - started > 10_000) throw new Error(`append ${i}: no finding after 10 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;

  // Idle: let the last update settle, then count the server's CPU time over the idle period.
  await new Promise((r) => setTimeout(r, 2000));
  const t0 = cpuTicks();
  const w0 = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const cpuSeconds = (cpuTicks() - t0) / CLOCK_TICKS;
  const wall = (performance.now() - w0) / 1000;

  console.log(`| ${transcripts.length} transcripts watched | write → finding in /api/findings, ${APPENDS} appends | |`);
  console.log('| --- | --- | --- |');
  console.log(`| p50 | ${pct(50).toFixed(0)} ms | |`);
  console.log(`| p95 | ${pct(95).toFixed(0)} ms | target < 2000 ms |`);
  console.log(`| max | ${pct(100).toFixed(0)} ms | |`);
  console.log(`| idle CPU over ${wall.toFixed(0)} s | ${cpuSeconds.toFixed(2)} s CPU = ${((100 * cpuSeconds) / wall).toFixed(2)}% of one core | |`);
  console.log(
    JSON.stringify({
      appends: APPENDS,
      p50_ms: pct(50),
      p95_ms: pct(95),
      max_ms: pct(100),
      idle_seconds: wall,
      idle_cpu_seconds: cpuSeconds,
      files: transcripts.length,
    }),
  );
} finally {
  server.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
