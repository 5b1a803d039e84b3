import { TranscriptBuilder } from './build-transcript';
import type { TranscriptObserver } from './observers';
import { readJsonRows, type ScanFailure } from './read-json-rows';
import type { LineStarts } from './read-lines';
import type { TranscriptFile } from './transcript-model';

export type { ScanFailure };

export type FileScan =
  | { status: 'ok'; transcript: TranscriptFile; lineStarts: LineStarts; bytes: number }
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
  const builder = new TranscriptBuilder(options.observers);
  const rows = readJsonRows(path, { jsonOf: (text) => text, accept: (row, line) => builder.addRow(row, line) }, options);
  if (rows.status !== 'ok') return rows;
  const transcript = builder.build(rows.lines, rows.endsWithNewline, rows.salvaged);
  for (const s of rows.salvaged) if (s.stubDropped) markDamaged(transcript, s.line);
  return { status: 'ok', transcript, lineStarts: rows.lineStarts, bytes: rows.bytes };
}
