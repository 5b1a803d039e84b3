import { closeSync } from 'node:fs';
import { safeTimestamp } from '../../shared/metadata-patterns';
import type { FileAnalysis, MessageCell } from '../detect/analyse-file';
import { QUIET_PERIOD_MS } from '../scan/read-json-rows';
import { OpenError, openRegularFile } from '../scan/safe-open';
import { type WalkResult, walkDirectoryAsync } from '../scan/walk-inputs';
import { type Analyser, inlineAnalyser, workerAnalyser } from './analysis-pool';
import type { Db } from './database';
import { rebuildDenominatorsOffThread } from './denominators-off-thread';
import { fingerprintOpenFile } from './file-fingerprint';
import { acquireIndexLock, type IndexBusyError, type IndexLock } from './index-lock';
import { type IndexStatements, prepareIndexStatements, type RootRow } from './index-statements';

export interface IndexProgress {
  phase: 'walking' | 'indexing' | 'finishing' | 'done';
  filesTotal: number;
  filesDone: number;
  bytesTotal: number;
  bytesDone: number;
  filesFailed: number;
  elapsedMs: number;
}

export interface IndexSummary {
  scanId: number;
  roots: number;
  filesSeen: number;
  filesUnchanged: number;
  filesChanged: number;
  filesRemoved: number;
  filesFailed: number;
  filesInProgress: number;
  /** Files read around damaged lines in salvage mode (labelled in the index). */
  filesSalvaged: number;
  bytesRead: number;
  findingsAdded: number;
  findingsRemoved: number;
  symlinksSkipped: number;
  durationMs: number;
  /** Files read in this run, by the format detected. */
  formats: Record<string, number>;
  /** Every file that failed (this run or an earlier one, unchanged since), by root label, in path order. */
  failures: Array<{ root: string; file: string; code: string; line: number | null }>;
  /** Roots removed (by another process) while this run indexed them; their files were dropped. */
  rootsRemoved: number;
  /** stream-json captures read in this run, by the terminal_reason of their result row (`none` when absent or odd). */
  terminalReasons: Record<string, number>;
}

export interface IndexOptions {
  /** Only these roots; all roots when absent. */
  rootIds?: number[];
  onProgress?: (progress: IndexProgress) => void;
  /** 'auto' starts worker threads only when there is enough to read to pay for them. */
  analyser?: 'auto' | 'workers' | 'inline';
  /**
   * The database's index lock, already taken (the server takes it before answering 202).
   * Without one, the run takes it, waiting while another run holds it.
   */
  lock?: IndexLock;
  /** Told once when another run holds the lock and this one waits for it. */
  onWaiting?: (holder: IndexBusyError) => void;
  /**
   * Read the complete rows of damaged files instead of failing them: for every root (true) or
   * per root (a per-folder setting). Files that failed before are read again when it is on.
   */
  salvage?: boolean | ((rootId: number) => boolean);
}

export interface Job {
  root: RootRow;
  relPath: string;
  path: string;
  size: number;
  mtimeMs: number;
  fingerprint: string;
  previousFindings: number;
}

const WORKERS_WORTH_BYTES = 16 * 1024 * 1024;
const BATCH_BYTES = 2 * 1024 * 1024;
/**
 * At most this many files per batch: a batch's results are deserialized on the writer's thread
 * in one go, and thousands of tiny files' results took that thread away for 100 ms and more.
 */
const BATCH_FILES = 200;

/** Set by older builds when the denominators needed rebuilding; still honoured. */
const DIRTY = 'root_cells_dirty';
/** Bumped by every transaction that changes indexed rows. */
const CHANGED = 'rows_generation';
/** The generation the denominators were last rebuilt from. */
const REBUILT = 'root_cells_generation';
const NO_SESSION_END = { end: null, version: null, model: null, day: null };

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

/** Longest stretch of synchronous work between two yields to the event loop. */
const SLICE_MS = 20;
const HEARTBEAT_MS = 30_000;

function yieldSoon(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Indexes roots incrementally: unchanged files (size, mtime, fingerprint) are not read again;
 * changed ones are analysed in worker threads and written by this thread, one transaction per
 * file, so a crash at any moment leaves a consistent database that the next run completes.
 */
export async function indexRoots(db: Db, options: IndexOptions = {}): Promise<IndexSummary> {
  const lock = options.lock ?? (await acquireIndexLock(db, options.onWaiting));
  try {
    return await indexLocked(db, options, lock);
  } finally {
    lock.release();
  }
}

/**
 * One run, holding the database's index lock: runs on one database are serialized, so two
 * never interleave their writes (and the generation numbers above keep the denominators
 * right even if they did).
 */
async function indexLocked(db: Db, options: IndexOptions, lock: IndexLock): Promise<IndexSummary> {
  const st = prepareIndexStatements(db);
  const started = Date.now();
  // We hold the lock: any scan still marked running belongs to a run that died.
  st.interruptStaleScans.run();
  const roots = options.rootIds ? options.rootIds.map((id) => st.rootById.get(id)).filter((r): r is RootRow => r !== undefined) : st.allRoots.all();
  const scanId = st.startScan.get(roots.length === 1 ? roots[0]!.id : null, new Date(started).toISOString())!.id;
  const summary: IndexSummary = {
    scanId,
    roots: roots.length,
    filesSeen: 0,
    filesUnchanged: 0,
    filesChanged: 0,
    filesRemoved: 0,
    filesFailed: 0,
    filesInProgress: 0,
    filesSalvaged: 0,
    bytesRead: 0,
    findingsAdded: 0,
    findingsRemoved: 0,
    symlinksSkipped: 0,
    durationMs: 0,
    formats: {},
    failures: [],
    rootsRemoved: 0,
    terminalReasons: {},
  };
  const progress: IndexProgress = { phase: 'walking', filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0, filesFailed: 0, elapsedMs: 0 };
  const report = () => options.onProgress?.({ ...progress, elapsedMs: Date.now() - started });
  report();

  let lastBeat = Date.now();
  const beat = () => {
    if (Date.now() - lastBeat < HEARTBEAT_MS) return;
    lock.heartbeat();
    lastBeat = Date.now();
  };
  // --salvage (true) or a caller's choice per root; without either, each folder's own setting (roots.salvage).
  const salvageOf = (rootId: number) =>
    typeof options.salvage === 'function'
      ? options.salvage(rootId)
      : options.salvage === true || (options.salvage === undefined && st.rootById.get(rootId)?.salvage === 1);
  const jobs: Job[] = [];
  for (const root of roots) jobs.push(...(await planRoot(db, st, root, summary, salvageOf(root.id))));
  // Largest first: one very long transcript cannot be split, so it starts at once while the
  // other cores share the rest.
  jobs.sort((a, b) => b.size - a.size);
  progress.phase = 'indexing';
  progress.filesTotal = jobs.length;
  progress.bytesTotal = jobs.reduce((n, j) => n + j.size, 0);
  report();

  const mode = options.analyser ?? 'auto';
  const useWorkers = mode === 'workers' || (mode === 'auto' && progress.bytesTotal >= WORKERS_WORTH_BYTES && jobs.length > 1);
  const analyser: Analyser = useWorkers ? workerAnalyser() : inlineAnalyser();
  const writeOne = db.transaction((job: Job, analysis: FileAnalysis) => writeFile(st, job, analysis, summary)).immediate;
  try {
    // Batches of about 2 MB (a big file travels alone): fewer round trips to the workers.
    const batches: Job[][] = [];
    let batch: Job[] = [];
    let batchBytes = 0;
    let since = performance.now();
    for (const job of jobs) {
      // 100,000 files took this loop 30-80 ms: yield like the walk and the writer do.
      if (performance.now() - since >= SLICE_MS) {
        await yieldSoon();
        since = performance.now();
      }
      if (batch.length > 0 && (!useWorkers || batchBytes + job.size > BATCH_BYTES || batch.length >= BATCH_FILES)) {
        batches.push(batch);
        batch = [];
        batchBytes = 0;
      }
      batch.push(job);
      batchBytes += job.size;
    }
    if (batch.length > 0) batches.push(batch);
    let next = 0;
    // Keep the pool's queue full, or the workers idle between round trips.
    const inFlight = useWorkers ? 16 : 1;
    // Results are written in plan order (whatever order the workers finish in), so two clean
    // indexes of the same folders give every row the same id and every list the same order.
    const ready = new Map<number, FileAnalysis[]>();
    let written = 0;
    let writing = false;
    // Back-pressure: analysis runs at most this many batches ahead of the writer, so results
    // waiting to be written (and the heap, and its GC pauses) stay bounded however many files.
    const maxAhead = inFlight * 2;
    const waiting: Array<() => void> = [];
    const roomAhead = async () => {
      while (next - written >= maxAhead) await new Promise<void>((resolve) => waiting.push(resolve));
    };
    const drain = async () => {
      if (writing) return;
      writing = true;
      try {
        let since = performance.now();
        while (ready.has(written)) {
          const group = batches[written]!;
          const analyses = ready.get(written)!;
          ready.delete(written);
          written++;
          for (const resolve of waiting.splice(0)) resolve();
          for (let i = 0; i < group.length; i++) {
            const job = group[i]!;
            const analysis = analyses[i]!;
            writeOne(job, analysis);
            progress.filesDone++;
            progress.bytesDone += job.size;
            if (analysis.status === 'failed') progress.filesFailed++;
            report();
            // A batch of thousands of tiny files must not hold the event loop (the server's).
            if (performance.now() - since >= SLICE_MS) {
              beat();
              await yieldSoon();
              since = performance.now();
            }
          }
        }
      } finally {
        writing = false;
      }
    };
    const lane = async () => {
      for (;;) {
        await roomAhead();
        if (next >= batches.length) return;
        const at = next++;
        const group = batches[at]!;
        ready.set(
          at,
          await analyser.analyse(
            group.map((j) => j.path),
            group.map((j) => salvageOf(j.root.id)),
          ),
        );
        await drain();
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    await drain();
  } finally {
    await analyser.close();
  }

  progress.phase = 'finishing';
  report();
  // The rebuild sorts every message: on a second connection in a worker, not on this event loop.
  // The transaction below then finds it done (or does it, if it could not run there).
  await rebuildDenominatorsOffThread(db);
  const now = new Date().toISOString();
  db.transaction(() => {
    rebuildDenominatorsIfNeeded(st);
    for (const root of roots) st.touchRoot.run(now, root.id);
    summary.failures = listFailures(db, roots);
    summary.durationMs = Date.now() - started;
    st.finishScan.run({
      id: scanId,
      finished_at: now,
      duration_ms: summary.durationMs,
      status: 'done',
      files_seen: summary.filesSeen,
      files_changed: summary.filesChanged,
      files_removed: summary.filesRemoved,
      files_failed: summary.filesFailed,
      bytes_read: summary.bytesRead,
      findings_added: summary.findingsAdded,
      findings_removed: summary.findingsRemoved,
    });
  }).immediate();
  progress.phase = 'done';
  report();
  return summary;
}

/** Failed files of these roots, for the summary (`index` lists them). */
function listFailures(db: Db, roots: readonly RootRow[]): IndexSummary['failures'] {
  const rows = db.prepare<[number], { file: string; code: string; line: number | null }>(
    "SELECT rel_path AS file, coalesce(error_code, 'unreadable') AS code, error_line AS line FROM files WHERE root_id = ? AND status = 'failed' ORDER BY rel_path",
  );
  return roots.flatMap((root) => rows.all(root.id).map((r) => ({ root: root.label, ...r })));
}

/** Size, mtime and fingerprint from one descriptor (a regular file, reached without links). */
function statAndFingerprint(path: string): { size: number; mtimeMs: number; fingerprint: string } {
  const { fd, stat } = openRegularFile(path);
  try {
    return { size: stat.size, mtimeMs: stat.mtimeMs, fingerprint: fingerprintOpenFile(fd, stat.size) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Walks one root, removes rows of files that are gone, and lists the files that must be read.
 * Yields to the event loop every SLICE_MS, so a server indexing 100,000 files stays responsive.
 */
async function planRoot(db: Db, st: IndexStatements, root: RootRow, summary: IndexSummary, salvage: boolean): Promise<Job[]> {
  const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
  await walkDirectoryAsync(root.path, '', walk, SLICE_MS);
  summary.symlinksSkipped += walk.symlinksSkipped;
  const known = new Map(st.filesOfRoot.all(root.id).map((f) => [f.rel_path, f]));
  const seen = new Set<string>();
  const jobs: Job[] = [];
  const now = new Date().toISOString();
  const rootGone = () => {
    if (st.rootById.get(root.id)) return false;
    summary.rootsRemoved++;
    return true;
  };
  // One failed entry, written at once; false when the root was removed meanwhile.
  const writeFailed = db.transaction((name: string, code: string, size: number, mtimeMs: number, fingerprint: string): boolean => {
    if (rootGone()) return false;
    const old = known.get(name);
    if (old) dropFileRows(st, old.id);
    st.upsertFile.run(failedRow(root.id, name, size, mtimeMs, fingerprint, code, null, now));
    markChanged(st);
    return true;
  }).immediate;

  // A folder that cannot be read (or an entry that is not a file) is a failed entry, so it is never silently left out.
  for (const problem of walk.problems) {
    seen.add(problem.name);
    if (!writeFailed(problem.name, problem.code, 0, 0, '')) return [];
    summary.filesFailed++;
  }

  let since = performance.now();
  for (const file of walk.files) {
    if (performance.now() - since >= SLICE_MS) {
      await yieldSoon();
      since = performance.now();
    }
    seen.add(file.name);
    summary.filesSeen++;
    const old = known.get(file.name);
    let size: number;
    let mtimeMs: number;
    let fingerprint: string;
    try {
      ({ size, mtimeMs, fingerprint } = statAndFingerprint(file.path));
    } catch (error) {
      if (!writeFailed(file.name, error instanceof OpenError ? error.problem : 'unreadable', 0, 0, '')) return [];
      summary.filesFailed++;
      continue;
    }
    // A file "being written" that has been quiet for the quiet period is read again, to fail it.
    const quiet = old?.status === 'in_progress' && Date.now() - mtimeMs > QUIET_PERIOD_MS;
    // With salvage on, a file that failed before is read again (it may now be salvaged).
    const retry = quiet || (salvage && old?.status === 'failed');
    if (old && !retry && old.size === size && old.mtime_ms === mtimeMs && old.fingerprint === fingerprint) {
      summary.filesUnchanged++;
      if (old.status === 'failed') summary.filesFailed++;
      if (old.status === 'in_progress') summary.filesInProgress++;
      continue;
    }
    jobs.push({ root, relPath: file.name, path: file.path, size, mtimeMs, fingerprint, previousFindings: old?.findings ?? 0 });
  }

  const gone = [...known.values()].filter((f) => !seen.has(f.rel_path));
  if (gone.length > 0) {
    db.transaction(() => {
      for (const f of gone) {
        summary.findingsRemoved += f.findings;
        dropFileRows(st, f.id);
        st.deleteFile.run(f.id);
      }
      markChanged(st);
    }).immediate();
    summary.filesRemoved += gone.length;
  }
  return jobs;
}

export function dropFileRows(st: IndexStatements, fileId: number): void {
  st.deleteMessagesOfFile.run(fileId);
  st.deleteFindingsOfFile.run(fileId);
  st.deleteDiagnosticsOfFile.run(fileId);
}

export function failedRow(rootId: number, relPath: string, size: number, mtimeMs: number, fingerprint: string, code: string, line: number | null, now: string) {
  return {
    root_id: rootId,
    rel_path: relPath,
    size,
    mtime_ms: mtimeMs,
    fingerprint,
    status: 'failed',
    error_code: code,
    error_line: line,
    first_row_at: null,
    last_row_at: null,
    session_hash: null,
    sidechain: 0,
    assistant_messages: 0,
    findings: 0,
    indexed_at: now,
    format: 'transcript',
  };
}

function cellIdFor(st: IndexStatements, cache: Map<string, number>, r: MessageCell): number {
  const day = r.day ?? '';
  const version = r.version ?? '';
  const model = r.model ?? '';
  const sidechain = r.sidechain ? 1 : 0;
  const key = `${day}|${version}|${model}|${sidechain}`;
  let id = cache.get(key);
  if (id === undefined) {
    id = st.cellId.get(day, version, model, sidechain)?.id ?? st.insertCell.get(day, version, model, sidechain)!.id;
    cache.set(key, id);
  }
  return id;
}

/** Replaces everything the index holds for one file. Runs inside one transaction. */
export function writeFile(st: IndexStatements, job: Job, analysis: FileAnalysis, summary: IndexSummary): void {
  // Removed (by another process) since the walk: nothing of it may come back.
  if (!st.rootById.get(job.root.id)) return;
  const now = new Date().toISOString();
  summary.filesChanged++;
  summary.bytesRead += analysis.bytes;
  summary.findingsRemoved += job.previousFindings;
  const format = analysis.status === 'ok' ? analysis.format : 'transcript';
  summary.formats[format] = (summary.formats[format] ?? 0) + 1;
  const base = { root_id: job.root.id, rel_path: job.relPath, size: job.size, mtime_ms: job.mtimeMs, fingerprint: job.fingerprint, indexed_at: now, format };
  let fileId: number;
  if (analysis.status !== 'ok') {
    // Failed and in-progress files keep no messages and no findings: they are never counted as clean.
    const failed = analysis.status === 'failed';
    if (failed) summary.filesFailed++;
    else summary.filesInProgress++;
    fileId = st.upsertFile.get({
      ...base,
      status: analysis.status,
      error_code: failed ? analysis.failure.code : null,
      error_line: failed ? analysis.failure.line : null,
      first_row_at: null,
      last_row_at: null,
      session_hash: null,
      sidechain: 0,
      assistant_messages: 0,
      findings: 0,
    })!.id;
    dropFileRows(st, fileId);
  } else {
    const facts = analysis.facts!;
    const messages = analysis.messages!;
    fileId = st.upsertFile.get({
      ...base,
      status: 'ok',
      error_code: null,
      error_line: null,
      first_row_at: safeTimestamp(facts.firstTimestamp),
      last_row_at: safeTimestamp(facts.lastTimestamp),
      session_hash: facts.sessionHash,
      sidechain: facts.sidechain ? 1 : 0,
      assistant_messages: messages.hash.length - messages.synthetic.reduce((n, x) => n + x, 0),
      findings: analysis.findings.length,
    })!.id;
    dropFileRows(st, fileId);
    for (const d of analysis.diagnostics ?? []) {
      st.insertDiagnostics.run(
        fileId,
        d.version ?? '',
        d.textRows,
        d.toolUseRows,
        JSON.stringify(d.unknownRowTypes),
        JSON.stringify(d.unknownBlockTypes),
        d.compactionSplits,
        d.callsOpenAtEnd,
        JSON.stringify(d.rejectedToolInput),
        JSON.stringify(d.unknownSystemSubtypes),
      );
    }
    const damage = analysis.salvaged?.length ? JSON.stringify(analysis.salvaged.map((s) => ({ code: s.code, line: s.line, torn: s.stubDropped }))) : null;
    st.setFileExtras.run(damage === null ? 0 : 1, damage, analysis.terminalReason ?? null, fileId);
    if (damage !== null) summary.filesSalvaged++;
    if (analysis.format === 'stream-json') {
      const reason = analysis.terminalReason ?? 'none';
      summary.terminalReasons[reason] = (summary.terminalReasons[reason] ?? 0) + 1;
    }
    const cells = new Map<string, number>();
    const cellIds = messages.cells.map((c) => cellIdFor(st, cells, c));
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
        cell_id: cellIdFor(st, cells, f),
        block_types: JSON.stringify(f.blockTypes),
        signed_thinking: f.signedThinking ? 1 : 0,
        message_hash: f.messageHash,
        details: JSON.stringify(f.details),
      });
    }
    summary.findingsAdded += analysis.findings.length;
  }
  st.setSessionEnd.run((analysis.status === 'ok' ? analysis.facts?.sessionEnd : null) ?? NO_SESSION_END, fileId);
  markChanged(st);
}
