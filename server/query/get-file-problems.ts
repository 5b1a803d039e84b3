import type { FileProblem, FileUnknownRows } from '../../shared/api-schemas';
import { FORMAT_HINTS } from '../../shared/format-hints';
import { SCAN_ERROR_CODES } from '../../shared/scan-errors';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

function prepare(db: Db) {
  return {
    problems: prepareProblems(db),
    // Salvaged files (migration 006: salvaged, and damage as a JSON array of {code, line, torn}), gone ones included:
    // they are counted, so they are listed; the first damaged line names the code and line.
    salvaged: db.prepare<
      { roots: string | null },
      Omit<FileProblem, 'indexed_at' | 'gone_since' | 'first_day'> & { indexed_ms: number; gone_ms: number | null; first_row_ms: number | null }
    >(`
      SELECT f.id, f.root_id AS folder_id, r.label AS folder, f.rel_path AS file, f.agent, 'salvaged' AS status,
             json_extract(f.damage, '$[0].code') AS error_code, json_extract(f.damage, '$[0].line') AS error_line,
             coalesce(json_array_length(f.damage), 0) AS damaged_lines,
             f.size, f.indexed_ms, NULL AS gone_ms, NULL AS first_row_ms, NULL AS format_hint
      FROM files f JOIN roots r ON r.id = f.root_id
      WHERE f.status = 'ok' AND f.salvaged = 1 AND (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
      ORDER BY r.label, f.rel_path`),
  };
}

function prepareProblems(db: Db) {
  return db.prepare<
    { statuses: string; gone: number; roots: string | null },
    Omit<FileProblem, 'indexed_at' | 'gone_since' | 'first_day'> & { indexed_ms: number; gone_ms: number | null; first_row_ms: number | null }
  >(`
    SELECT f.id, f.root_id AS folder_id, r.label AS folder, f.rel_path AS file, f.agent, iif(f.gone_ms IS NULL, f.status, 'gone') AS status,
           f.error_code, f.error_line, f.size, f.indexed_ms, f.gone_ms, f.first_row_ms, f.format_hint
    FROM files f JOIN roots r ON r.id = f.root_id
    WHERE (@gone = 1 AND f.gone_ms IS NOT NULL OR @gone = 0 AND f.gone_ms IS NULL AND f.status IN (SELECT value FROM json_each(@statuses)))
      AND (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
    ORDER BY f.status, r.label, f.rel_path`);
}

/**
 * Files that failed or are still being written, so nothing fails silently; or (status gone) the transcripts deleted
 * on disk whose metadata is kept; or (status salvaged) the files read around damaged lines, so damage stays visible.
 */
export function getFileProblems(db: Db, status: 'failed' | 'in_progress' | 'problems' | 'gone' | 'salvaged', folderIds?: number[]): FileProblem[] {
  const st = prepared(db, prepare);
  const statuses = status === 'problems' ? ['failed', 'in_progress'] : [status];
  const roots = folderIds?.length ? JSON.stringify(folderIds) : null;
  // indexed_ms: UTC milliseconds (migration 015), shown as the ISO timestamp it replaced.
  return (
    status === 'salvaged' ? st.salvaged.all({ roots }) : st.problems.all({ statuses: JSON.stringify(statuses), gone: status === 'gone' ? 1 : 0, roots })
  ).map(({ indexed_ms, gone_ms, first_row_ms, format_hint, ...r }) => ({
    ...r,
    indexed_at: new Date(indexed_ms).toISOString(),
    gone_since: gone_ms === null ? null : new Date(gone_ms).toISOString(),
    first_day: gone_ms === null || first_row_ms === null ? null : new Date(first_row_ms).toISOString().slice(0, 10),
    // Only a name of the fixed vocabulary leaves the index.
    format_hint: format_hint !== null && Object.hasOwn(FORMAT_HINTS, format_hint) ? format_hint : null,
    // A salvaged file's damage is read from a JSON column: only a scan error code leaves the index.
    ...(r.status === 'salvaged' && !(SCAN_ERROR_CODES as readonly string[]).includes(r.error_code ?? '') ? { error_code: null } : {}),
  }));
}

function prepareUnknown(db: Db) {
  return {
    rows: db.prepare<{ roots: string | null }, { id: number; folder_id: number; folder: string; file: string; agent: string | null; types: string }>(`
      SELECT f.id, f.root_id AS folder_id, r.label AS folder, f.rel_path AS file, f.agent, json_group_array(d.unknown_row_types) AS types
      FROM file_diagnostics d JOIN files f ON f.id = d.file_id JOIN roots r ON r.id = f.root_id
      WHERE d.unknown_row_types IS NOT NULL AND f.status = 'ok'
        AND (@roots IS NULL OR f.root_id IN (SELECT value FROM json_each(@roots)))
      GROUP BY f.id
      ORDER BY r.label, f.rel_path`),
    empty: db.prepare<{ roots: string | null }, { n: number }>(`
      SELECT count(*) AS n FROM files
      WHERE status = 'ok' AND empty = 1 AND (@roots IS NULL OR root_id IN (SELECT value FROM json_each(@roots)))`),
  };
}

/** The most files with unknown row types /api/files lists. */
export const UNKNOWN_ROWS_LIMIT = 500;

/** Files read that hold rows of unknown types (by name, summed over versions), most such rows first; and the empty files' count. */
export function getFileUnknownRows(db: Db, folderIds?: number[]): { unknown_rows: FileUnknownRows[]; files_empty: number } {
  const st = prepared(db, prepareUnknown);
  const roots = folderIds?.length ? JSON.stringify(folderIds) : null;
  const rows = st.rows.all({ roots }).map(({ types, ...r }) => {
    const byName = new Map<string, number>();
    for (const json of JSON.parse(types) as string[]) {
      for (const [type, n] of Object.entries(JSON.parse(json) as Record<string, number>)) byName.set(type, (byName.get(type) ?? 0) + n);
    }
    const unknown_row_types = [...byName].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1));
    return { ...r, unknown_row_types, total: unknown_row_types.reduce((n, t) => n + t.count, 0) };
  });
  rows.sort((a, b) => b.total - a.total);
  return {
    unknown_rows: rows.slice(0, UNKNOWN_ROWS_LIMIT).map(({ total: _, ...r }) => r),
    files_empty: st.empty.get({ roots })!.n,
  };
}
