/**
 * `npm run bench:api`: latency and throughput of the API on the index of the 300 MB benchmark
 * corpus (built by `npm run bench`, or here if missing), with autocannon at 50 connections
 * (the load itself is test/bench/api-load.ts, shared with `npm run bench:scale`).
 * Target: p99 under 50 ms for /api/timeline and /api/findings.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { endpointTable, loadEndpoints } from './api-load';

const root = join(import.meta.dirname, '../..');
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

const results = await loadEndpoints(dbPath, [
  '/api/timeline',
  '/api/timeline?bucket=week&model=claude-opus-4-8',
  '/api/findings?limit=100',
  '/api/findings?limit=100&code=missing_tool_use_block&sort=day_asc',
]);
console.log(endpointTable(results));
