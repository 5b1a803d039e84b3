import {
  closeSessionSource,
  copyDatabase,
  type DatabaseCopy,
  DatabaseReadError,
  databaseState,
  listSessions,
  type SessionReader,
  schemaDifference,
  sessionEntryName,
  sessionFingerprint,
  sessionReader,
  sessionSource,
} from '../scan/opencode-db';
import type { TranscriptEntry } from '../scan/walk-inputs';
import type { FilePlan } from './file-plan';
import type { IndexSummary } from './index-summary';
import type { IndexRoot, IndexStore, KnownFile } from './storage-port';

/** Longest stretch of synchronous work between two yields (plan-folder.ts's SLICE_MS). */
const SLICE_MS = 10;

export interface DatabasePlanContext {
  store: IndexStore;
  root: IndexRoot;
  summary: IndexSummary;
  plan: FilePlan;
  known: Map<string, KnownFile>;
  /** Writes a failed entry at once; false when the root was removed meanwhile. */
  writeFailed(relPath: string, code: string, hint?: string): boolean;
  yieldSoon(): Promise<void>;
}

/**
 * Plans one OpenCode database of a root (issue 38; server/scan/README.md "OpenCode's database").
 * Each session is an entry of its own, `<database>#<16 hex of the SHA-256 of its id>`. When the
 * database and its `-wal` are as the last run that read them left them (sizes, mtimes, inodes)
 * and the index still holds as many of its sessions, nothing is copied or read. Otherwise the
 * database is copied (opencode-db.ts), its schema checked, and each session whose `time_updated`
 * and message/part row counts differ from its entry is rebuilt as `opencode export` prints it,
 * into a private temporary folder the run reads like any file and deletes at its end. A session no
 * longer in the database is not seen, so planning keeps its entry as gone (issue 27). A database
 * that cannot be read is one failed entry (its code; for a schema that differs, a hint naming the
 * table or column), and its sessions read before are kept as they are, neither re-read nor gone.
 * False when the root was removed meanwhile.
 */
export async function planDatabase(ctx: DatabasePlanContext, entry: TranscriptEntry): Promise<boolean> {
  const { store, root, summary, plan, known } = ctx;
  const prefix = `${entry.name}#`;
  const entries = [...known.values()].filter((f) => f.rel_path.startsWith(prefix));
  // The database's own entry holds a failure of an earlier run, if any: replaced below, or dropped as gone when it reads.
  const keepAsTheyAre = () => {
    for (const f of entries) {
      known.delete(f.rel_path);
      if (f.gone) continue;
      summary.filesSeen++;
      summary.filesUnchanged++;
      if (f.status === 'failed') summary.filesFailed++;
    }
  };
  const fail = (error: unknown): boolean => {
    keepAsTheyAre();
    known.delete(entry.name);
    const e = error instanceof DatabaseReadError ? error : new DatabaseReadError('unreadable');
    store.saveDatabaseSource(root.id, entry.name, null);
    summary.filesSeen++;
    summary.filesFailed++;
    return ctx.writeFailed(entry.name, e.code, e.hint);
  };

  let state: string;
  try {
    state = databaseState(entry.path);
  } catch (error) {
    return fail(error);
  }
  const saved = store.databaseSource(root.id, entry.name);
  const present = entries.reduce((n, f) => (f.gone ? n : n + 1), 0);
  if (saved !== null && saved.state === state && saved.sessions === present && !known.has(entry.name)) {
    keepAsTheyAre();
    return true;
  }

  let copy: DatabaseCopy;
  try {
    copy = await copyDatabase(entry.path);
  } catch (error) {
    return fail(error);
  }
  // Kept open for the run when a session of it is planned: the analysing threads rebuild sessions from it.
  let planned = false;
  let reader: SessionReader | null = null;
  try {
    const differs = schemaDifference(copy.db);
    if (differs !== null) return fail(new DatabaseReadError('database_schema_unknown', differs));
    known.delete(entry.name);
    const sessions = listSessions(copy.db);
    reader = sessionReader(copy.db);
    let since = performance.now();
    for (const session of sessions) {
      if (performance.now() - since >= SLICE_MS) {
        await ctx.yieldSoon();
        since = performance.now();
      }
      summary.filesSeen++;
      const name = sessionEntryName(entry.name, session.id);
      const fingerprint = sessionFingerprint(session);
      const old = known.get(name);
      known.delete(name);
      if (old && old.fingerprint === fingerprint && old.mtime_ms === session.timeUpdated) {
        if (old.gone) {
          store.markBack(old, session.timeUpdated);
          summary.filesBack++;
        }
        summary.filesUnchanged++;
        if (old.status === 'failed') summary.filesFailed++;
        continue;
      }
      plan.add(root, {
        relPath: name,
        path: sessionSource(copy.path, session.id),
        size: reader.bytes(session.id),
        mtimeMs: session.timeUpdated,
        fingerprint,
        previousFindings: old?.findings ?? 0,
      });
      planned = true;
    }
    const count = sessions.length;
    plan.afterWrite.push(() => store.saveDatabaseSource(root.id, entry.name, { state, sessions: count }));
    return true;
  } catch (error) {
    return fail(error);
  } finally {
    if (planned)
      plan.cleanups.push(() => {
        closeSessionSource(copy.path);
        copy.close();
      });
    else copy.close();
  }
}
