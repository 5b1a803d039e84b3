import type { Folder } from '../../shared/api-schemas';
import type { Db } from '../store/database';
import { prepared } from '../store/prepared';

type FolderRow = Omit<Folder, 'gone_oldest_day' | 'cleanup_note' | 'removed_at'> & {
  gone_oldest_ms: number | null;
  oldest_on_disk_ms: number | null;
  removed_ms: number | null;
};

const DAY_MS = 86_400_000;
/** Claude Code's default cleanupPeriodDays, and how close to it a folder's oldest transcript must be for the page to explain it. */
export const CLEANUP_DEFAULT_DAYS = 30;
const CLEANUP_NOTE_AFTER_DAYS = 25;

/**
 * Whether the page explains cleanupPeriodDays for a folder (issue 27): its oldest transcript on disk was last
 * written 25 days ago or more (Claude Code deletes by age, 30 days by default), and the index holds gone
 * transcripts older than it, or none is gone yet and the folder looks like Claude Code's own (~/.claude/projects).
 */
export function cleanupNote(row: { path: string; files_gone: number; gone_oldest_ms: number | null; oldest_on_disk_ms: number | null }, now: number): boolean {
  if (row.oldest_on_disk_ms === null || now - row.oldest_on_disk_ms < CLEANUP_NOTE_AFTER_DAYS * DAY_MS) return false;
  if (row.files_gone > 0) return row.gone_oldest_ms !== null && row.gone_oldest_ms < row.oldest_on_disk_ms;
  return /[\\/]\.claude[\\/]projects[\\/]?$/.test(row.path);
}

function prepare(db: Db) {
  return db.prepare<[], FolderRow>(`
    SELECT r.id, r.label, r.path, r.added_at, r.last_scan_at AS last_indexed_at, r.salvage = 1 AS salvage, r.removed_ms,
           count(f.id) AS files, coalesce(sum(f.status = 'failed'), 0) AS files_failed,
           coalesce(sum(f.status = 'in_progress'), 0) AS files_in_progress,
           count(f.gone_ms) AS files_gone,
           min(iif(f.gone_ms IS NULL, NULL, f.first_row_ms)) AS gone_oldest_ms,
           min(iif(f.gone_ms IS NULL AND f.status = 'ok', f.mtime_ms, NULL)) AS oldest_on_disk_ms
    FROM roots r LEFT JOIN files f ON f.root_id = r.id
    GROUP BY r.id ORDER BY r.id`);
}

function prepareExists(db: Db) {
  return db.prepare<[number], 1>('SELECT 1 FROM roots WHERE id = ?').pluck();
}

/** Whether a folder (the store's root) with this id was added. */
export function folderExists(db: Db, id: number): boolean {
  const st = prepared(db, prepareExists);
  return st.get(id) !== undefined;
}

/** The owner's folders (the store's roots), with their absolute paths (this is the one place a path is shown). */
export function getFolders(db: Db): Folder[] {
  const st = prepared(db, prepare);
  const now = Date.now();
  return st.all().map(({ gone_oldest_ms, oldest_on_disk_ms, removed_ms, ...r }) => ({
    ...r,
    removed_at: removed_ms === null ? null : new Date(removed_ms).toISOString(),
    salvage: Boolean(r.salvage),
    gone_oldest_day: gone_oldest_ms === null ? null : new Date(gone_oldest_ms).toISOString().slice(0, 10),
    cleanup_note: removed_ms === null && cleanupNote({ path: r.path, files_gone: r.files_gone, gone_oldest_ms, oldest_on_disk_ms }, now),
  }));
}
