import { closeSync } from 'node:fs';
import type { FormatHint } from '../../shared/format-hints';
import type { ScanErrorCode } from '../../shared/scan-errors';
import { countKeyTokens, inspectParsed } from './duplicate-keys';
import { LineStarts, readLines } from './read-lines';
import { OpenError, type OpenedFile, openRegularFile } from './safe-open';
import { splitDamagedLine } from './split-damaged-line';
import type { SalvagedLine } from './transcript-model';

export interface ScanFailure {
  code: ScanErrorCode;
  /** 1-based line of the failure; null when the file as a whole could not be read. */
  line: number | null;
  /** `unknown_format` only: what the file looks like, when that is cheap to tell (a fixed name, never file content). */
  hint?: FormatHint;
  /** A session of OpenCode's storage tree: the piece that stopped it, relative to the tree (`part/<msg>/<prt>.json`). */
  piece?: string;
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
 * The one 10-minute rule, shared by `scan` and `index`: a cut last line (no \n, not yet a whole
 * value) in a file modified less than this long ago is "being written" (in_progress); in a file
 * quiet (unmodified) for longer it will never be completed and fails as `unfinished_last_line`.
 */
export const QUIET_PERIOD_MS = 10 * 60 * 1000;

export interface ReadOptions {
  /** The file already open (its owner closes it); read from its start, which positioned reads before left in place. */
  opened?: OpenedFile;
  unfinishedLastLineMeansInProgress?: boolean;
  /** Overrides QUIET_PERIOD_MS (tests). */
  quietPeriodMs?: number;
  /** The time the quiet period is measured from (default: the clock when the file is read). */
  now?: number;
  /** Overrides MAX_LINE_BYTES (tests). */
  maxLineBytes?: number;
  /** Read the complete rows of a damaged line instead of failing the file (the user's explicit choice). */
  salvage?: boolean;
}

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
export function readJsonRows(path: string, reader: RowReader, options: ReadOptions = {}): RowsOutcome {
  let opened: OpenedFile;
  try {
    opened = options.opened ?? openRegularFile(path);
  } catch (error) {
    return { status: 'failed', failure: { code: error instanceof OpenError ? error.problem : 'unreadable', line: null }, bytes: 0 };
  }
  const {
    fd,
    stat: { mtimeMs },
  } = opened;
  const lineStarts = new LineStarts();
  let failure: ScanFailure | null = null;
  let unfinished = false;
  const salvaged: SalvagedLine[] = [];
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
            const bad = keyFailure(row.json, row.value);
            if (bad !== null) {
              failure = { code: bad, line };
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
        const bad = keyFailure(json, value);
        if (bad !== null) {
          failure = { code: bad, line };
          return 'stop';
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
    if (unfinished && failure === null && (options.now ?? Date.now()) - mtimeMs > (options.quietPeriodMs ?? QUIET_PERIOD_MS)) {
      // Nobody has written to it for the quiet period: the cut line will never be completed.
      failure = { code: 'unfinished_last_line', line: outcome.lines };
      unfinished = false;
    }
    if (unfinished) return { status: 'in_progress', bytes: outcome.bytes, lines: outcome.lines };
    if (failure !== null) return { status: 'failed', failure, bytes: outcome.bytes };
    return { status: 'ok', lineStarts, lines: outcome.lines, endsWithNewline: outcome.endsWithNewline, bytes: outcome.bytes, salvaged };
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  } finally {
    if (opened !== options.opened) closeSync(fd);
  }
}

/**
 * A parsed row's nesting and keys: depth first (every later step may walk the value, and must
 * not meet a nesting it cannot hold), then a duplicate key at any depth. Salvaged rows get the
 * same checks as whole lines.
 */
function keyFailure(json: string, value: unknown): 'nesting_too_deep' | 'duplicate_key' | null {
  if (value === null || typeof value !== 'object') return null;
  const parsedKeys = inspectParsed(value);
  if (parsedKeys === 'too_deep') return 'nesting_too_deep';
  return countKeyTokens(json) !== parsedKeys ? 'duplicate_key' : null;
}
