import { createHash } from 'node:crypto';
import type { FindingCode } from '../../shared/finding-codes';
import type { SessionEnd } from '../../shared/session-ends';
import type { CaptureFile } from '../scan/capture-model';
import { digestLines } from '../scan/evidence-digest';
import { detectFormat, type FileFormat, scanCapture } from '../scan/scan-capture';
import { type ScanFailure, scanFile } from '../scan/scan-file';
import type { AssistantMessage, TranscriptFile, VersionDiagnostics } from '../scan/transcript-model';
import { CAPTURE_DETECTORS } from './capture/registry';
import type { DetectedFinding } from './detector';
import { DETECTORS } from './registry';
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
 * Harness-written messages are left out.
 */
export interface MessageTable {
  cells: MessageCell[];
  /** Per message: index into `cells`. */
  cell: Uint32Array;
  /** Per message: 64-bit hash of message.id, to count a message copied into several files once. */
  hash: BigInt64Array;
  /** Per message: 1 when its stop reason is tool_use (a tool-use turn). */
  toolUse: Uint8Array;
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
      diagnostics?: VersionDiagnostics[];
    }
  | { status: 'failed'; bytes: number; failure: ScanFailure }
  | { status: 'in_progress'; bytes: number; lines: number };

export interface AnalyseOptions {
  /** Also return per-message records and file facts, and treat a cut last line as in progress. */
  forIndex?: boolean;
}

export function runDetectors(transcript: TranscriptFile): DetectedFinding[] {
  const found = DETECTORS.flatMap((d) => d.detect(transcript));
  for (const f of found) f.sourceLines = [...new Set(f.sourceLines)].sort((a, b) => a - b);
  return found.sort((a, b) => a.sourceLines[0]! - b.sourceLines[0]! || a.code.localeCompare(b.code));
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
  const counted = messages.filter((m) => !m.synthetic);
  const table: MessageTable = {
    cells: [],
    cell: new Uint32Array(counted.length),
    hash: new BigInt64Array(counted.length),
    toolUse: new Uint8Array(counted.length),
  };
  const index = new Map<string, number>();
  counted.forEach((m, i) => {
    const key = `${m.day}|${m.version}|${m.model}|${m.sidechain}`;
    let c = index.get(key);
    if (c === undefined) {
      c = table.cells.length;
      index.set(key, c);
      table.cells.push({ day: m.day, version: m.version, model: m.model, sidechain: m.sidechain });
    }
    table.cell[i] = c;
    table.hash[i] = hashMessageId(m.messageId);
    table.toolUse[i] = m.stopReason === 'tool_use' ? 1 : 0;
  });
  return table;
}

/** A stream capture: replay its events, run the capture detectors, digest each finding's lines. */
function analyseCapture(path: string, format: 'stream-json' | 'sse', options: AnalyseOptions): FileAnalysis {
  const scan = scanCapture(path, format, { unfinishedLastLineMeansInProgress: options.forIndex === true });
  if (scan.status !== 'ok') return scan;
  const { capture, lineStarts } = scan;
  const blockTypes = (m: CaptureFile['messages'][number]) => [...new Set(m.blocks.map((b) => b.type))];
  let findings: FindingRecord[];
  try {
    findings = CAPTURE_DETECTORS.flatMap((d) => d.detect(capture))
      .map((f) => ({ ...f, sourceLines: [...new Set(f.sourceLines)].sort((a, b) => a - b) }))
      .sort((a, b) => a.sourceLines[0]! - b.sourceLines[0]! || a.code.localeCompare(b.code))
      .map((f) => ({
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
  };
  if (options.forIndex) {
    const cells = [...new Set(capture.messages.map((m) => m.model))].map((model) => ({ day: null, version: capture.version, model, sidechain: false }));
    analysis.messages = {
      cells,
      cell: Uint32Array.from(capture.messages, (m) => cells.findIndex((c) => c.model === m.model)),
      hash: BigInt64Array.from(capture.messages, (m) => hashMessageId(m.messageId)),
      toolUse: Uint8Array.from(capture.messages, (m) => (m.stopReason === 'tool_use' ? 1 : 0)),
    };
    analysis.facts = { firstTimestamp: null, lastTimestamp: null, sessionHash: null, sidechain: false, sessionEnd: null };
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
  const scan = scanFile(path, { unfinishedLastLineMeansInProgress: options.forIndex === true });
  if (scan.status !== 'ok') return scan;
  const { transcript, lineStarts } = scan;
  let findings: FindingRecord[];
  try {
    findings = runDetectors(transcript).map((f) => ({
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
    assistantMessages: transcript.messages.length,
    findings,
  };
  if (options.forIndex) {
    analysis.messages = messageTable(transcript.messages);
    analysis.diagnostics = transcript.diagnostics;
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
