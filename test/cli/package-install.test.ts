// The installed command: `npm pack`, then `npm install -g --prefix DIR` of the tarball, and every
// command run from DIR/bin without the checkout — what a user gets from `npx tool-call-forensics`.
//
// The pack runs in a copy of the checkout's sources (its prepack writes web/dist and dist/cli, and
// the browser tests serve the checkout's web/dist meanwhile). The install fetches the runtime
// dependencies as any install does (npm's cache first); better-sqlite3's own native build is not
// this test's subject (it compiles from source here, minutes on two cores), so the install skips
// install scripts and the checkout's compiled binary of the same locked version is put in place.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'tcf-package-'));
const prefix = join(work, 'prefix');
const bin = join(prefix, 'bin', 'tool-call-forensics');
const installed = join(prefix, 'lib', 'node_modules', 'tool-call-forensics');
const corpus = join(work, 'corpus');
const db = join(work, 'data', 'index.db');
// Away from the checkout, so nothing can resolve a module through it.
const cwd = join(work, 'elsewhere');

function npm(args: string[], dir: string): void {
  const run = spawnSync('npm', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (run.status !== 0) throw new Error(`npm ${args[0]} failed (${run.status}): ${run.stderr.slice(-2000)}`);
}

function tcf(args: string[], env: Record<string, string> = {}) {
  return spawnSync(bin, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(() => {
  const source = join(work, 'source');
  mkdirSync(source);
  for (const entry of ['package.json', 'package-lock.json', 'README.md', 'tsconfig.json', 'vite.config.ts', 'server', 'shared', 'web', 'fixtures/demo']) {
    cpSync(join(root, entry), join(source, entry), { recursive: true, filter: (from) => !from.includes(`${join('web', 'dist')}`) });
  }
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'), 'dir');
  npm(['pack', '--pack-destination', work, '--silent'], source);
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack made no tarball');
  npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(work, tarball)], work);
  const nativeFrom = join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  const nativeTo = join(installed, 'node_modules/better-sqlite3/build/Release');
  mkdirSync(nativeTo, { recursive: true });
  cpSync(nativeFrom, join(nativeTo, 'better_sqlite3.node'));
  mkdirSync(cwd);
  cpSync(join(root, 'fixtures/detectors/missing_tool_use_block'), corpus, { recursive: true });
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed and installed command', () => {
  it('installs the two names, the prebuilt page and CLI, and no sources or build tools', () => {
    expect(existsSync(bin)).toBe(true);
    expect(existsSync(join(prefix, 'bin', 'tcf'))).toBe(true);
    expect(existsSync(join(installed, 'web/dist/index.html'))).toBe(true);
    expect(existsSync(join(installed, 'dist/cli/main.mjs'))).toBe(true);
    // A new index database is made from the schema's snapshot (server/store/database.ts), and migrated past it.
    expect(existsSync(join(installed, 'server/store/schema.sql'))).toBe(true);
    expect(existsSync(join(installed, 'server/store/migrations/001_initial.sql'))).toBe(true);
    expect(existsSync(join(installed, 'server/cli/main.ts'))).toBe(false);
    expect(existsSync(join(installed, 'web/src'))).toBe(false);
    for (const tool of ['vite', 'esbuild', 'typescript', 'tsx', 'react', 'recharts', 'vitest']) {
      expect(existsSync(join(installed, 'node_modules', tool)), tool).toBe(false);
    }
  });

  it('--version prints the package version', () => {
    const run = tcf(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it('scan --json reads a folder and reports its findings', () => {
    const run = tcf(['scan', corpus, '--json']);
    expect(run.status).toBe(1); // findings
    const report = JSON.parse(run.stdout) as { findings: Array<{ code: string }>; summary: { files_scanned: number } };
    expect(report.summary.files_scanned).toBeGreaterThan(0);
    expect(report.findings.map((f) => f.code)).toContain('missing_tool_use_block');
  });

  it('index then report print the rate table from the installed command', () => {
    const indexed = tcf(['index', corpus, '--db', db]);
    expect(indexed.status, indexed.stderr).toBe(0);
    const report = tcf(['report', '--db', db]);
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/missing_tool_use_block/);
  });

  it('hook install --print names a command that exists in the installed package', () => {
    const run = tcf(['hook', 'install', '--print']);
    expect(run.status).toBe(0);
    const command = (JSON.parse(run.stdout) as { hooks: { Stop: Array<{ hooks: Array<{ command: string }> }> } }).hooks.Stop[0]!.hooks[0]!.command;
    const script = /^"[^"]+" "([^"]+)" hook stop$/.exec(command)?.[1];
    expect(script?.startsWith(installed)).toBe(true);
    expect(existsSync(script!)).toBe(true);
  });

  it('serve serves the page and the API from the installed package', async () => {
    const port = await freePort();
    // A folder given to serve is indexed at start, in the server's index thread (its own bundle, shipped beside the CLI's).
    const served = join(work, 'data', 'served.db');
    const server: ChildProcess = spawn(bin, ['serve', corpus, '--port', String(port), '--db', served, '--no-watch'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      let err = '';
      server.stderr?.on('data', (d: Buffer) => (err += d.toString()));
      await new Promise<void>((resolve, reject) => {
        server.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('API token')) resolve();
        });
        server.on('close', () => reject(new Error(`serve exited: ${err}`)));
      });
      expect(out).not.toMatch(/Building the dashboard page/);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<div id="root">/);
      const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { status?: string; tool_version?: string };
      expect(health).toMatchObject({ status: 'ok', tool_version: version });
      const summary = (await (await fetch(`http://127.0.0.1:${port}/api/summary`)).json()) as { findings?: number; codes?: Array<{ count: number }> };
      expect(JSON.stringify(summary)).toMatch(/missing_tool_use_block/);
    } finally {
      const exited = new Promise((resolve) => server.on('close', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  });
});
