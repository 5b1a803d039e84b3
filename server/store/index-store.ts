import { safeTimestamp } from '../../shared/metadata-patterns';
import type { IndexAnalysis, MessageCell } from '../index/analyse-for-index';
import type { FailedEntry, FileJob, IndexFailure, IndexStore, KnownFile } from '../index/storage-port';
import { type Db, describeDatabaseError } from './database';
import { rebuildDenominatorsOffThread } from './denominators-off-thread';
import { acquireIndexLock, tryAcquireIndexLock } from './index-lock';
import { type IndexStatements, prepareIndexStatements, type RootRow } from './index-statements';

/** Set by older builds when the denominators needed rebuilding; still honoured. */
const DIRTY = 'root_cells_dirty';
/** Bumped by every transaction that changes indexed rows. */
const CHANGED = 'rows_generation';
/** The generation the denominators were last rebuilt from. */
const REBUILT = 'root_cells_generation';

/**
 * The denominators are rebuilt at the end of a run when any change happened since they were
 * last built: every writing transaction bumps a generation number in the same transaction as
 * its change, and the rebuild records the generation it saw, in its own transaction. Whatever
 * the interleaving of runs, crashes or deletions, a change after a rebuild leaves the two
 * numbers different until a later rebuild, so none is ever lost (a "dirty" flag cleared by
 * whichever run finished first lost the other run's changes).
 */
export function markChanged(st: IndexStatements): void {
  st.setMeta.run(CHANGED, String(Number(st.getMeta.get(CHANGED)?.value ?? '0') + 1));
}

function needsRebuild(st: IndexStatements): boolean {
  return st.getMeta.get(DIRTY)?.value === '1' || (st.getMeta.get(CHANGED)?.value ?? '0') !== (st.getMeta.get(REBUILT)?.value ?? '0');
}

/**
 * The closing step of every run that changed rows (a full run, or the watcher's update of a few files), inside
 * the caller's transaction: per-root denominators and which copy of a message is counted, rebuilt from the
 * messages when any transaction changed rows since the last rebuild.
 */
export function rebuildDenominatorsIfNeeded(st: IndexStatements): boolean {
  if (!needsRebuild(st)) return false;
  st.clearRootCells.run();
  st.rebuildRootCells.run();
  st.countAllFindings.run();
  st.markCountedFindings.run();
  st.setMeta.run(DIRTY, '0');
  st.setMeta.run(REBUILT, st.getMeta.get(CHANGED)?.value ?? '0');
  return true;
}

export function dropFileRows(st: IndexStatements, fileId: number): void {
  st.deleteMessagesOfFile.run(fileId);
  st.deleteFindingsOfFile.run(fileId);
  st.deleteDiagnosticsOfFile.run(fileId);
  st.deleteTurnEndsOfFile.run(fileId);
}

/**
 * A file no longer on disk, inside the caller's transaction: an `ok` file keeps its rows, marked gone (issue 27:
 * Claude Code deletes old transcripts, the index keeps their metadata); a failed or in-progress file holds no
 * content, so its row goes (and the denominators are rebuilt). True when the file's rows were kept.
 */
export function markFileGone(st: IndexStatements, file: { id: number; status: string }): boolean {
  if (file.status === 'ok') {
    st.markFileGone.run(file.id);
    return true;
  }
  dropFileRows(st, file.id);
  st.deleteFile.run(file.id);
  markChanged(st);
  return false;
}

/** A diagnostics object as JSON, or null when it is empty (migration 015: most are). */
function jsonUnlessEmpty(counts: Record<string, number>): string | null {
  for (const _ in counts) return JSON.stringify(counts);
  return null;
}

/** An ISO timestamp the scanner checked (toISOString's form) as the UTC milliseconds the index stores. */
function timestampMs(value: string | null): number | null {
  return value === null ? null : Date.parse(value);
}

/**
 * The row of a file that has no content in the index (failed, or still being written): no messages,
 * findings, salvage, terminal reason or session end, so it is never counted as clean. One plain
 * object literal (not a spread of a shared base: see writeFileRows).
 */
function contentlessRow(
  rootId: number,
  relPath: string,
  size: number,
  mtimeMs: number,
  fingerprint: string,
  status: 'failed' | 'in_progress',
  code: string | null,
  line: number | null,
  indexedMs: number,
  formatHint: string | null = null,
) {
  return {
    root_id: rootId,
    rel_path: relPath,
    size,
    mtime_ms: mtimeMs,
    fingerprint,
    status,
    error_code: code,
    error_line: line,
    first_row_ms: null,
    row_span_ms: null,
    session_hash: null,
    sidechain: 0,
    assistant_messages: 0,
    findings: 0,
    indexed_ms: indexedMs,
    format: null,
    salvaged: 0,
    damage: null,
    terminal_reason: null,
    session_end: null,
    session_end_cell: null,
    format_hint: formatHint,
    empty: 0,
    agent: null,
    agent_version: null,
    model_messages: 0,
    tool_calls: 0,
    tool_results: 0,
  };
}

export function failedRow(rootId: number, relPath: string, size: number, mtimeMs: number, fingerprint: string, code: string, line: number | null, now: number) {
  return contentlessRow(rootId, relPath, size, mtimeMs, fingerprint, 'failed', code, line, now);
}

/**
 * Writes a file's row and gives its id. Rows are found by (folder, 64-bit path hash) (migration
 * 016): a second path of one folder with the same hash is refused, never written over the first.
 */
export function upsertFileRow(st: IndexStatements, row: Parameters<IndexStatements['upsertFile']['get']>[0]): number {
  const written = st.upsertFile.get(row);
  if (written === undefined) {
    throw new Error('two files of one folder share the first 64 bits of their path digest: this index cannot hold both (nothing was written)');
  }
  return written.id;
}

/** The cell of (day, version, model, thread, effort) of one file's agent (versions are per agent: migration 023). */
function cellIdFor(st: IndexStatements, cache: Map<string, number>, r: MessageCell, agent: string): number {
  const day = r.day ?? '';
  const version = r.version ?? '';
  const model = r.model ?? '';
  const sidechain = r.sidechain ? 1 : 0;
  const effort = r.effort ?? '';
  const key = `${day}|${version}|${model}|${sidechain}|${effort}|${agent}`;
  let id = cache.get(key);
  if (id === undefined) {
    id = st.cellId.get(day, version, model, sidechain, effort, agent)?.id ?? st.insertCell.get(day, version, model, sidechain, effort, agent)!.id;
    cache.set(key, id);
  }
  return id;
}

/**
 * Replaces everything the index holds for one file. Runs inside the caller's transaction.
 * False (nothing written) when the file's root was removed (by another process) since the walk.
 */
export function writeFileRows(st: IndexStatements, job: FileJob, analysis: IndexAnalysis): boolean {
  if (!st.rootById.get(job.rootId)) return false;
  // A transcript is NULL (nearly every row), a capture its format (migration 015).
  const format = analysis.status === 'ok' && analysis.format !== 'transcript' ? analysis.format : null;
  const indexedMs = Date.now();
  // Each statement's parameters as one plain object literal, not a spread of a shared base: at
  // 100,000 tiny files the spread copies survived scavenges (V8's object-clone path) and grew the
  // old generation by ~9 MB/s of garbage, to ~250 MB before each major collection.
  let fileId: number;
  if (analysis.status !== 'ok') {
    // Failed and in-progress files keep no messages and no findings: they are never counted as clean.
    const failed = analysis.status === 'failed';
    fileId = upsertFileRow(
      st,
      contentlessRow(
        job.rootId,
        job.relPath,
        job.size,
        job.mtimeMs,
        job.fingerprint,
        analysis.status,
        failed ? analysis.failure.code : null,
        failed ? analysis.failure.line : null,
        indexedMs,
        failed ? (analysis.failure.hint ?? null) : null,
      ),
    );
    dropFileRows(st, fileId);
  } else {
    const { facts, messages } = analysis;
    const firstMs = timestampMs(safeTimestamp(facts.firstTimestamp));
    const lastMs = timestampMs(safeTimestamp(facts.lastTimestamp));
    const damage = analysis.salvaged?.length ? JSON.stringify(analysis.salvaged.map((s) => ({ code: s.code, line: s.line, torn: s.stubDropped }))) : null;
    const cells = new Map<string, number>();
    // How the session ended; its message's version, model and day are stored as a cell (migration 015).
    const end = facts.sessionEnd;
    const agent = analysis.agent;
    const endCell = end
      ? cellIdFor(st, cells, { day: end.day, version: end.version, model: end.model, sidechain: facts.sidechain, effort: end.effort }, agent)
      : null;
    fileId = upsertFileRow(st, {
      root_id: job.rootId,
      rel_path: job.relPath,
      size: job.size,
      mtime_ms: job.mtimeMs,
      fingerprint: job.fingerprint,
      indexed_ms: indexedMs,
      format,
      status: 'ok',
      error_code: null,
      error_line: null,
      first_row_ms: firstMs,
      row_span_ms: firstMs === null || lastMs === null ? null : lastMs - firstMs,
      session_hash: facts.sessionHash,
      sidechain: facts.sidechain ? 1 : 0,
      assistant_messages: messages.hash.length - messages.synthetic.reduce((n, x) => n + x, 0),
      findings: analysis.findings.length,
      salvaged: damage === null ? 0 : 1,
      damage,
      terminal_reason: analysis.terminalReason ?? null,
      session_end: end?.end ?? null,
      session_end_cell: endCell,
      format_hint: null,
      empty: analysis.empty ? 1 : 0,
      agent,
      agent_version: analysis.agentVersion,
      model_messages: analysis.counts.modelMessages,
      tool_calls: analysis.counts.toolCalls,
      tool_results: analysis.counts.toolResults,
    });
    dropFileRows(st, fileId);
    for (const d of analysis.diagnostics ?? []) {
      st.insertDiagnostics.run(
        fileId,
        d.version ?? '',
        d.textRows,
        d.toolUseRows,
        jsonUnlessEmpty(d.unknownRowTypes),
        jsonUnlessEmpty(d.unknownBlockTypes),
        d.compactionSplits,
        d.callsOpenAtEnd,
        jsonUnlessEmpty(d.rejectedToolInput),
        jsonUnlessEmpty(d.unknownSystemSubtypes),
      );
    }
    for (const t of facts.turnEnds) {
      st.insertTurnEnds.run(fileId, cellIdFor(st, cells, t.cell, agent), t.end, t.apiErrorKind ?? '', t.last ? 1 : 0, t.count);
    }
    const cellIds = messages.cells.map((c) => cellIdFor(st, cells, c, agent));
    const capture = messages.capture ? 1 : 0;
    for (let i = 0; i < messages.hash.length; i++) {
      st.insertMessage.run(
        fileId,
        messages.hash[i]!,
        cellIds[messages.cell[i]!]!,
        messages.toolUse[i]!,
        messages.stopKnown[i]!,
        capture,
        messages.synthetic[i]!,
      );
    }
    for (const f of analysis.findings) {
      st.insertFinding.run({
        file_id: fileId,
        code: f.code,
        first_line: f.lines[0],
        last_line: f.lines[1],
        source_lines: JSON.stringify(f.sourceLines),
        evidence_sha256: f.evidenceSha256,
        cell_id: cellIdFor(st, cells, f, agent),
        block_types: JSON.stringify(f.blockTypes),
        signed_thinking: f.signedThinking ? 1 : 0,
        message_hash: f.messageHash,
        details: JSON.stringify(f.details),
      });
    }
  }
  markChanged(st);
  return true;
}

export interface SqliteIndexStoreOptions {
  /**
   * Rebuild the denominators in the closing transaction, on this thread, instead of first on a second
   * connection in a worker thread: for a caller with no event loop to keep free (the CLI), where that
   * thread's start, its own better-sqlite3 and connection cost ~0.1 s of CPU for nothing.
   */
  rebuildHere?: boolean;
}

/** The SQLite implementation of what an index run needs from storage (server/index/storage-port.ts). */
export function sqliteIndexStore(db: Db, options: SqliteIndexStoreOptions = {}): IndexStore {
  const st = prepareIndexStatements(db);
  const failuresOfRoot = db.prepare<[number], { file: string; code: string; line: number | null; hint: string | null }>(
    "SELECT rel_path AS file, coalesce(error_code, 'unreadable') AS code, error_line AS line, format_hint AS hint FROM files WHERE root_id = ? AND status = 'failed' ORDER BY rel_path",
  );
  const writeFailed = db.transaction((entry: FailedEntry, old: KnownFile | undefined): boolean => {
    if (!st.rootById.get(entry.rootId)) return false;
    if (old) dropFileRows(st, old.id);
    const row = failedRow(entry.rootId, entry.relPath, entry.size, entry.mtimeMs, entry.fingerprint, entry.code, null, Date.now());
    upsertFileRow(st, entry.hint === undefined ? row : { ...row, format_hint: entry.hint });
    markChanged(st);
    return true;
  }).immediate;
  const removeFiles = db.transaction((files: readonly KnownFile[]) => {
    for (const f of files) {
      dropFileRows(st, f.id);
      st.deleteFile.run(f.id);
    }
    markChanged(st);
  }).immediate;
  const markGone = db.transaction((files: readonly KnownFile[]) => {
    for (const f of files) markFileGone(st, f);
  }).immediate;
  const markBack = db.transaction((file: KnownFile, mtimeMs: number) => {
    st.markFileBack.run({ id: file.id, mtime_ms: mtimeMs });
  }).immediate;
  // One transaction for a writer's slice of files, not one per file: at 100,000 tiny files a commit
  // per file appended several WAL pages each (gigabytes of WAL, a checkpoint every second).
  const writeFiles = db.transaction(
    (files: Iterable<{ job: FileJob; analysis: IndexAnalysis }>, onWritten: (job: FileJob, analysis: IndexAnalysis, written: boolean) => void) => {
      for (const { job, analysis } of files) onWritten(job, analysis, writeFileRows(st, job, analysis));
    },
  ).immediate;
  return {
    acquireLock: (onWaiting) => acquireIndexLock(db, onWaiting),
    tryAcquireLock: () => tryAcquireIndexLock(db),
    startRun: (rootId, startedAt) => {
      // The caller holds the lock: any run still marked running belongs to a run that died.
      st.interruptStaleIndexRuns.run();
      return st.startIndexRun.get(rootId, startedAt)!.id;
    },
    roots: (ids) => (ids ? ids.map((id) => st.rootById.get(id)).filter((r): r is RootRow => r !== undefined) : st.allRoots.all()),
    describeError: (error) => {
      const known = describeDatabaseError(error);
      return known ? { code: known.code, message: known.message } : null;
    },
    knownFiles: (rootId, afterId, limit) => st.filesOfRootPage.all(rootId, afterId, limit),
    writeFailedEntry: (entry, old) => writeFailed(entry, old),
    databaseSource: (rootId, relPath) => st.databaseSource.get(rootId, relPath) ?? null,
    saveDatabaseSource: (rootId, relPath, source) => {
      if (source === null) st.forgetDatabaseSource.run(rootId, relPath);
      else st.saveDatabaseSource.run(rootId, relPath, source.state, source.sessions);
    },
    removeFiles: (files) => removeFiles(files),
    markGone: (files) => markGone(files),
    markBack: (file, mtimeMs) => markBack(file, mtimeMs),
    writeFiles: (files, onWritten) => writeFiles(files, onWritten),
    finishRun: async (runId, rootIds, totals, startedMs) => {
      // The rebuild sorts every message: on a second connection in a worker, not on this event loop
      // (the caller holds the index lock, so nothing writes rows meanwhile). The transaction below
      // then finds it done (or does it, if it could not run there).
      if (options.rebuildHere !== true) await rebuildDenominatorsOffThread(db);
      const now = new Date().toISOString();
      return db
        .transaction(() => {
          rebuildDenominatorsIfNeeded(st);
          for (const id of rootIds) st.touchRoot.run(now, id);
          const failures: IndexFailure[] = rootIds.flatMap((id) => {
            const label = st.rootById.get(id)?.label;
            // The hint only where there is one (unknown_format), so other failures keep their shape.
            return label === undefined
              ? []
              : failuresOfRoot.all(id).map(({ hint, ...r }) => (hint === null ? { root: label, ...r } : { root: label, ...r, hint }));
          });
          const durationMs = Date.now() - startedMs;
          st.finishIndexRun.run({
            id: runId,
            finished_at: now,
            duration_ms: durationMs,
            status: 'done',
            files_seen: totals.filesSeen,
            files_changed: totals.filesChanged,
            files_removed: totals.filesRemoved,
            files_failed: totals.filesFailed,
            bytes_read: totals.bytesRead,
            findings_added: totals.findingsAdded,
            findings_removed: totals.findingsRemoved,
          });
          return { failures, durationMs };
        })
        .immediate();
    },
  };
}
