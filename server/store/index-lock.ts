import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from './database';

const KEY = 'index_lock';
/** A holder that has not written its heartbeat for this long is taken to be gone (a frozen or reused pid). */
const STALE_AFTER_MS = 10 * 60 * 1000;
const POLL_MS = 200;

interface LockRecord {
  token: string;
  pid: number;
  host: string;
  heartbeat: number;
}

/** Another index run holds this database; `pid` is the process running it. */
export class IndexBusyError extends Error {
  readonly code = 'index_running';
  constructor(readonly pid: number) {
    super(`another index run (process ${pid}) is writing this database; try again when it finishes`);
  }
}

export interface IndexLock {
  /** Refreshes the heartbeat; throws when the lock was taken over (this run must stop writing). */
  heartbeat(): void;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function read(db: Db): LockRecord | null {
  const row = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(KEY);
  if (!row) return null;
  try {
    return JSON.parse(row.value) as LockRecord;
  } catch {
    return null;
  }
}

function stale(lock: LockRecord, now: number): boolean {
  if (now - lock.heartbeat > STALE_AFTER_MS) return true;
  // Only a process on this machine can be checked; one elsewhere (a shared folder) must time out.
  return lock.host === hostname() && !alive(lock.pid);
}

/** The run holding the lock now (null when none, or when it is stale). */
export function indexLockHolder(db: Db): { pid: number } | null {
  const lock = read(db);
  return lock && !stale(lock, Date.now()) ? { pid: lock.pid } : null;
}

/**
 * Takes the database's index lock, or throws IndexBusyError naming the holder. The lock is
 * a row written in a BEGIN IMMEDIATE transaction, so two processes (or two runs in one
 * process) can never both take it; a holder that died (kill -9) is detected by its pid and
 * its lock taken over.
 */
export function tryAcquireIndexLock(db: Db): IndexLock {
  const mine: LockRecord = { token: randomBytes(12).toString('hex'), pid: process.pid, host: hostname(), heartbeat: Date.now() };
  const set = db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  db.transaction(() => {
    const held = read(db);
    if (held && !stale(held, Date.now())) throw new IndexBusyError(held.pid);
    set.run(KEY, JSON.stringify(mine));
  }).immediate();
  let released = false;
  return {
    heartbeat() {
      if (released) return;
      db.transaction(() => {
        const held = read(db);
        if (held?.token !== mine.token) throw new IndexBusyError(held?.pid ?? 0);
        mine.heartbeat = Date.now();
        set.run(KEY, JSON.stringify(mine));
      }).immediate();
    },
    release() {
      if (released) return;
      released = true;
      db.transaction(() => {
        if (read(db)?.token === mine.token) db.prepare<[string]>('DELETE FROM meta WHERE key = ?').run(KEY);
      }).immediate();
    },
  };
}

/**
 * Takes the lock, waiting (without blocking the event loop) while another run holds it;
 * `onWait` is told once, with the holder, so the caller can say why nothing moves.
 */
export async function acquireIndexLock(db: Db, onWait?: (holder: IndexBusyError) => void, signal?: AbortSignal): Promise<IndexLock> {
  let told = false;
  for (;;) {
    try {
      return tryAcquireIndexLock(db);
    } catch (error) {
      if (!(error instanceof IndexBusyError)) throw error;
      if (!told) onWait?.(error);
      told = true;
      if (signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
