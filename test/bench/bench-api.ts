/**
 * `npm run bench:api`: latency and throughput of the API on the index of the 300 MB benchmark
 * corpus (built by `npm run bench`, or here if missing), with autocannon at 50 connections
 * (the load itself is test/bench/api-load.ts, shared with `npm run bench:scale`).
 * Targets: p99 under 50 ms (under 500 ms for /api/export); answers of /api/timeline, /api/versions and
 * /api/version-models under 100 KB (issue 32).
 * Options: --db FILE (any index, e.g. your own), --seconds N (8) of load per
 * endpoint, --connections N (50).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { endpointTable, loadEndpoints, PAGE_ENDPOINTS } from './api-load';

const root = join(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
  },
});
const dbPath = values.db ? resolve(values.db) : join(root, 'bench-out/bench-index.db');
const corpus = join(root, 'bench-out/corpus-300-120/projects');
const cli = [join(root, 'server/cli/launch.mjs')]; // what `npm start` and `npm run cli` run

if (values.db && !existsSync(dbPath)) {
  console.error(`no index at ${dbPath}`);
  process.exit(1);
}
if (!existsSync(dbPath)) {
  if (!existsSync(corpus)) {
    console.error('no benchmark corpus: run `npm run bench` first (it needs ../shared)');
    process.exit(1);
  }
  spawnSync(process.execPath, [...cli, 'index', corpus, '--db', dbPath], { stdio: 'inherit' });
}

const load = loadavg()[0]!;
const results = await loadEndpoints(dbPath, [...PAGE_ENDPOINTS, '/api/export'], {
  seconds: Number(values.seconds),
  connections: Number(values.connections),
  serveArgs: ['--no-watch', '--no-build'],
});
console.log(
  `index: ${dbPath}; ${values.connections} connections, ${values.seconds} s per endpoint; load average ${load.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`,
);
console.log(endpointTable(results));
