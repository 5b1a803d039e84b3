import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type DemoOptions, type DemoTruth, generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';

/**
 * A fixture built once per `vitest run` and shared by every test file that asks for the same key:
 * built into this run's cache folder (test/support/global-setup.ts), then only read. Files run in
 * separate processes, side by side: the first to ask takes a lock (a folder: mkdir is atomic) and
 * builds into a folder of its own that it renames into place, so a reader never sees half a
 * fixture; the others wait for it (or build it themselves if its builder died). Outside a run with
 * that setup, built afresh into a temporary folder.
 */
export async function sharedFixture(key: string, build: (dir: string) => void | Promise<void>): Promise<string> {
  let root: string | undefined;
  try {
    root = inject('fixtureCache');
  } catch {
    root = undefined;
  }
  if (!root) {
    const dir = mkdtempSync(join(tmpdir(), 'tcf-fixture-'));
    await build(dir);
    return dir;
  }
  const dir = join(root, createHash('sha256').update(key).digest('hex').slice(0, 16));
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(dir)) return dir;
    try {
      mkdirSync(lock);
    } catch {
      // Another file is building it: wait, unless its process is gone (then its lock is stale).
      let owner = 0;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        owner = 0; // taken a moment ago, pid not written yet
      }
      if (owner > 0 && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const partial = `${dir}.${process.pid}.partial`;
      rmSync(partial, { recursive: true, force: true });
      mkdirSync(partial);
      await build(partial);
      renameSync(partial, dir);
      return dir;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The demo corpus of `options` (its folder, with `projects/`), and the generator's truth, built once per run. Read only. */
export async function demoCorpus(options: Omit<DemoOptions, 'out'>): Promise<{ dir: string; projects: string; truth: DemoTruth }> {
  const dir = await sharedFixture(`demo ${JSON.stringify(options)}`, (out) => {
    writeFileSync(join(out, 'truth.json'), JSON.stringify(generateDemoCorpus({ ...options, out })));
  });
  return { dir, projects: join(dir, 'projects'), truth: JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as DemoTruth };
}

/**
 * The demo corpus of `options`, indexed with the inline analyser, built once per run: returns the
 * caller's own copy of the index at `into`/index.db (it may write to it), and the shared corpus the
 * index's folder names (read only).
 */
export async function indexedDemoCorpus(options: Omit<DemoOptions, 'out'>, into: string): Promise<{ db: Db; projects: string; truth: DemoTruth }> {
  const corpus = await demoCorpus(options);
  const dir = await sharedFixture(`indexed-demo ${JSON.stringify(options)}`, async (out) => {
    const db = openDatabase(join(out, 'build.db'));
    try {
      addRoot(db, corpus.projects);
      await indexDatabase(db, { analyser: 'inline' });
      // A consistent snapshot in one file of its own, for the readers to copy: build.db itself may still be written after
      // close by a checkpoint the store started in a worker thread (server/store/database.ts), and a TRUNCATE checkpoint
      // that meets it gives up busy, leaving rows in -wal: copies then held part of the index, or were torn.
      db.prepare('VACUUM INTO ?').run(join(out, 'index.db'));
    } finally {
      db.close();
    }
  });
  mkdirSync(into, { recursive: true });
  copyFileSync(join(dir, 'index.db'), join(into, 'index.db'));
  return { db: openDatabase(join(into, 'index.db')), projects: corpus.projects, truth: corpus.truth };
}
