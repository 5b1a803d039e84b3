/**
 * The API load shared by `npm run bench:api` and `npm run bench:scale`: starts the real server
 * (`serve --db FILE --port P`, P a free loopback port) on an index, and for each endpoint measures one request with an
 * empty response cache (the first, "cold": what a page waits for after an index run) and then
 * autocannon at 50 connections (answers after the first come from the response cache, which is
 * tagged with the database's version, as the dashboard serves them).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';

const root = join(import.meta.dirname, '../..');
const cli = join(root, 'server/cli/launch.mjs'); // what `npm start` and `npm run cli` run

export interface EndpointLoad {
  path: string;
  /** Milliseconds of the first request (nothing cached yet). */
  cold_ms: number;
  /** Size of the answer's body in KB (as sent: the server does not compress). */
  kb: number;
  p50_ms: number;
  p99_ms: number;
  requests_per_s: number;
  non_2xx: number;
}

/** A loopback port free right now (`serve` takes 1–65535, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

export async function loadEndpoints(
  dbPath: string,
  paths: readonly string[],
  options: { connections?: number; seconds?: number; serveArgs?: string[] } = {},
): Promise<EndpointLoad[]> {
  const server = spawn(process.execPath, [cli, 'serve', '--db', dbPath, '--port', String(await freePort()), ...(options.serveArgs ?? [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Dashboard: (http:\/\/\S+)/.exec(out);
      if (m) resolveUrl(m[1]!.replace(/\/$/, ''));
    });
    server.on('exit', () => reject(new Error('server exited')));
  });
  const results: EndpointLoad[] = [];
  try {
    for (const path of paths) {
      const started = performance.now();
      const first = await fetch(url + path);
      const body = await first.arrayBuffer();
      const cold = performance.now() - started;
      if (!first.ok) throw new Error(`${path}: HTTP ${first.status}`);
      const result = await autocannon({ url: url + path, connections: options.connections ?? 50, duration: options.seconds ?? 8 });
      results.push({
        path,
        cold_ms: +cold.toFixed(1),
        kb: +(body.byteLength / 1024).toFixed(1),
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
        requests_per_s: Math.round(result.requests.average),
        non_2xx: result.non2xx,
      });
    }
  } finally {
    server.kill();
  }
  return results;
}

/** A Markdown table of rows (first row the header). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n');
}

/** The p99 target of an endpoint: 500 ms for the evidence report, 50 ms for the rest. */
export const p99TargetMs = (path: string) => (path.startsWith('/api/export') ? 500 : 50);

/** The endpoint table `bench:api` and `bench:scale` print. */
export function endpointTable(results: readonly EndpointLoad[]): string {
  return table(
    ['endpoint', 'KB', 'first ms', 'p50 ms', 'p99 ms', 'requests/s', 'non-2xx', 'p99 target'],
    results.map((r) => [
      r.path,
      String(r.kb),
      String(r.cold_ms),
      String(r.p50_ms),
      String(r.p99_ms),
      String(r.requests_per_s),
      String(r.non_2xx),
      `${r.p99_ms < p99TargetMs(r.path) ? 'met' : 'MISSED'} (< ${p99TargetMs(r.path)} ms)`,
    ]),
  );
}

/** The endpoints the dashboard's pages load, each measured under load by bench:api and bench:scale. */
export const PAGE_ENDPOINTS = [
  '/api/summary',
  '/api/timeline',
  '/api/timeline?bucket=week&model=claude-opus-4-8',
  '/api/versions',
  '/api/version-models',
  '/api/regressions',
  '/api/findings?limit=100',
  '/api/findings?limit=100&code=missing_tool_use_block&sort=day_asc',
];
