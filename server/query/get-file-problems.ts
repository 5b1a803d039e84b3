import type { FileProblem } from '../../shared/api-schemas';
import type { Db } from '../store/database';

const cache = new WeakMap<Db, ReturnType<typeof prepare>>();

function prepare(db: Db) {
  return db.prepare<{ statuses: string; roots: string | null }, Omit<FileProblem, 'indexed_at'> & { indexed_ms: number }>(`
    SELECT f.id, f.root_id AS folder_id, r.label AS folder, f.rel_path AS file, f.status, f.error_code, f.error_line, f.size, f.indexed_ms
    FROM files f JOIN roots r ON r.id = f.root_id
    WHERE f.status IN (SELECT value FROM json_each(@statuses))
      AND (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
    ORDER BY f.status, r.label, f.rel_path`);
}

/** Files that failed or are still being written, so nothing fails silently. */
export function getFileProblems(db: Db, status: 'failed' | 'in_progress' | 'problems', folderIds?: number[]): FileProblem[] {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  const statuses = status === 'problems' ? ['failed', 'in_progress'] : [status];
  // indexed_ms: UTC milliseconds (migration 015), shown as the ISO timestamp it replaced.
  return st
    .all({ statuses: JSON.stringify(statuses), roots: folderIds?.length ? JSON.stringify(folderIds) : null })
    .map(({ indexed_ms, ...r }) => ({ ...r, indexed_at: new Date(indexed_ms).toISOString() }));
}
