import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { chromiumAvailable, requireChromiumOrSkip } from '../support/browser';

// Each benchmark run on a tiny input, so that none can rot unnoticed: these check that it runs and
// prints its figures, not the figures themselves (those are the benchmarks' own, on real sizes).
const root = join(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-benchmarks-'));
const corpus = join(tmp, 'projects');
const db = join(tmp, 'index.db');

beforeAll(() => {
  generateDemoCorpus({ out: tmp, seed: 7, sessions: 20 });
  const r = spawnSync(process.execPath, [join(root, 'server/cli/launch.mjs'), 'index', corpus, '--db', db], { encoding: 'utf8' });
  expect([0, 2]).toContain(r.status); // 2: the demo corpus holds damaged files on purpose
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `test/bench/<script>` as `npm run` does (through tsx); resolves with its exit code and output. */
function bench(script: string, args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/bench', script), ...args], { cwd: root });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.on('exit', (status) => done({ status, out }));
  });
}

/** The last line of a benchmark's output that is a JSON object. */
const lastJson = (out: string) =>
  JSON.parse(
    out
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .at(-1)!,
  ) as Record<string, unknown>;

describe('the benchmarks, on a tiny corpus', () => {
  it('bench:real pairs the index with the bare parse and prints CPU, wall, peak memory and the database size', async () => {
    const { status, out } = await bench('bench-real.ts', [corpus, '--rounds', '1']);
    expect(status, out).toBe(0);
    expect(out).toMatch(/\| baseline: read \+ JSON\.parse, 1 thread \| \d+\.\d{3} +\| \d+\.\d{3} +\| \d+ /);
    expect(out).toMatch(/\| index, fresh database +\| \d+\.\d{3} +\| \d+\.\d{3} +\| \d+ +\| CPU \d+\.\d\d× .*wall \d+\.\d\d×/);
    expect(out).toMatch(/load average \d+\.\d\d at start/);
    const figures = lastJson(out) as { index: { cpu_s: number; wall_s: number; peak_rss_mb: number }; db_bytes: number; index_vs_baseline: { cpu: number } };
    expect(figures.index.cpu_s).toBeGreaterThan(0);
    expect(figures.index.peak_rss_mb).toBeGreaterThan(0);
    expect(figures.db_bytes).toBeGreaterThan(0);
    expect(figures.index_vs_baseline.cpu).toBeGreaterThan(0);
  }, 120_000);

  it('bench:agents reads a Codex and an OpenCode corpus against their bare parse, beside Claude Code, and prints each ratio', async () => {
    const { status, out } = await bench('bench-agents.ts', ['--size-mb', '0.2', '--rounds', '1', '--claude', corpus]);
    expect(status, out).toBe(0);
    for (const agent of ['claude-code', 'codex', 'opencode'])
      expect(out).toMatch(new RegExp(`\\| ${agent} +\\| \\d+\\.\\d +\\| \\d+\\.\\d{3} +\\| \\d+\\.\\d{3} +\\| \\d+\\.\\d\\d× `));
    const { agents } = lastJson(out) as {
      agents: Record<string, { files: number | null; index_cpu_s: number; cpu_ratio: number; vs_claude_code: number; paired_vs_claude_code: number[] }>;
    };
    for (const agent of ['codex', 'opencode']) {
      expect(agents[agent]!.files).toBeGreaterThan(0);
      expect(agents[agent]!.index_cpu_s).toBeGreaterThan(0);
      // One ratio over Claude Code's per round, taken in that round; the median of one is itself.
      expect(agents[agent]!.paired_vs_claude_code).toEqual([agents[agent]!.vs_claude_code]);
      expect(agents[agent]!.vs_claude_code).toBeGreaterThan(0);
    }
  }, 240_000);

  it('bench:opencode builds a database and the same sessions as files, and prints the index times of each', async () => {
    const { status, out } = await bench('bench-opencode.ts', ['--mb', '1', '--rounds', '2']);
    expect(status, out).toBe(0);
    // Each round: files and database, fresh wall / CPU, their ratios, and the no-change re-index of each.
    expect(
      out.match(/^\| [12] \| \d+\.\d\d \/ \d+\.\d\d \| \d+\.\d\d \/ \d+\.\d\d \| \d+\.\d\d× \/ \d+\.\d\d× \| \d+\.\d{3} \/ \d+\.\d{3} \|$/gm),
    ).toHaveLength(2);
    expect(out).toMatch(/median database \/ files: wall \d+\.\d\d×, CPU \d+\.\d\d×/);
    const figures = lastJson(out) as { sessions: number; findings: number; rounds: { db_again_s: number }[] };
    expect(figures.rounds).toHaveLength(2);
    // One `invalid` call per session, found in both layouts (the script fails when they differ).
    expect(figures.findings).toBe(figures.sessions);
  }, 120_000);

  it('bench:real refuses to run without a folder', async () => {
    const { status, out } = await bench('bench-real.ts', []);
    expect(status).toBe(1);
    expect(out).toMatch(/usage: npm run bench:real -- DIR/);
  }, 60_000);

  it('bench:api loads the index named by --db and prints each endpoint’s size and latencies', async () => {
    const { status, out } = await bench('bench-api.ts', ['--db', db, '--seconds', '1', '--connections', '2']);
    expect(status, out).toBe(0);
    expect(out).toContain(`index: ${db}`);
    for (const path of ['/api/timeline', '/api/versions', '/api/version-models', '/api/export']) {
      expect(out).toMatch(
        new RegExp(`\\| ${path.replace(/\//g, '\\/')} +\\| \\d+(\\.\\d)? +\\| [\\d.]+ +\\| \\d+ +\\| \\d+ +\\| \\d+ +\\| 0 +\\| (met|MISSED)`),
      );
    }
  }, 180_000);

  it('bench:live starts its server (on a free port) and prints the write-to-finding latencies', async () => {
    const { status, out } = await bench('bench-live.ts', ['--sessions', '12', '--appends', '2', '--idle-seconds', '1']);
    expect(status, out).toBe(0);
    expect(out).toMatch(/\| p95 \| \d+ ms \|/);
    expect(lastJson(out)).toMatchObject({ appends: 2 });
  }, 120_000);

  it.runIf(chromiumAvailable || requireChromiumOrSkip('bench:web'))(
    'bench:web opens the page on the index named by --db and prints the first card and chart times',
    async () => {
      const { status, out } = await bench('bench-web.ts', ['--db', db, '--tabs', '2']);
      expect(status, out).toBe(0);
      expect(out).toContain(`index: ${db}`);
      expect(out).toMatch(
        /time to first verdict card, new tab, the page's clock \(navigation start to the card in the document\): median \d+ ms, worst \d+ ms/,
      );
      expect(out).toMatch(/time to first chart, new tab, the page's clock: median \d+ ms, worst \d+ ms/);
      expect(out).toMatch(/time to first verdict card, new tab, Playwright's wall: median \d+ ms/);
      expect(out).toMatch(/time to first chart, new tab, Playwright's wall: median \d+ ms/);
    },
    300_000,
  );
});
