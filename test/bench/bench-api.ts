/**
 * `npm run bench:api`: latency and throughput of the API on the index of the 300 MB benchmark
 * corpus (built by `npm run bench`, or here if missing), with autocannon at 50 connections.
 * Target: p99 under 50 ms for /api/timeline and /api/findings.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const dbPath = join(root, 'bench-out/bench-index.db');
const corpus = join(root, 'bench-out/corpus-300-120/projects');
const cli = [join(root, 'server/cli/launch.mjs')]; // what `npm start` and `npm run cli` run

if (!existsSync(dbPath)) {
  if (!existsSync(corpus)) {
    console.error('no benchmark corpus: run `npm run bench` first (it needs ../shared)');
    process.exit(1);
  }
  spawnSync(process.execPath, [...cli, 'index', corpus, '--db', dbPath], { stdio: 'inherit' });
}

const server = spawn(process.execPath, [...cli, 'serve', '--db', dbPath, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolveUrl, reject) => {
  let out = '';
  server.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const m = /Dashboard: (http:\/\/\S+)/.exec(out);
    if (m) resolveUrl(m[1]!);
  });
  server.on('exit', () => reject(new Error('server exited')));
});

const rows: string[][] = [];
try {
  for (const path of [
    '/api/timeline',
    '/api/timeline?bucket=week&model=claude-opus-4-8',
    '/api/findings?limit=100',
    '/api/findings?limit=100&code=missing_tool_use_block&sort=day_asc',
  ]) {
    const result = await autocannon({ url: url.replace(/\/$/, '') + path, connections: 50, duration: 8 });
    rows.push([
      path,
      String(result.latency.p50),
      String(result.latency.p99),
      result.requests.average.toFixed(0),
      String(result.non2xx),
      result.latency.p99 < 50 ? 'yes' : 'NO',
    ]);
  }
} finally {
  server.kill();
}
const header = ['endpoint', 'p50 ms', 'p99 ms', 'requests/s', 'non-2xx', 'p99 < 50 ms'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const fmt = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
console.log([fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n'));
