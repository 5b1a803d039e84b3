import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

export interface FileCounts {
  /** Files read (a reader recognised them, not empty), by format: transcript, stream-json, sse. */
  files_by_format: Record<string, number>;
  /** Zero-byte or blank-only files: neither read nor failed (migration 019). */
  files_empty: number;
  /** Files that failed, by code. */
  files_refused_by_code: Record<string, number>;
  /** Of the files read, those read in salvage mode around damaged lines (migration 006): counted, and labelled. */
  files_salvaged: number;
  /** Files being written (a cut last line, modified within the quiet period): not read yet. */
  files_in_progress: number;
}

function prepare(db: Db) {
  return {
    // A transcript's format is stored as NULL (migration 015).
    formats: db.prepare<{ roots: string | null }, { format: string; n: number }>(`
      SELECT coalesce(format, 'transcript') AS format, count(*) AS n FROM files
      WHERE status = 'ok' AND empty = 0 AND (@roots IS NULL OR root_id IN (SELECT value FROM json_each(@roots)))
      GROUP BY 1`),
    empty: db.prepare<{ roots: string | null }, { n: number }>(`
      SELECT count(*) AS n FROM files
      WHERE status = 'ok' AND empty = 1 AND (@roots IS NULL OR root_id IN (SELECT value FROM json_each(@roots)))`),
    // Salvaged files kept after deletion (gone) are still salvaged: they are counted with their damage.
    salvagedAndInProgress: db.prepare<{ roots: string | null }, { salvaged: number | null; in_progress: number | null }>(`
      SELECT sum(status = 'ok' AND salvaged = 1) AS salvaged, sum(status = 'in_progress') AS in_progress FROM files
      WHERE @roots IS NULL OR root_id IN (SELECT value FROM json_each(@roots))`),
    refused: db.prepare<{ roots: string | null }, { code: string; n: number }>(`
      SELECT coalesce(error_code, 'unreadable') AS code, count(*) AS n FROM files
      WHERE status = 'failed' AND (@roots IS NULL OR root_id IN (SELECT value FROM json_each(@roots)))
      GROUP BY 1`),
  };
}

/** Files read per format, empty files, files refused per code (issue 37), salvaged and being written, over the chosen folders. */
export function getFileCounts(db: Db, roots: string | null): FileCounts {
  const st = prepared(db, prepare);
  const other = st.salvagedAndInProgress.get({ roots })!;
  return {
    files_salvaged: other.salvaged ?? 0,
    files_in_progress: other.in_progress ?? 0,
    files_by_format: Object.fromEntries(st.formats.all({ roots }).map((r) => [r.format, r.n])),
    files_empty: st.empty.get({ roots })!.n,
    files_refused_by_code: Object.fromEntries(st.refused.all({ roots }).map((r) => [r.code, r.n])),
  };
}
