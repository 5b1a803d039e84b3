import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

const prepare = (db: Db) => db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'index_id'`);

/** The index's opaque id (migration 022), or null in an index made before it that could not be upgraded. */
export function getIndexId(db: Db): string | null {
  return prepared(db, prepare).get()?.value ?? null;
}
