import type { Folder } from '../../shared/api-schemas';
import type { Db } from '../store/database';

const cache = new WeakMap<Db, ReturnType<typeof prepare>>();

function prepare(db: Db) {
  return db.prepare<[], Folder>(`
    SELECT r.id, r.label, r.path, r.added_at, r.last_scan_at AS last_indexed_at, r.salvage = 1 AS salvage,
           count(f.id) AS files, coalesce(sum(f.status = 'failed'), 0) AS files_failed,
           coalesce(sum(f.status = 'in_progress'), 0) AS files_in_progress
    FROM roots r LEFT JOIN files f ON f.root_id = r.id
    GROUP BY r.id ORDER BY r.id`);
}

const exists = new WeakMap<Db, ReturnType<typeof prepareExists>>();

function prepareExists(db: Db) {
  return db.prepare<[number], 1>('SELECT 1 FROM roots WHERE id = ?').pluck();
}

/** Whether a folder (the store's root) with this id was added. */
export function folderExists(db: Db, id: number): boolean {
  let st = exists.get(db);
  if (!st) exists.set(db, (st = prepareExists(db)));
  return st.get(id) !== undefined;
}

/** The owner's folders (the store's roots), with their absolute paths (this is the one place a path is shown). */
export function getFolders(db: Db): Folder[] {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  return st.all().map((r) => ({ ...r, salvage: Boolean(r.salvage) }));
}
