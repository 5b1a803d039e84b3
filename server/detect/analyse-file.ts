import { closeSync } from 'node:fs';
import type { Agent } from '../../shared/agents';
import type { FindingCode } from '../../shared/finding-codes';
import type { CaptureFile } from '../scan/capture-model';
import { digestBytes, digestLines } from '../scan/evidence-digest';
import { type OpenedFile, openRegularFile } from '../scan/safe-open';
import { type FileFormat, readHead, scanCapture } from '../scan/scan-capture';
import { type ScanFailure, type ScanOptions, scanFile } from '../scan/scan-file';
import type { SalvagedLine, TranscriptFile, VersionDiagnostics } from '../scan/transcript-model';
import { withCallDiagnostics } from './call-diagnostics';
import { startDetectors } from './run-detectors';

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
  /** The effort the message was asked at (pattern-checked; null when nothing recorded one). */
  effort: string | null;
  /** 64-bit hash of the message id, to count a message copied into several files once. */
  messageHash: bigint;
  /** Detector-specific metadata (codes, counts, fixed list entries). */
  details: Record<string, string | number | boolean>;
  /** Whose transcript (its adapter): `version` is this agent's. */
  agent: Agent;
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
      /** Whose format the file is (decided from its content), and that agent's version as the file records it (first one). */
      agent: Agent;
      agentVersion: string | null;
      /**
       * The format's own counts (../shared/corpus/agents/SOURCES.md): model messages as the format records them,
       * calls the model emitted, and results paired to a call of the file by id.
       */
      counts: { modelMessages: number; toolCalls: number; toolResults: number };
      findings: FindingRecord[];
      /** Per version: unknown types, and the call diagnostics (compaction splits, calls open at the end, rejected input). */
      diagnostics?: VersionDiagnostics[];
      /** Salvage mode: the damaged lines read around; absent or empty when the file was whole. */
      salvaged?: SalvagedLine[];
      /** stream-json captures: the `terminal_reason` of the `result` row, when it passes the pattern. */
      terminalReason?: string | null;
      /** Zero bytes or blank lines only: counted apart (`files_empty`), neither clean with messages nor failed. */
      empty?: true;
    }
  | { status: 'failed'; bytes: number; failure: ScanFailure }
  | { status: 'in_progress'; bytes: number; lines: number };

export interface AnalyseOptions {
  /** Read as the index does: a cut last line means the file is still being written (in progress). */
  forIndex?: boolean;
  /** Read the complete rows of damaged lines instead of failing the file (the user's explicit choice). */
  salvage?: boolean;
  /** The time a cut last line's quiet period is measured from (default: the clock when the file is read). */
  now?: number;
  /** A document built in memory, read instead of the file (scan-file.ts ScanOptions.document). */
  document?: ScanOptions['document'];
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

/** A stream capture: replay its events, run the capture detectors, digest each finding's lines. */
function analyseCapture(path: string, format: 'stream-json' | 'sse', options: AnalyseOptions): AnalysedFile {
  const detectors = startDetectors('capture');
  const scan = scanCapture(path, format, { unfinishedLastLineMeansInProgress: options.forIndex === true, now: options.now, observers: detectors.observers });
  if (scan.status !== 'ok') return { analysis: scan, source: null };
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
      effort: null,
      messageHash: hashMessageId(f.message.messageId),
      details: f.details ?? {},
      agent: 'claude-code' as const,
    }));
  } catch {
    return { analysis: { status: 'failed', bytes: scan.bytes, failure: { code: 'unreadable', line: null } }, source: null };
  }
  const analysis: FileAnalysis = {
    status: 'ok',
    format,
    bytes: scan.bytes,
    lineCount: lineStarts.count,
    endsWithNewline: true,
    assistantMessages: capture.messages.length,
    // A stream capture is Claude Code's (stream-json or the API's SSE); it holds calls, never their results.
    agent: 'claude-code',
    agentVersion: capture.version,
    counts: {
      modelMessages: capture.messages.length,
      toolCalls: capture.messages.reduce((n, m) => n + m.blocks.filter((b) => b.type === 'tool_use').length, 0),
      toolResults: 0,
    },
    findings,
    terminalReason: capture.terminalReason,
  };
  if (scan.empty) analysis.empty = true;
  return { analysis, source: { kind: 'capture', capture } };
}

/** Stop reasons the API documents; any other recorded value is reported as `other`. */
const STOP_REASONS = new Set(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal', 'model_context_window_exceeded']);

/**
 * What every transcript finding says of its message, beside its detector's details: the stop
 * reason (`unknown` when every row says null; a word from STOP_REASONS, else `other`) and the
 * entrypoint when recorded. A detector's own key of the same name wins.
 */
function messageFacts(m: TranscriptFile['messages'][number]): Record<string, string> {
  const facts: Record<string, string> = { stop_reason: m.stopReason === null ? 'unknown' : STOP_REASONS.has(m.stopReason) ? m.stopReason : 'other' };
  if (m.entrypoint) facts.entrypoint = m.entrypoint;
  return facts;
}

/** A transcript's own counts: model messages as its format records them, calls, and results paired to a call by id. */
export function transcriptCounts(transcript: TranscriptFile): FileCounts {
  const calls = new Set<string>();
  let toolCalls = 0;
  for (const m of transcript.messages) {
    if (m.synthetic) continue;
    toolCalls += m.toolUses.length;
    for (const c of m.toolUses) calls.add(c.id);
  }
  const answered = new Set<string>();
  for (const r of transcript.toolResults) if (calls.has(r.toolUseId)) answered.add(r.toolUseId);
  return { modelMessages: transcript.modelMessages ?? transcript.messages.length, toolCalls, toolResults: answered.size };
}

export interface FileCounts {
  modelMessages: number;
  toolCalls: number;
  toolResults: number;
}

/** Scan one file, run every detector on it and digest each finding's source lines. */
export function analyseFile(path: string, options: AnalyseOptions = {}): FileAnalysis {
  return analyseFileAndSource(path, options).analysis;
}

/** What was read, for a caller that derives more from it (the index's message table and file facts); null when the file failed. */
export type ReadSource = { kind: 'transcript'; transcript: TranscriptFile } | { kind: 'capture'; capture: CaptureFile };

export interface AnalysedFile {
  analysis: FileAnalysis;
  source: ReadSource | null;
}

/** `analyseFile`, also handing back the transcript or capture it read. */
export function analyseFileAndSource(path: string, options: AnalyseOptions = {}): AnalysedFile {
  if (options.document) return analyseTranscript(path, options, null);
  // One open for the peek and a transcript's reading; when it fails, each reader opens the file itself and says why.
  let opened: OpenedFile | undefined;
  try {
    opened = openRegularFile(path);
  } catch {
    opened = undefined;
  }
  try {
    const { format, documentStart } = readHead(path, opened);
    if (format === 'sse') return analyseCapture(path, format, options);
    if (format === 'stream-json') {
      const read = analyseCapture(path, format, options);
      const capture = read.source?.kind === 'capture' ? read.source.capture : null;
      // stream-json without --include-partial-messages: no message streamed as events, but whole assistant rows
      // (one per content block, sharing message.id, as in a transcript): measured and checked as a transcript.
      if (capture === null || capture.messages.length > 0 || capture.wholeAssistantRows === 0) return read;
      return analyseTranscript(path, options, capture);
    }
    return analyseTranscript(path, options, null, documentStart, opened);
  } finally {
    if (opened !== undefined) closeSync(opened.fd);
  }
}

/** Row types of a stream-json capture besides Claude Code's transcript rows. */
const STREAM_JSON_ROWS: ReadonlySet<string> = new Set(['result']);

/** A transcript, or a stream-json capture without partial messages (`capture`: what its capture reading found). */
function analyseTranscript(path: string, options: AnalyseOptions, capture: CaptureFile | null, documentFirst = false, opened?: OpenedFile): AnalysedFile {
  const detectors = startDetectors('transcript');
  const scan = scanFile(path, {
    unfinishedLastLineMeansInProgress: options.forIndex === true,
    salvage: options.salvage === true,
    now: options.now,
    observers: detectors.observers,
    alsoKnownRowTypes: capture ? STREAM_JSON_ROWS : undefined,
    document: options.document,
    documentFirst,
    opened,
  });
  if (scan.status !== 'ok') return { analysis: scan, source: null };
  const { transcript, lineStarts } = scan;
  const digest = (lines: readonly number[]) =>
    scan.digest ? scan.digest(lines) : scan.text ? digestBytes(scan.text, lineStarts, lines) : digestLines(path, lineStarts, lines);
  // A capture's rows carry no version: the init row's applies to every message.
  if (capture) for (const m of transcript.messages) m.version ??= capture.version;
  let findings: FindingRecord[];
  try {
    findings = detectors.detect(transcript).map((f) => ({
      code: f.code,
      lines: [f.sourceLines[0]!, f.sourceLines[f.sourceLines.length - 1]!],
      sourceLines: f.sourceLines,
      evidenceSha256: digest(f.sourceLines),
      model: f.message.model,
      blockTypes: [...f.message.blockTypes],
      signedThinking: f.message.signedThinking,
      day: f.message.day,
      version: f.message.version,
      sidechain: f.message.sidechain,
      effort: f.message.effort,
      messageHash: hashMessageId(f.message.messageId),
      details: { ...messageFacts(f.message), ...f.details },
      agent: scan.agent,
    }));
  } catch {
    // The file changed under us between reading and digesting: nothing from it is trusted.
    return { analysis: { status: 'failed', bytes: scan.bytes, failure: { code: 'unreadable', line: null } }, source: null };
  }
  const analysis: FileAnalysis = {
    status: 'ok',
    format: capture ? 'stream-json' : 'transcript',
    bytes: scan.bytes,
    lineCount: transcript.lineCount,
    endsWithNewline: transcript.endsWithNewline,
    assistantMessages: transcript.messages.reduce((n, m) => (m.damaged ? n : n + 1), 0),
    agent: scan.agent,
    agentVersion: scan.version,
    counts: transcriptCounts(transcript),
    findings,
    diagnostics: withCallDiagnostics(transcript),
  };
  if (transcript.salvaged.length > 0) analysis.salvaged = transcript.salvaged;
  if (capture) analysis.terminalReason = capture.terminalReason;
  if (scan.empty) analysis.empty = true;
  return { analysis, source: { kind: 'transcript', transcript } };
}
