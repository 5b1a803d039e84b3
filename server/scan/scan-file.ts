import { closeSync, constants, openSync } from 'node:fs';
import type { ScanErrorCode } from '../../shared/scan-errors';
import { TranscriptBuilder } from './build-transcript';
import { hasDuplicateKey } from './duplicate-keys';
import { LineStarts, readLines } from './read-lines';
import type { TranscriptFile } from './transcript-model';

export interface ScanFailure {
  code: ScanErrorCode;
  /** 1-based line of the failure; null when the file as a whole could not be read. */
  line: number | null;
}

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
}

const BLANK = /^[ \t\r]*$/;

/**
 * Reads one transcript and builds its model, failing closed at the first bad line:
 * invalid UTF-8, anything but exactly one JSON value, a duplicate key at any depth, or a
 * row whose structure the detectors rely on. Opened with O_NOFOLLOW so a file swapped for
 * a symbolic link after the walk is refused rather than followed.
 */
export function scanFile(path: string, options: ScanOptions = {}): FileScan {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  }
  const builder = new TranscriptBuilder();
  const lineStarts = new LineStarts();
  let failure: ScanFailure | null = null;
  let unfinished = false;
  try {
    const outcome = readLines(
      fd,
      (text, line, terminated) => {
        if (text.length === 0 || (text.charCodeAt(0) <= 0x20 && BLANK.test(text))) return 'continue';
        let row: unknown;
        try {
          row = JSON.parse(text);
        } catch {
          if (!terminated && options.unfinishedLastLineMeansInProgress) unfinished = true;
          else failure = { code: 'malformed_json', line };
          return 'stop';
        }
        if (hasDuplicateKey(text, row)) {
          failure = { code: 'duplicate_key', line };
          return 'stop';
        }
        if (builder.addRow(row, line) !== 'ok') {
          failure = { code: 'invalid_structure', line };
          return 'stop';
        }
        return 'continue';
      },
      lineStarts,
    );
    if (outcome.invalidUtf8Line !== null) {
      const cutLastLine = !outcome.endsWithNewline && outcome.invalidUtf8Line === outcome.lines;
      if (cutLastLine && options.unfinishedLastLineMeansInProgress) unfinished = true;
      else failure = { code: 'invalid_utf8', line: outcome.invalidUtf8Line };
    }
    if (unfinished) return { status: 'in_progress', bytes: outcome.bytes, lines: outcome.lines };
    if (failure !== null) return { status: 'failed', failure, bytes: outcome.bytes };
    return {
      status: 'ok',
      transcript: builder.build(outcome.lines, outcome.endsWithNewline),
      lineStarts,
      bytes: outcome.bytes,
    };
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  } finally {
    closeSync(fd);
  }
}
