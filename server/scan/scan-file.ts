import type { Agent } from '../../shared/agents';
import type { FormatHint } from '../../shared/format-hints';
import type { ScanErrorCode } from '../../shared/scan-errors';
import type { AdapterContext, AdapterOutcome, AgentAdapter, RowsReader } from './agents/adapter';
import { DOCUMENT_ADAPTERS, ROWS_ADAPTERS } from './agents/adapter-registry';
import { claudeCodeAdapter } from './agents/claude-code';
import { GEMINI_MARKDOWN_HEADING } from './agents/gemini-cli';
import { openCodeAdapter } from './agents/opencode';
import { readStorageSession, storageSessionOf } from './agents/opencode-storage';
import { type BuiltDocument, readJsonDocument, viewIsExact } from './agents/read-document';
import { sniffFirstRow } from './format-sniff';
import type { TranscriptObserver } from './observers';
import { QUIET_PERIOD_MS, readJsonRows, type ScanFailure } from './read-json-rows';
import type { LineTable } from './read-lines';
import type { OpenedFile } from './safe-open';
import type { TranscriptFile } from './transcript-model';

export type { ScanFailure };

export type FileScan =
  /** `empty`: zero bytes or blank lines only (counted apart: neither clean with messages nor failed). */
  | {
      status: 'ok';
      transcript: TranscriptFile;
      lineStarts: LineTable;
      bytes: number;
      empty?: true;
      agent: Agent;
      version: string | null;
      /** A document built here (an OpenCode storage session): its bytes, which its lines and digests are of (not the file's). */
      text?: Buffer;
      /** A document built here that holds no text (a session of OpenCode's database): the digest of some of its lines. */
      digest?: (lines: readonly number[]) => string;
    }
  | { status: 'failed'; failure: ScanFailure; bytes: number }
  /** The last line is cut short (no \n, not yet a whole value): the file is still being written. */
  | { status: 'in_progress'; bytes: number; lines: number };

export interface ScanOptions {
  /**
   * Treat an unterminated last line that does not parse (or is cut inside a UTF-8 character)
   * as a file still being written rather than a failure. The index uses this; `scan` does not.
   */
  unfinishedLastLineMeansInProgress?: boolean;
  /** Overrides the quiet period after which a cut last line is a failure (tests). */
  quietPeriodMs?: number;
  /** The time the quiet period is measured from (default: the clock when the file is read). */
  now?: number;
  /**
   * Read the complete rows of damaged lines (two rows on one line, or a torn row before a
   * complete one) instead of failing the file; torn pieces are dropped, and every message a
   * dropped piece could belong to is marked `damaged` (counted nowhere). Off by default.
   */
  salvage?: boolean;
  /** Shown every accepted row (the detectors' own facts; see observers.ts). */
  observers?: readonly TranscriptObserver[];
  /** Row types known besides Claude Code's (a stream-json capture read as a transcript: `result`). */
  alsoKnownRowTypes?: ReadonlySet<string>;
  /**
   * A document built in memory to read instead of the file at `path` (a session of OpenCode's database,
   * issue 38: rebuilt from its rows by the thread that analyses it, never written to a file).
   */
  document?: BuiltDocument;
  /**
   * The file opens with a lone `{` or `[` (FileHead.documentStart, scan-capture.ts): read it as one document
   * first, skipping a line-by-line reading that would fail at its first line. The outcome is the same either way.
   */
  documentFirst?: boolean;
  /** The file already open (analyse-file.ts opens it once for every reader; it closes it). */
  opened?: OpenedFile;
}

/**
 * The messages a torn row dropped at `line` could have belonged to: the message with the last
 * row before the line, the message with the first row after it, and every earlier message with
 * a call that has no result anywhere (the torn row may have been that result).
 */
export function markDamaged(file: TranscriptFile, line: number): void {
  let before: TranscriptFile['messages'][number] | null = null;
  let beforeLine = 0;
  let after: TranscriptFile['messages'][number] | null = null;
  let afterLine = Number.POSITIVE_INFINITY;
  const answered = new Set(file.toolResults.map((r) => r.toolUseId));
  for (const m of file.messages) {
    for (const l of m.lines) {
      if (l < line && l > beforeLine) [before, beforeLine] = [m, l];
      if (l >= line && l < afterLine) [after, afterLine] = [m, l];
    }
    if (m.lines[0]! < line && m.toolUses.some((c) => !answered.has(c.id))) m.damaged = true;
  }
  if (before) before.damaged = true;
  if (after) after.damaged = true;
}

/** A file's first row or document, offered to each adapter in order; null when none claims it and nothing refuses it. */
function claim<A extends AgentAdapter>(adapters: readonly A[], first: unknown): { adapter: A } | { refuse: ScanErrorCode; hint?: FormatHint } | null {
  for (const adapter of adapters) {
    const r = adapter.recognise(first);
    if (r === 'mine') return { adapter };
    if (r !== 'not_mine') return r;
  }
  return null;
}

/** No adapter claimed the first row or document: Entire's compact transcript, or `unknown_format` with a hint when one fits. */
function unclaimed(first: unknown, line: number): ScanFailure {
  const verdict = sniffFirstRow(first);
  if (verdict.kind === 'entire_compact') return { code: 'entire_compact_transcript', line };
  if (verdict.kind === 'foreign') return { code: 'unknown_format', line, hint: verdict.hint };
  return { code: 'unknown_format', line };
}

/**
 * Reads one transcript and builds its model, failing closed at the first bad line (see
 * readJsonRows) or at a row whose structure the detectors rely on. The format is decided from the
 * content (issue 34): the adapters of the registry (agents/adapter-registry.ts) are offered the first
 * non-blank row; a file whose first line is not a JSON value on its own but which parses whole is
 * offered, as one document, to the document adapters.
 */
export function scanFile(path: string, options: ScanOptions = {}): FileScan {
  const context: AdapterContext = { observers: options.observers ?? [], alsoKnownRowTypes: options.alsoKnownRowTypes };
  // A session file of OpenCode's storage tree is read with its messages and parts (opencode-storage.ts).
  const storage = path.endsWith('.json') ? storageSessionOf(path) : null;
  if (storage) return scanStorageSession(storage, context, options);
  if (options.document) return readDocument(options.document, context);
  // Salvage reads a damaged first line's rows instead of failing at it: the usual order.
  const documentFirst = options.documentFirst === true && options.salvage !== true;
  if (documentFirst) {
    const document = scanDocument(path, context, options.opened);
    if (document !== null) return document;
  }
  let firstLine = 0;
  let reader: RowsReader | null = null;
  let failure: ScanFailure | null = null;
  const accept = (row: unknown, line: number) => {
    if (reader === null) {
      firstLine = line;
      const claimed = claim(ROWS_ADAPTERS, row);
      if (claimed === null) failure = unclaimed(row, line);
      else if ('refuse' in claimed) failure = { code: claimed.refuse, line, ...(claimed.hint ? { hint: claimed.hint } : {}) };
      else reader = claimed.adapter.start(context);
      if (reader === null) return 'invalid_structure' as const;
    }
    const verdict = reader.addRow(row, line);
    if (typeof verdict === 'string') return verdict;
    failure = verdict;
    return 'invalid_structure' as const;
  };
  let firstText: string | null = null;
  const jsonOf = (text: string) => {
    firstText ??= text;
    return text;
  };
  const rows = readJsonRows(path, { jsonOf, accept }, options);
  if (rows.status === 'failed' && failure !== null) return { status: 'failed', failure, bytes: rows.bytes };
  // The first non-blank line is not a JSON value on its own: the file may be one pretty-printed document.
  if (rows.status === 'failed' && firstLine === 0 && rows.failure.code === 'malformed_json') {
    const document = documentFirst ? null : scanDocument(path, context, options.opened);
    if (document !== null) return document;
    // Not JSON at all: Gemini CLI's Markdown export is recognised by its first line (a role heading), and refused.
    if (firstText !== null && GEMINI_MARKDOWN_HEADING.test(firstText))
      return { status: 'failed', failure: { code: 'gemini_text_only', line: rows.failure.line }, bytes: rows.bytes };
  }
  if (rows.status !== 'ok') return rows;
  const end = { lineCount: rows.lines, endsWithNewline: rows.endsWithNewline, salvaged: rows.salvaged };
  const read: AdapterOutcome = reader === null ? claudeCodeAdapter.start(context).finish(end) : (reader as RowsReader).finish(end);
  if (read.status === 'failed') return { status: 'failed', failure: read.failure, bytes: rows.bytes };
  const { transcript } = read;
  for (const s of rows.salvaged) if (s.stubDropped) markDamaged(transcript, s.line);
  const scan: FileScan = { status: 'ok', transcript, lineStarts: rows.lineStarts, bytes: rows.bytes, agent: read.agent, version: read.version };
  if (firstLine === 0 && rows.salvaged.length === 0) scan.empty = true;
  return scan;
}

/**
 * One session of OpenCode's storage tree, read as its export and handed to the OpenCode adapter. A
 * piece that fails stops the session at no line, naming the piece; for the index, a piece that does
 * not parse and was written within the quiet period is a session being written.
 */
function scanStorageSession(storage: { root: string; projectId: string; sessionId: string }, context: AdapterContext, options: ScanOptions): FileScan {
  const read = readStorageSession(storage.root, storage.projectId, storage.sessionId);
  if (read.status === 'failed') {
    const { code, piece } = read.failure;
    const quiet = (options.now ?? Date.now()) - read.mtimeMs > (options.quietPeriodMs ?? QUIET_PERIOD_MS);
    if (options.unfinishedLastLineMeansInProgress && !quiet && (code === 'malformed_json' || code === 'invalid_utf8'))
      return { status: 'in_progress', bytes: read.bytes, lines: 0 };
    return { status: 'failed', failure: { code, line: null, ...(piece ? { piece } : {}) }, bytes: read.bytes };
  }
  const outcome = openCodeAdapter.read(read.document, context);
  if (outcome.status === 'failed') return { status: 'failed', failure: outcome.failure, bytes: read.bytes };
  return {
    status: 'ok',
    transcript: outcome.transcript,
    lineStarts: read.lineStarts,
    bytes: read.bytes,
    agent: outcome.agent,
    version: outcome.version,
    text: read.text,
  };
}

/** The file read whole as one JSON document and handed to the document adapter that claims it; null when it is not one document. */
function scanDocument(path: string, context: AdapterContext, opened?: OpenedFile, exact = false): FileScan | null {
  const doc = readJsonDocument(path, opened, exact);
  if (doc.status === 'not_a_document') return null;
  if (doc.status === 'failed') return { status: 'failed', failure: doc.failure, bytes: doc.bytes };
  const scan = readDocument(doc, context);
  // Read through its Latin-1 view, the transcript hands on a string outside ASCII: read again, decoded (read-document.ts).
  if (doc.latin1View && scan.status === 'ok' && !viewIsExact(scan.transcript)) return scanDocument(path, context, opened, true);
  return scan;
}

/** A document, read or built, handed to the document adapter that claims it. */
function readDocument(doc: BuiltDocument, context: AdapterContext): FileScan {
  const line = doc.document.lineOf([]) ?? 1;
  const claimed = claim(DOCUMENT_ADAPTERS, doc.document.value);
  if (claimed === null) return { status: 'failed', failure: unclaimed(doc.document.value, line), bytes: doc.bytes };
  if ('refuse' in claimed)
    return { status: 'failed', failure: { code: claimed.refuse, line, ...(claimed.hint ? { hint: claimed.hint } : {}) }, bytes: doc.bytes };
  const read = claimed.adapter.read(doc.document, context);
  if (read.status === 'failed') return { status: 'failed', failure: read.failure, bytes: doc.bytes };
  const scan: FileScan = { status: 'ok', transcript: read.transcript, lineStarts: doc.lineStarts, bytes: doc.bytes, agent: read.agent, version: read.version };
  if (doc.text) scan.text = doc.text;
  if (doc.digest) scan.digest = doc.digest;
  return scan;
}
