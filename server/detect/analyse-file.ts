import type { FindingCode } from '../../shared/finding-codes';
import { digestLines } from '../scan/evidence-digest';
import { scanFile, type ScanFailure } from '../scan/scan-file';
import type { TranscriptFile } from '../scan/transcript-model';
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
}

export type FileAnalysis =
  | { ok: true; bytes: number; lineCount: number; endsWithNewline: boolean; assistantMessages: number; findings: FindingRecord[] }
  | { ok: false; bytes: number; endsWithNewline: boolean; failure: ScanFailure };

export function runDetectors(transcript: TranscriptFile): DetectedFinding[] {
  const found = DETECTORS.flatMap((d) => d.detect(transcript));
  for (const f of found) f.sourceLines = [...new Set(f.sourceLines)].sort((a, b) => a - b);
  return found.sort((a, b) => a.sourceLines[0]! - b.sourceLines[0]! || a.code.localeCompare(b.code));
}

/** Scan one file, run every detector on it and digest each finding's source lines. */
export function analyseFile(path: string): FileAnalysis {
  const scan = scanFile(path);
  if (!scan.ok) return { ok: false, bytes: scan.bytes, endsWithNewline: scan.endsWithNewline, failure: scan.failure };
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
    }));
  } catch {
    // The file changed under us between reading and digesting: nothing from it is trusted.
    return { ok: false, bytes: scan.bytes, endsWithNewline: transcript.endsWithNewline, failure: { code: 'unreadable', line: null } };
  }
  return {
    ok: true,
    bytes: scan.bytes,
    lineCount: transcript.lineCount,
    endsWithNewline: transcript.endsWithNewline,
    assistantMessages: transcript.messages.length,
    findings,
  };
}
