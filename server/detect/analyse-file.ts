import { createHash } from 'node:crypto';
import type { FindingCode } from '../../shared/finding-codes';
import { digestLines } from '../scan/evidence-digest';
import { scanFile, type ScanFailure } from '../scan/scan-file';
import type { AssistantMessage, TranscriptFile } from '../scan/transcript-model';
import type { DetectedFinding } from './detector';
import { DETECTORS } from './registry';

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

/** One assistant message, reduced to what rates need. Harness-written messages are left out. */
export interface MessageRecord {
  messageHash: bigint;
  day: string | null;
  version: string | null;
  model: string | null;
  sidechain: boolean;
  /** Its stop reason is tool_use: a tool-use turn. */
  toolUseTurn: boolean;
}

export interface FileFacts {
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  /** SHA-256 (hex, 16 chars) of the session id; the id itself never leaves. */
  sessionHash: string | null;
  sidechain: boolean;
}

export type FileAnalysis =
  | {
      status: 'ok';
      bytes: number;
      lineCount: number;
      endsWithNewline: boolean;
      assistantMessages: number;
      findings: FindingRecord[];
      /** Present when asked for (the index); `scan` does not need them. */
      messages?: MessageRecord[];
      facts?: FileFacts;
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

export function hashMessageId(messageId: string): bigint {
  return createHash('sha256').update(messageId).digest().readBigInt64BE(0);
}

function shortHash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

function messageRecord(m: AssistantMessage): MessageRecord {
  return {
    messageHash: hashMessageId(m.messageId),
    day: m.day,
    version: m.version,
    model: m.model,
    sidechain: m.sidechain,
    toolUseTurn: m.stopReason === 'tool_use',
  };
}

/** Scan one file, run every detector on it and digest each finding's source lines. */
export function analyseFile(path: string, options: AnalyseOptions = {}): FileAnalysis {
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
    bytes: scan.bytes,
    lineCount: transcript.lineCount,
    endsWithNewline: transcript.endsWithNewline,
    assistantMessages: transcript.messages.length,
    findings,
  };
  if (options.forIndex) {
    analysis.messages = transcript.messages.filter((m) => !m.synthetic).map(messageRecord);
    analysis.facts = {
      firstTimestamp: transcript.firstTimestamp,
      lastTimestamp: transcript.lastTimestamp,
      sessionHash: transcript.sessionId === null ? null : shortHash(transcript.sessionId),
      sidechain: transcript.sidechain,
    };
  }
  return analysis;
}
