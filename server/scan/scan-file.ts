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
  | { ok: true; transcript: TranscriptFile; lineStarts: LineStarts; bytes: number }
  | { ok: false; failure: ScanFailure; bytes: number; endsWithNewline: boolean };

const BLANK = /^[ \t\r]*$/;

/**
 * Reads one transcript and builds its model, failing closed at the first bad line:
 * invalid UTF-8, anything but exactly one JSON value, a duplicate key at any depth, or a
 * row whose structure the detectors rely on. Opened with O_NOFOLLOW so a file swapped for
 * a symbolic link after the walk is refused rather than followed.
 */
export function scanFile(path: string): FileScan {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return { ok: false, failure: { code: 'unreadable', line: null }, bytes: 0, endsWithNewline: true };
  }
  const builder = new TranscriptBuilder();
  const lineStarts = new LineStarts();
  let failure: ScanFailure | null = null;
  try {
    const outcome = readLines(
      fd,
      (text, line) => {
        if (text.length === 0 || (text.charCodeAt(0) <= 0x20 && BLANK.test(text))) return 'continue';
        let row: unknown;
        try {
          row = JSON.parse(text);
        } catch {
          failure = { code: 'malformed_json', line };
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
    if (outcome.invalidUtf8Line !== null) failure = { code: 'invalid_utf8', line: outcome.invalidUtf8Line };
    if (failure !== null) return { ok: false, failure, bytes: outcome.bytes, endsWithNewline: outcome.endsWithNewline };
    return {
      ok: true,
      transcript: builder.build(outcome.lines, outcome.endsWithNewline),
      lineStarts,
      bytes: outcome.bytes,
    };
  } catch {
    return { ok: false, failure: { code: 'unreadable', line: null }, bytes: 0, endsWithNewline: true };
  } finally {
    closeSync(fd);
  }
}
