import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one measured process used: wall seconds from outside, CPU seconds (user + system, its threads included) and peak RSS from inside. */
export interface ProcessRun {
  wall_s: number;
  cpu_s: number;
  rss_mb: number;
  status: number | null;
}

const here = import.meta.dirname;
const usageDir = mkdtempSync(join(tmpdir(), 'tcf-bench-usage-'));
process.on('exit', () => rmSync(usageDir, { recursive: true, force: true }));
const usageFile = join(usageDir, 'usage.json');

/** Runs `node ARGS…` in `cwd` with report-usage.mjs preloaded, its output thrown away, and measures it. */
export function measureProcess(args: string[], cwd: string): ProcessRun {
  rmSync(usageFile, { force: true });
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--import', join(here, 'report-usage.mjs'), ...args], {
    cwd,
    env: { ...process.env, BENCH_USAGE_FILE: usageFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const wall_s = (performance.now() - started) / 1000;
  const usage = existsSync(usageFile)
    ? (JSON.parse(readFileSync(usageFile, 'utf8')) as { rss_mb: number; cpu_s: number })
    : { rss_mb: Number.NaN, cpu_s: Number.NaN };
  return { wall_s, ...usage, status: r.status };
}

/** The median (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
