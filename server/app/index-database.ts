import { type IndexOptions, type IndexSummary, indexRoots } from '../index/index-folders';
import type { Db } from '../store/database';
import { type SqliteIndexStoreOptions, sqliteIndexStore } from '../store/index-store';

/**
 * Composition: an index run over a database (the CLI's `index`, the server's start-up index, tests).
 * `server/index/` never imports storage; this hands it the SQLite implementation of its IndexStore.
 */
export function indexDatabase(db: Db, options: IndexOptions = {}, storeOptions: SqliteIndexStoreOptions = {}): Promise<IndexSummary> {
  return indexRoots(sqliteIndexStore(db, storeOptions), options);
}
