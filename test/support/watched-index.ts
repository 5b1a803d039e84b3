import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { liveWritesInThread } from '../../server/app/index-thread';
import { IndexRunner } from '../../server/index/index-runner';
import { RootWatcher } from '../../server/live/watch-folders';
import { type Db, openDatabase } from '../../server/store/database';
import { sqliteIndexStore } from '../../server/store/index-store';
import { addRoot } from '../../server/store/roots';

type WatcherOptions = NonNullable<ConstructorParameters<typeof RootWatcher>[2]>;

/**
 * A temporary folder for a watch test file and a way to make watched indexes in it, each indexed first and then
 * watched as `serve` does (writes through the server's writer thread unless `inlineWrites`); every database and
 * watcher is closed and the folder removed after the file's tests.
 */
export function watchedIndexes(prefix: string): {
  tmp: string;
  watched: (name: string, root: string, options?: WatcherOptions & { inlineWrites?: boolean }) => Promise<{ db: Db; watcher: RootWatcher }>;
} {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const open: Array<{ db: Db; watcher: RootWatcher }> = [];
  afterAll(async () => {
    for (const { db, watcher } of open) {
      await watcher.close();
      db.close();
    }
    rmSync(tmp, { recursive: true, force: true });
  });
  return {
    tmp,
    async watched(name, root, { inlineWrites = false, ...options } = {}) {
      const db = openDatabase(join(tmp, `${name}.db`));
      addRoot(db, root);
      await indexDatabase(db, { analyser: 'inline' });
      const writer = inlineWrites ? {} : { writer: liveWritesInThread(db) };
      const watcher = new RootWatcher(db, new IndexRunner(sqliteIndexStore(db), 'inline'), { debounceMs: 50, ...writer, ...options });
      await watcher.start();
      open.push({ db, watcher });
      return { db, watcher };
    },
  };
}
