import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../../..');

export interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
  /** Resolves once stdout or stderr contains `text` (rejects if the process exits first). */
  waitFor: (text: string) => Promise<void>;
}

function track(proc: ChildProcess): Child {
  let out = '';
  let err = '';
  const waiters: Array<{ text: string; resolve: () => void; reject: (e: Error) => void }> = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (out.includes(w.text) || err.includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    check();
  });
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    check();
  });
  const exit = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  void exit.then(() => {
    for (const w of waiters.splice(0)) w.reject(new Error(`exited before printing ${w.text}: ${err}`));
  });
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    exit,
    waitFor: (text) =>
      new Promise((resolve, reject) => {
        waiters.push({ text, resolve, reject });
        check();
      }),
  };
}

/** The CLI as a user runs it, asynchronously (so several can run at once); `as` runs it as another user (uid and gid, from root). */
export function cli(args: string[], options: { as?: { uid: number; gid: number }; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Child {
  return track(
    spawn(process.execPath, [join(root, 'server/cli/launch.mjs'), ...args], {
      cwd: options.cwd ?? root,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options.as,
    }),
  );
}

/** A TypeScript script of test/reliability/support, through tsx. */
export function script(name: string, args: string[], stdin: 'pipe' | 'ignore' = 'ignore'): Child {
  return track(spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, name), ...args], { cwd: root, stdio: [stdin, 'pipe', 'pipe'] }));
}
