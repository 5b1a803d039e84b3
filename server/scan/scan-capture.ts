import { closeSync, readSync } from 'node:fs';
import { CaptureBuilder } from './build-capture';
import type { CaptureFile } from './capture-model';
import { sniffFirstRow } from './format-sniff';
import type { CaptureObserver } from './observers';
import { readJsonRows, type ScanFailure } from './read-json-rows';
import type { LineStarts } from './read-lines';
import { type OpenedFile, openRegularFile } from './safe-open';

export type FileFormat = 'transcript' | 'stream-json' | 'sse';

/** What a file's first bytes say: the reader it needs, and whether it opens as a pretty-printed JSON document. */
export interface FileHead {
  format: FileFormat;
  /**
   * The first non-blank line is a lone `{` or `[`, followed by more: never a JSON value on its own, so the
   * line-by-line reading would fail at it and the file be read as one document (scan-file.ts): read so first.
   */
  documentStart: boolean;
}

/** A blank line as the row reader passes one over (read-json-rows.ts). */
const BLANK = /^[ \t\r]*$/;
const DOCUMENT_OPENING = /^[ \t\r]*[[{][ \t\r]*$/;

/**
 * Which reader a file needs: `.sse` is a raw server-sent-event log; a `.jsonl`/`.ndjson` file
 * whose first row is a stream-json row (`stream_event`, the `system` `init` row or `result`)
 * is a stream-json capture; anything else is a Claude Code transcript.
 */
export function detectFormat(path: string): FileFormat {
  return readHead(path).format;
}

/** The peek's buffer, one per thread (reading is synchronous; the text is decoded before the next peek). */
let peek: Buffer | null = null;

/** detectFormat, and whether the file opens as a JSON document (FileHead); `given`: the file already open (its owner closes it). */
export function readHead(path: string, given?: OpenedFile): FileHead {
  if (path.endsWith('.sse')) return { format: 'sse', documentStart: false };
  const fallback: FileHead = { format: path.endsWith('.ndjson') ? 'stream-json' : 'transcript', documentStart: false };
  let fd: number;
  try {
    // Non-blocking, regular files only: a FIFO named *.jsonl must not hang the peek.
    fd = given?.fd ?? openRegularFile(path).fd;
  } catch {
    return fallback; // the reader reports why
  }
  try {
    // A small peek: this runs on every file, and the first row's type is near its start.
    const buf = (peek ??= Buffer.allocUnsafe(4096));
    let text: string;
    try {
      text = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } catch {
      return fallback; // not readable as a file: the reader reports it
    }
    const lines = text.split('\n');
    // The line is whole (a newline follows it within the peek). The format is still the fallback: a `{` alone is no row.
    const opening = lines.findIndex((l) => !BLANK.test(l));
    if (opening !== -1 && opening < lines.length - 1 && DOCUMENT_OPENING.test(lines[opening]!)) return { ...fallback, documentStart: true };
    const first = lines.find((l) => l.trim() !== '');
    if (first === undefined) return fallback;
    let type: unknown;
    let subtype: unknown;
    try {
      ({ type, subtype } = JSON.parse(first) as { type?: unknown; subtype?: unknown });
    } catch {
      // A first row longer than the peek: stream-json rows put their type first.
      const m = /^\s*\{\s*"type"\s*:\s*"([a-z_]+)"\s*(?:,\s*"subtype"\s*:\s*"([a-z_]+)")?/.exec(first);
      [type, subtype] = [m?.[1], m?.[2]];
    }
    if (type === 'stream_event' || type === 'result' || (type === 'system' && subtype === 'init')) return { format: 'stream-json', documentStart: false };
    return fallback;
  } finally {
    if (given === undefined) closeSync(fd);
  }
}

export type CaptureScan =
  /** `empty`: zero bytes or blank lines only. */
  | { status: 'ok'; capture: CaptureFile; lineStarts: LineStarts; bytes: number; empty?: true }
  | { status: 'failed'; failure: ScanFailure; bytes: number }
  | { status: 'in_progress'; bytes: number; lines: number };

const SSE_FIELD = /^(event|id|retry):/;

/** Reads a capture, fail-closed like transcripts (SSE: only `data:` lines carry JSON), and replays its events. */
export function scanCapture(
  path: string,
  format: 'stream-json' | 'sse',
  options: { unfinishedLastLineMeansInProgress?: boolean; now?: number; observers?: readonly CaptureObserver[] } = {},
): CaptureScan {
  const builder = new CaptureBuilder(format, options.observers);
  let firstLine = 0;
  let firstRow: unknown;
  let nonBlank = 0;
  const rows = readJsonRows(
    path,
    format === 'sse'
      ? {
          jsonOf: (text) => {
            nonBlank++;
            return text.startsWith(':') || SSE_FIELD.test(text) ? 'skip' : text.startsWith('data:') ? text.slice(5) : 'invalid';
          },
          accept: (event, line) => {
            firstLine ||= line;
            return builder.addEvent(event, line);
          },
        }
      : {
          jsonOf: (text) => {
            nonBlank++;
            return text;
          },
          accept: (row, line) => {
            if (firstLine === 0) [firstLine, firstRow] = [line, row];
            return builder.addRow(row, line);
          },
        },
    options,
  );
  if (rows.status !== 'ok') return rows;
  if (nonBlank > 0 && builder.recognised === 0) {
    // Read as a capture (by name, `.ndjson`/`.sse`) but nothing in it is one: another tool's file.
    const verdict = firstLine > 0 && format === 'stream-json' ? sniffFirstRow(firstRow) : null;
    const failure: ScanFailure = { code: 'unknown_format', line: firstLine || null };
    if (verdict?.kind === 'foreign') failure.hint = verdict.hint;
    if (verdict?.kind === 'entire_compact') failure.code = 'entire_compact_transcript';
    return { status: 'failed', failure, bytes: rows.bytes };
  }
  const scan: CaptureScan = { status: 'ok', capture: builder.build(), lineStarts: rows.lineStarts, bytes: rows.bytes };
  if (nonBlank === 0) scan.empty = true;
  return scan;
}
