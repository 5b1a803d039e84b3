import { closeSync, constants, openSync } from 'node:fs';
import type { ScanErrorCode } from '../../shared/scan-errors';
import { hasDuplicateKey } from './duplicate-keys';
import { LineStarts, readLines } from './read-lines';
import { splitDamagedLine } from './split-damaged-line';
import type { SalvagedLine } from './transcript-model';

export interface ScanFailure {
  code: ScanErrorCode;
  /** 1-based line of the failure; null when the file as a whole could not be read. */
  line: number | null;
}

export type RowsOutcome =
  | { status: 'ok'; lineStarts: LineStarts; lines: number; endsWithNewline: boolean; bytes: number; salvaged: SalvagedLine[] }
  | { status: 'failed'; failure: ScanFailure; bytes: number }
  /** The last line is cut short (no \n, not yet a whole value): the file is still being written. */
  | { status: 'in_progress'; bytes: number; lines: number };

export interface RowReader {
  /** The JSON text of a line, 'skip' for a line that carries none, or 'invalid' for a line of the wrong shape. */
  jsonOf(text: string): string | 'skip' | 'invalid';
  /** One parsed value; 'invalid_structure' stops the file. */
  accept(value: unknown, line: number): 'ok' | 'invalid_structure';
}

const BLANK = /^[ \t\r]*$/;

/**
 * The fail-closed reading every format shares: opened with O_NOFOLLOW (a file swapped for a
 * link is refused, not followed), read in chunks, and stopped at the first line that is not
 * UTF-8, not exactly one JSON value, has a duplicate key at any depth, or that the reader
 * refuses. With `unfinishedLastLineMeansInProgress`, a cut last line means "being written".
 *
 * A line that is not one JSON value is told apart (split-damaged-line.ts): two or more complete
 * rows with no newline between them fail as `concatenated_rows`, anything else as
 * `malformed_json`. With `salvage` (the user's explicit choice), such a line's complete rows are
 * read and a torn piece is dropped; the line is listed in `salvaged`, so the file is labelled.
 */
export interface ReadOptions {
  unfinishedLastLineMeansInProgress?: boolean;
  salvage?: boolean;
}

export function readJsonRows(path: string, reader: RowReader, options: ReadOptions = {}): RowsOutcome {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  }
  const lineStarts = new LineStarts();
  let failure: ScanFailure | null = null;
  let unfinished = false;
  const salvaged: SalvagedLine[] = [];
  try {
    const outcome = readLines(
      fd,
      (text, line, terminated) => {
        if (text.length === 0 || (text.charCodeAt(0) <= 0x20 && BLANK.test(text))) return 'continue';
        const json = reader.jsonOf(text);
        if (json === 'skip') return 'continue';
        if (json === 'invalid') {
          failure = { code: 'invalid_structure', line };
          return 'stop';
        }
        let value: unknown;
        try {
          value = JSON.parse(json);
        } catch {
          if (!terminated && options.unfinishedLastLineMeansInProgress) {
            unfinished = true;
            return 'stop';
          }
          const damaged = splitDamagedLine(json);
          const code = damaged.kind === 'concatenated' ? 'concatenated_rows' : 'malformed_json';
          if (!options.salvage || damaged.kind === 'unreadable') {
            failure = { code, line };
            return 'stop';
          }
          for (const row of damaged.rows) {
            if (hasDuplicateKey(row.json, row.value)) {
              failure = { code: 'duplicate_key', line };
              return 'stop';
            }
            if (reader.accept(row.value, line) !== 'ok') {
              failure = { code: 'invalid_structure', line };
              return 'stop';
            }
          }
          salvaged.push({ code, line, rowsKept: damaged.rows.length, stubDropped: damaged.kind === 'torn' });
          return 'continue';
        }
        if (hasDuplicateKey(json, value)) {
          failure = { code: 'duplicate_key', line };
          return 'stop';
        }
        if (reader.accept(value, line) !== 'ok') {
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
    return { status: 'ok', lineStarts, lines: outcome.lines, endsWithNewline: outcome.endsWithNewline, bytes: outcome.bytes, salvaged };
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  } finally {
    closeSync(fd);
  }
}
