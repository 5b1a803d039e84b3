import { TranscriptBuilder } from './build-transcript';
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
}

/**
 * Reads one transcript and builds its model, failing closed at the first bad line (see
 * readJsonRows) or at a row whose structure the detectors rely on.
 */
export function scanFile(path: string, options: ScanOptions = {}): FileScan {
  const builder = new TranscriptBuilder();
  const rows = readJsonRows(path, { jsonOf: (text) => text, accept: (row, line) => builder.addRow(row, line) }, options);
  if (rows.status !== 'ok') return rows;
  return { status: 'ok', transcript: builder.build(rows.lines, rows.endsWithNewline), lineStarts: rows.lineStarts, bytes: rows.bytes };
}
