import { closeSync } from 'node:fs';
import type { ScanErrorCode } from '../../shared/scan-errors';
import { countKeyTokens, inspectParsed } from './duplicate-keys';
import { LineStarts, readLines } from './read-lines';
import { OpenError, openRegularFile } from './safe-open';

export interface ScanFailure {
  code: ScanErrorCode;
  /** 1-based line of the failure; null when the file as a whole could not be read. */
  line: number | null;
}

export type RowsOutcome =
  | { status: 'ok'; lineStarts: LineStarts; lines: number; endsWithNewline: boolean; bytes: number }
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

/** A cut last line of a file unmodified for this long is a failure, not "being written". */
export const QUIET_PERIOD_MS = 10 * 60 * 1000;

export interface ReadOptions {
  unfinishedLastLineMeansInProgress?: boolean;
  /** Overrides QUIET_PERIOD_MS (tests). */
  quietPeriodMs?: number;
  /** Overrides MAX_LINE_BYTES (tests). */
  maxLineBytes?: number;
}

/**
 * The fail-closed reading every format shares: opened with O_NOFOLLOW (a file swapped for a
 * link is refused, not followed), read in chunks, and stopped at the first line that is not
 * UTF-8, not exactly one JSON value, has a duplicate key at any depth, or that the reader
 * refuses. With `unfinishedLastLineMeansInProgress`, a cut last line means "being written".
 */
export function readJsonRows(path: string, reader: RowReader, options: ReadOptions = {}): RowsOutcome {
  let fd: number;
  let mtimeMs: number;
  try {
    ({
      fd,
      stat: { mtimeMs },
    } = openRegularFile(path));
  } catch (error) {
    return { status: 'failed', failure: { code: error instanceof OpenError ? error.problem : 'unreadable', line: null }, bytes: 0 };
  }
  const lineStarts = new LineStarts();
  let failure: ScanFailure | null = null;
  let unfinished = false;
  try {
    const outcome = readLines(
      fd,
      (text, line, terminated) => {
        if (text.charCodeAt(0) <= 0x20 && BLANK.test(text)) return 'ignore';
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
          if (!terminated && options.unfinishedLastLineMeansInProgress) unfinished = true;
          else failure = { code: 'malformed_json', line };
          return 'stop';
        }
        if (value !== null && typeof value === 'object') {
          // Depth first: every later step may walk the value, and must not meet a nesting it cannot hold.
          const parsedKeys = inspectParsed(value);
          if (parsedKeys === 'too_deep') {
            failure = { code: 'nesting_too_deep', line };
            return 'stop';
          }
          if (countKeyTokens(json) !== parsedKeys) {
            failure = { code: 'duplicate_key', line };
            return 'stop';
          }
        }
        if (reader.accept(value, line) !== 'ok') {
          failure = { code: 'invalid_structure', line };
          return 'stop';
        }
        return 'continue';
      },
      lineStarts,
      options.maxLineBytes,
    );
    if (outcome.invalidUtf8Line !== null) {
      const cutLastLine = !outcome.endsWithNewline && outcome.invalidUtf8Line === outcome.lines;
      if (cutLastLine && options.unfinishedLastLineMeansInProgress) unfinished = true;
      else failure = { code: 'invalid_utf8', line: outcome.invalidUtf8Line };
    }
    if (outcome.tooLongLine !== null) failure = { code: 'line_too_long', line: outcome.tooLongLine };
    if (unfinished && failure === null && Date.now() - mtimeMs > (options.quietPeriodMs ?? QUIET_PERIOD_MS)) {
      // Nobody has written to it for the quiet period: the cut line will never be completed.
      failure = { code: 'unfinished_last_line', line: outcome.lines };
      unfinished = false;
    }
    if (unfinished) return { status: 'in_progress', bytes: outcome.bytes, lines: outcome.lines };
    if (failure !== null) return { status: 'failed', failure, bytes: outcome.bytes };
    return { status: 'ok', lineStarts, lines: outcome.lines, endsWithNewline: outcome.endsWithNewline, bytes: outcome.bytes };
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  } finally {
    closeSync(fd);
  }
}
