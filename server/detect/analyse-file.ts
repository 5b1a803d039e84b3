import { createHash } from 'node:crypto';
import type { FindingCode } from '../../shared/finding-codes';
import type { SessionEnd } from '../../shared/session-ends';
import type { CaptureFile } from '../scan/capture-model';
import { digestLines } from '../scan/evidence-digest';
import { detectFormat, type FileFormat, scanCapture } from '../scan/scan-capture';
import { type ScanFailure, scanFile } from '../scan/scan-file';
import type { AssistantMessage, SalvagedLine, TranscriptFile, VersionDiagnostics } from '../scan/transcript-model';
import { withCallDiagnostics } from './call-diagnostics';
import { startDetectors } from './run-detectors';
import { classifySessionEnd } from './session-end';

/** A finding as it leaves the scanner: metadata and a digest, nothing a transcript said. */
export interface FindingRecord {
  code: FindingCode;
  /** First and last source line. */
  lines: [number, number];
  sourceLines: number[];
  evidenceSha256: string;
  model: string | null;
  blockTypes: string[];
  signedThinking: boolean;
  day: string | null;
  version: string | null;
  sidechain: boolean;
  /** 64-bit hash of the message id, to count a message copied into several files once. */
  messageHash: bigint;
  /** Detector-specific metadata (codes, counts, fixed list entries). */
  details: Record<string, string | number | boolean>;
}

/** The (day, version, model, thread) a message is counted under. */
export interface MessageCell {
  day: string | null;
  version: string | null;
  model: string | null;
  sidechain: boolean;
}

/**
 * A file's assistant messages, reduced to what rates need, as parallel typed arrays: they
 * cross from a worker thread to the writer far cheaper than one object per message.
 * Harness-written (synthetic) messages are kept, flagged: they count in no rate's denominator,
 * only as their own number, and a copy of one in several files still counts once.
 */
export interface MessageTable {
  cells: MessageCell[];
  /** Per message: index into `cells`. */
  cell: Uint32Array;
  /** Per message: 64-bit hash of message.id, to count a message copied into several files once. */
  hash: BigInt64Array;
  /**
   * Per message: 1 for a tool-use turn: its stop reason is tool_use, or unknown (null on every
   * row, as 2.1.12–2.1.52 write it) and it holds a tool_use block.
   */
  toolUse: Uint8Array;
  /** Per message: 1 when some row recorded a stop reason. */
  stopKnown: Uint8Array;
  /** Per message: 1 when the harness wrote it (`<synthetic>` model or isApiErrorMessage). */
  synthetic: Uint8Array;
  /** Every message of the table was read from a stream capture (stream-json or SSE). */
  capture: boolean;
}

/** A tool-use turn: the stop reason says tool_use, or no row recorded one and the message calls a tool. */
export function isToolUseTurn(stopReason: string | null, hasToolUse: boolean): boolean {
  return stopReason === 'tool_use' || (stopReason === null && hasToolUse);
}

export interface FileFacts {
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** SHA-256 (hex, 16 chars) of the session id; the id itself never leaves. */
  sessionHash: string | null;
  sidechain: boolean;
  /** How the last turn ended, with the version, model and day of its message (null for captures and sessions without one). */
  sessionEnd: SessionEndFact | null;
}

export interface SessionEndFact {
  end: SessionEnd;
  version: string | null;
  model: string | null;
  day: string | null;
}

export type FileAnalysis =
  | {
      status: 'ok';
      /** Transcript, or a stream capture (stream-json NDJSON or raw SSE). */
      format: FileFormat;
      bytes: number;
      lineCount: number;
      endsWithNewline: boolean;
      assistantMessages: number;
      findings: FindingRecord[];
      /** Present when asked for (the index); `scan` does not need them. */
      messages?: MessageTable;
      facts?: FileFacts;
      /** Per version: unknown types, and the call diagnostics (compaction splits, calls open at the end, rejected input). */
      diagnostics?: VersionDiagnostics[];
      /** Salvage mode: the damaged lines read around; absent or empty when the file was whole. */
      salvaged?: SalvagedLine[];
      /** stream-json captures: the `terminal_reason` of the `result` row, when it passes the pattern. */
      terminalReason?: string | null;
    }
  | { status: 'failed'; bytes: number; failure: ScanFailure }
  | { status: 'in_progress'; bytes: number; lines: number };

export interface AnalyseOptions {
  /** Also return per-message records and file facts, and treat a cut last line as in progress. */
  forIndex?: boolean;
  /** Read the complete rows of damaged lines instead of failing the file (the user's explicit choice). */
  salvage?: boolean;
  /** The time a cut last line's quiet period is measured from (default: the clock when the file is read). */
  now?: number;
}

/**
 * 64 bits from two independent 32-bit FNV-1a style hashes of the message id. Not a security
 * property (ids are random and only compared within one local index): cheap enough to run
 * on every message, and collisions are negligible at the counts an index holds.
 */
export function hashMessageId(messageId: string): bigint {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ messageId.length;
  for (let i = 0; i < messageId.length; i++) {
    const c = messageId.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return BigInt.asIntN(64, (BigInt(h1 >>> 0) << 32n) | BigInt(h2 >>> 0));
}

function shortHash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

function messageTable(messages: readonly AssistantMessage[]): MessageTable {
  const table: MessageTable = {
    cells: [],
    cell: new Uint32Array(messages.length),
    hash: new BigInt64Array(messages.length),
    toolUse: new Uint8Array(messages.length),
    stopKnown: new Uint8Array(messages.length),
    synthetic: new Uint8Array(messages.length),
    capture: false,
  };
  const index = new Map<string, number>();
  messages.forEach((m, i) => {
    // `<synthetic>` is the harness's name, not a model: its rows go under the unknown model.
    const model = m.synthetic && m.model === '<synthetic>' ? null : m.model;
    const key = `${m.day}|${m.version}|${model}|${m.sidechain}`;
    let c = index.get(key);
    if (c === undefined) {
      c = table.cells.length;
      index.set(key, c);
      table.cells.push({ day: m.day, version: m.version, model, sidechain: m.sidechain });
    }
    table.cell[i] = c;
    table.hash[i] = hashMessageId(m.messageId);
    table.toolUse[i] = !m.synthetic && isToolUseTurn(m.stopReason, m.toolUses.length > 0) ? 1 : 0;
    table.stopKnown[i] = !m.synthetic && m.stopReason !== null ? 1 : 0;
    table.synthetic[i] = m.synthetic ? 1 : 0;
  });
  return table;
}

/** A stream capture: replay its events, run the capture detectors, digest each finding's lines. */
function analyseCapture(path: string, format: 'stream-json' | 'sse', options: AnalyseOptions): FileAnalysis {
  const detectors = startDetectors('capture');
  const scan = scanCapture(path, format, { unfinishedLastLineMeansInProgress: options.forIndex === true, now: options.now, observers: detectors.observers });
  if (scan.status !== 'ok') return scan;
  const { capture, lineStarts } = scan;
  const blockTypes = (m: CaptureFile['messages'][number]) => [...new Set(m.blocks.map((b) => b.type))];
  let findings: FindingRecord[];
  try {
    findings = detectors.detect(capture).map((f) => ({
      code: f.code,
      lines: [f.sourceLines[0]!, f.sourceLines[f.sourceLines.length - 1]!] as [number, number],
      sourceLines: f.sourceLines,
      evidenceSha256: digestLines(path, lineStarts, f.sourceLines),
      model: f.message.model,
      blockTypes: blockTypes(f.message),
      signedThinking: false,
      day: null,
      version: capture.version,
      sidechain: false,
      messageHash: hashMessageId(f.message.messageId),
      details: f.details ?? {},
    }));
  } catch {
    return { status: 'failed', bytes: scan.bytes, failure: { code: 'unreadable', line: null } };
  }
  const analysis: FileAnalysis = {
    status: 'ok',
    format,
    bytes: scan.bytes,
    lineCount: lineStarts.count,
    endsWithNewline: true,
    assistantMessages: capture.messages.length,
    findings,
    terminalReason: capture.terminalReason,
  };
  if (options.forIndex) {
    const cells = [...new Set(capture.messages.map((m) => m.model))].map((model) => ({ day: null, version: capture.version, model, sidechain: false }));
    analysis.messages = {
      cells,
      cell: Uint32Array.from(capture.messages, (m) => cells.findIndex((c) => c.model === m.model)),
      hash: BigInt64Array.from(capture.messages, (m) => hashMessageId(m.messageId)),
      toolUse: Uint8Array.from(capture.messages, (m) =>
        isToolUseTurn(
          m.stopReason,
          m.blocks.some((b) => b.type === 'tool_use'),
        )
          ? 1
          : 0,
      ),
      stopKnown: Uint8Array.from(capture.messages, (m) => (m.stopReason === null ? 0 : 1)),
      synthetic: new Uint8Array(capture.messages.length),
      capture: true,
    };
    analysis.facts = {
      firstTimestamp: null,
      lastTimestamp: null,
      sessionHash: capture.sessionId === null ? null : shortHash(capture.sessionId),
      sidechain: false,
      sessionEnd: null,
    };
    analysis.diagnostics = [];
  }
  return analysis;
}

function sessionEndFact(transcript: TranscriptFile): SessionEndFact | null {
  const verdict = classifySessionEnd(transcript);
  if (verdict === null) return null;
  const m = verdict.message;
  return { end: verdict.end, version: m?.version ?? null, model: m?.model ?? null, day: m?.day ?? null };
}

/** Scan one file, run every detector on it and digest each finding's source lines. */
export function analyseFile(path: string, options: AnalyseOptions = {}): FileAnalysis {
  const format = detectFormat(path);
  if (format !== 'transcript') return analyseCapture(path, format, options);
  const detectors = startDetectors('transcript');
  const scan = scanFile(path, {
    unfinishedLastLineMeansInProgress: options.forIndex === true,
    salvage: options.salvage === true,
    now: options.now,
    observers: detectors.observers,
  });
  if (scan.status !== 'ok') return scan;
  const { transcript, lineStarts } = scan;
  let findings: FindingRecord[];
  try {
    findings = detectors.detect(transcript).map((f) => ({
      code: f.code,
      lines: [f.sourceLines[0]!, f.sourceLines[f.sourceLines.length - 1]!],
      sourceLines: f.sourceLines,
      evidenceSha256: digestLines(path, lineStarts, f.sourceLines),
      model: f.message.model,
      blockTypes: [...f.message.blockTypes],
      signedThinking: f.message.signedThinking,
      day: f.message.day,
      version: f.message.version,
      sidechain: f.message.sidechain,
      messageHash: hashMessageId(f.message.messageId),
      details: f.details ?? {},
    }));
  } catch {
    // The file changed under us between reading and digesting: nothing from it is trusted.
    return { status: 'failed', bytes: scan.bytes, failure: { code: 'unreadable', line: null } };
  }
  const analysis: FileAnalysis = {
    status: 'ok',
    format: 'transcript',
    bytes: scan.bytes,
    lineCount: transcript.lineCount,
    endsWithNewline: transcript.endsWithNewline,
    assistantMessages: transcript.messages.reduce((n, m) => (m.damaged ? n : n + 1), 0),
    findings,
    diagnostics: withCallDiagnostics(transcript),
  };
  if (transcript.salvaged.length > 0) analysis.salvaged = transcript.salvaged;
  if (options.forIndex) {
    // Salvage mode: messages a dropped torn row could belong to count in no denominator either.
    analysis.messages = messageTable(transcript.salvaged.length > 0 ? transcript.messages.filter((m) => !m.damaged) : transcript.messages);
    analysis.facts = {
      firstTimestamp: transcript.firstTimestamp,
      lastTimestamp: transcript.lastTimestamp,
      sessionHash: transcript.sessionId === null ? null : shortHash(transcript.sessionId),
      sidechain: transcript.sidechain,
      sessionEnd: sessionEndFact(transcript),
    };
  }
  return analysis;
}
