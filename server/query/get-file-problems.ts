import type { FileProblem } from '../../shared/api-schemas';
import type { Db } from '../store/database';

const cache = new WeakMap<Db, ReturnType<typeof prepare>>();

function prepare(db: Db) {
  return db.prepare<
    { statuses: string; gone: number; roots: string | null },
    Omit<FileProblem, 'indexed_at' | 'gone_since' | 'first_day'> & { indexed_ms: number; gone_ms: number | null; first_row_ms: number | null }
  >(`
    SELECT f.id, f.root_id AS folder_id, r.label AS folder, f.rel_path AS file, iif(f.gone_ms IS NULL, f.status, 'gone') AS status,
           f.error_code, f.error_line, f.size, f.indexed_ms, f.gone_ms, f.first_row_ms
    FROM files f JOIN roots r ON r.id = f.root_id
    WHERE (@gone = 1 AND f.gone_ms IS NOT NULL OR @gone = 0 AND f.gone_ms IS NULL AND f.status IN (SELECT value FROM json_each(@statuses)))
      AND (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
    ORDER BY f.status, r.label, f.rel_path`);
}

/** Files that failed or are still being written, so nothing fails silently; or (status gone) the transcripts deleted on disk whose metadata is kept. */
export function getFileProblems(db: Db, status: 'failed' | 'in_progress' | 'problems' | 'gone', folderIds?: number[]): FileProblem[] {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  const statuses = status === 'problems' ? ['failed', 'in_progress'] : [status];
  // indexed_ms: UTC milliseconds (migration 015), shown as the ISO timestamp it replaced.
  return st
    .all({ statuses: JSON.stringify(statuses), gone: status === 'gone' ? 1 : 0, roots: folderIds?.length ? JSON.stringify(folderIds) : null })
    .map(({ indexed_ms, gone_ms, first_row_ms, ...r }) => ({
      ...r,
      indexed_at: new Date(indexed_ms).toISOString(),
      gone_since: gone_ms === null ? null : new Date(gone_ms).toISOString(),
      first_day: gone_ms === null || first_row_ms === null ? null : new Date(first_row_ms).toISOString().slice(0, 10),
    }));
}
