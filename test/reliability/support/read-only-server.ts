import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type Child, cli } from './spawn';

/**
 * A read-only folder is only read-only to someone who is not root: root ignores the mode bits. So
 * when the suite runs as root, a reader runs as `nobody` (uid 65534) and a root-owned 0755 folder
 * is one it cannot write: the operating system refuses every write, nothing is simulated.
 * Otherwise it runs as the current user, whom a chmod 555 folder stops.
 */
export const asRoot = process.getuid?.() === 0;
export const reader = asRoot ? { uid: 65534, gid: 65534 } : undefined;
/**
 * Why the reader cannot run this checkout's CLI, or null when it can. As root the reader is uid
 * 65534, which cannot enter a checkout under a private folder (`mktemp -d` and home folders are
 * 0700): the tests that need the reader are then skipped with this notice, rather than failing on
 * "Cannot find module". CI (TCF_REQUIRE_SHARED) never skips them: there they run or fail.
 */
export const readerBlocked: string | null = (() => {
  if (!asRoot || process.env.TCF_REQUIRE_SHARED) return null;
  const launch = join(import.meta.dirname, '../../../server/cli/launch.mjs');
  const probe = spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(launch)})`], { uid: 65534, gid: 65534, cwd: '/' });
  if (probe.status === 0) return null;
  return 'NOTICE: skipped the read-only database tests: they run the CLI as uid 65534 (root ignores read-only modes), which cannot enter this checkout (a folder on its path is private, mode 0700); clone it under a folder others can enter to run them (CI runs them)';
})();
if (readerBlocked) console.warn(readerBlocked);

/** The mode that makes a folder read-only to the reader. */
export const READ_ONLY_FOLDER_MODE = asRoot ? 0o755 : 0o555;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The CLI's `serve` as the reader (HOME and cwd: `home`, which it must be able to enter), on a free port. */
export async function serveCommandAsReader(home: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: Child; port: number }> {
  const port = await freePort();
  return { child: cli(['serve', '--no-build', '--port', String(port), ...args], { as: reader, cwd: home, env: { HOME: home, ...env } }), port };
}

/** `serve` as the reader once it is listening: its port and launch token. Stop it with `child.proc.kill('SIGTERM')`. */
export async function startServeAsReader(home: string, args: string[]): Promise<{ child: Child; port: number; token: string }> {
  const { child, port } = await serveCommandAsReader(home, args);
  await child.waitFor('API token');
  const token = /\(header x-tcf-token\): (\S+)/.exec(child.stdout())![1]!;
  return { child, port, token };
}
