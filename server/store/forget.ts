import type { Db } from './database';
import { rebuildDenominatorsOffThread } from './denominators-off-thread';
import { acquireIndexLock, tryAcquireIndexLock } from './index-lock';
import { prepareIndexStatements } from './index-statements';
import { dropFileRows, markChanged, rebuildDenominatorsIfNeeded } from './index-store';

/**
 * What `forget` removes (issue 27): the files matching every criterion given (at least one). The index keeps
 * the metadata of transcripts Claude Code deleted; forgetting is the user's explicit choice.
 */
export interface ForgetSelection {
  /** Every gone file (deleted on disk, kept in the index). */
  gone?: boolean;
  /** Files whose last message is before this UTC day (YYYY-MM-DD); files without a timestamp are never taken. */
  before?: string;
  /** One folder (the store's root id), removed ones included. */
  folderId?: number;
  /** One file by its path relative to its folder. */
  file?: string;
  /** One file by its id (DELETE /api/files/:id). */
  fileId?: number;
}

/** What a forget removes (dry run) or removed: counts only, never a name. */
export interface ForgetCounts {
  files: number;
  /** Of `files`, those no longer on disk. */
  files_gone: number;
  findings: number;
  assistant_messages: number;
  /** Folders removed with their history kept that are now empty, and so removed too. */
  folders: number;
}

function prepare(db: Db) {
  const where = `(@gone = 0 OR f.gone_ms IS NOT NULL)
      AND (@before_ms IS NULL OR (f.first_row_ms IS NOT NULL AND f.first_row_ms + coalesce(f.row_span_ms, 0) < @before_ms))
      AND (@root_id IS NULL OR f.root_id = @root_id)
      AND (@rel_path IS NULL OR (f.path_hash = path_hash(@rel_path) AND f.rel_path = @rel_path))
      AND (@file_id IS NULL OR f.id = @file_id)`;
  type Params = { gone: number; before_ms: number | null; root_id: number | null; rel_path: string | null; file_id: number | null };
  return {
    selected: db.prepare<Params, { id: number; gone: number; findings: number; assistant_messages: number }>(
      `SELECT f.id, f.gone_ms IS NOT NULL AS gone, f.findings, f.assistant_messages FROM files f WHERE ${where}`,
    ),
    deleteFile: db.prepare<[number]>('DELETE FROM files WHERE id = ?'),
    // A folder removed with its history kept, once nothing of it is left, goes too.
    emptyRemovedRoots: db.prepare<[], { id: number }>(
      'SELECT r.id FROM roots r WHERE r.removed_ms IS NOT NULL AND NOT EXISTS (SELECT 1 FROM files f WHERE f.root_id = r.id)',
    ),
    deleteRoot: db.prepare<[number]>('DELETE FROM roots WHERE id = ?'),
  };
}

function paramsOf(sel: ForgetSelection) {
  if (sel.before !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(sel.before)) throw new Error('before must be a day, YYYY-MM-DD');
  const beforeMs = sel.before === undefined ? null : Date.parse(`${sel.before}T00:00:00Z`);
  if (beforeMs !== null && Number.isNaN(beforeMs)) throw new Error('before must be a day, YYYY-MM-DD');
  return {
    gone: sel.gone ? 1 : 0,
    before_ms: beforeMs,
    root_id: sel.folderId ?? null,
    rel_path: sel.file ?? null,
    file_id: sel.fileId ?? null,
  };
}

/** True when the selection names at least one criterion (forget never means "everything" by omission). */
export function selectsSomething(sel: ForgetSelection): boolean {
  return sel.gone === true || sel.before !== undefined || sel.folderId !== undefined || sel.file !== undefined || sel.fileId !== undefined;
}

/** What `sel` would remove, without changing anything. */
export function forgetPreview(db: Db, sel: ForgetSelection): ForgetCounts {
  const rows = prepare(db).selected.all(paramsOf(sel));
  return countsOf(rows, 0);
}

function countsOf(rows: Array<{ gone: number; findings: number; assistant_messages: number }>, folders: number): ForgetCounts {
  return {
    files: rows.length,
    files_gone: rows.reduce((n, r) => n + r.gone, 0),
    findings: rows.reduce((n, r) => n + r.findings, 0),
    assistant_messages: rows.reduce((n, r) => n + r.assistant_messages, 0),
    folders,
  };
}

/**
 * Removes what `sel` names, in one transaction, then rebuilds the denominators as an index run's closing
 * transaction does (which copy of a message counts may move to another file). Holds the index lock meanwhile:
 * `wait` (the CLI) waits for a running index run; without it (the server) an `IndexBusyError` is thrown at once.
 */
export async function forgetFiles(db: Db, sel: ForgetSelection, options: { wait?: boolean } = {}): Promise<ForgetCounts> {
  if (!selectsSomething(sel)) throw new Error('name what to forget');
  const lock = options.wait ? await acquireIndexLock(db) : tryAcquireIndexLock(db);
  try {
    const fst = prepare(db);
    const st = prepareIndexStatements(db);
    const counts = db
      .transaction(() => {
        const rows = fst.selected.all(paramsOf(sel));
        for (const r of rows) {
          dropFileRows(st, r.id);
          fst.deleteFile.run(r.id);
        }
        const empty = fst.emptyRemovedRoots.all();
        for (const r of empty) fst.deleteRoot.run(r.id);
        if (rows.length > 0) markChanged(st);
        return countsOf(rows, empty.length);
      })
      .immediate();
    if (counts.files > 0) {
      await rebuildDenominatorsOffThread(db);
      db.transaction(() => {
        rebuildDenominatorsIfNeeded(st);
      }).immediate();
    }
    return counts;
  } finally {
    lock.release();
  }
}
