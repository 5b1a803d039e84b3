import { TranscriptBuilder } from './build-transcript';
import { sniffFirstRow } from './format-sniff';
import type { TranscriptObserver } from './observers';
import { readJsonRows, type ScanFailure } from './read-json-rows';
import type { LineStarts } from './read-lines';
import type { TranscriptFile } from './transcript-model';

export type { ScanFailure };

export type FileScan =
  /** `empty`: zero bytes or blank lines only (counted apart: neither clean with messages nor failed). */
  | { status: 'ok'; transcript: TranscriptFile; lineStarts: LineStarts; bytes: number; empty?: true }
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

/**
 * Reads one transcript and builds its model, failing closed at the first bad line (see
 * readJsonRows) or at a row whose structure the detectors rely on.
 */
export function scanFile(path: string, options: ScanOptions = {}): FileScan {
  const builder = new TranscriptBuilder(options.observers, options.alsoKnownRowTypes);
  // The format is decided from the content: the first non-blank row may be another tool's (issue 37).
  let firstLine = 0;
  let refusal: ScanFailure | null = null;
  const accept = (row: unknown, line: number) => {
    if (firstLine === 0) {
      firstLine = line;
      const verdict = sniffFirstRow(row);
      if (verdict.kind === 'entire_compact') refusal = { code: 'entire_compact_transcript', line };
      else if (verdict.kind === 'foreign') refusal = { code: 'unknown_format', line, hint: verdict.hint };
      if (refusal) return 'invalid_structure' as const;
    }
    return builder.addRow(row, line);
  };
  const rows = readJsonRows(path, { jsonOf: (text) => text, accept }, options);
  if (rows.status === 'failed' && refusal !== null) return { status: 'failed', failure: refusal, bytes: rows.bytes };
  if (rows.status !== 'ok') return rows;
  // Rows were read but none is a row a reader here knows: nothing was understood, so nothing is clean.
  if (firstLine > 0 && builder.recognisedRows === 0) return { status: 'failed', failure: { code: 'unknown_format', line: firstLine }, bytes: rows.bytes };
  const transcript = builder.build(rows.lines, rows.endsWithNewline, rows.salvaged);
  for (const s of rows.salvaged) if (s.stubDropped) markDamaged(transcript, s.line);
  const scan: FileScan = { status: 'ok', transcript, lineStarts: rows.lineStarts, bytes: rows.bytes };
  if (firstLine === 0 && rows.salvaged.length === 0) scan.empty = true;
  return scan;
}
