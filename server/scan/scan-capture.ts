import { closeSync, readSync } from 'node:fs';
import { CaptureBuilder } from './build-capture';
import type { CaptureFile } from './capture-model';
import type { CaptureObserver } from './observers';
import { readJsonRows, type ScanFailure } from './read-json-rows';
import type { LineStarts } from './read-lines';
import { openRegularFile } from './safe-open';

export type FileFormat = 'transcript' | 'stream-json' | 'sse';

/**
 * Which reader a file needs: `.sse` is a raw server-sent-event log; a `.jsonl`/`.ndjson` file
 * whose first row is a stream-json row (`stream_event`, the `system` `init` row or `result`)
 * is a stream-json capture; anything else is a Claude Code transcript.
 */
export function detectFormat(path: string): FileFormat {
  if (path.endsWith('.sse')) return 'sse';
  const fallback: FileFormat = path.endsWith('.ndjson') ? 'stream-json' : 'transcript';
  let fd: number;
  try {
    // Non-blocking, regular files only: a FIFO named *.jsonl must not hang the peek.
    fd = openRegularFile(path).fd;
  } catch {
    return fallback; // the reader reports why
  }
  try {
    // A small peek: this runs on every file, and the first row's type is near its start.
    const buf = Buffer.alloc(4096);
    let text: string;
    try {
      text = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } catch {
      return fallback; // not readable as a file: the reader reports it
    }
    const first = text.split('\n').find((l) => l.trim() !== '');
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
    if (type === 'stream_event' || type === 'result' || (type === 'system' && subtype === 'init')) return 'stream-json';
    return fallback;
  } finally {
    closeSync(fd);
  }
}

export type CaptureScan =
  | { status: 'ok'; capture: CaptureFile; lineStarts: LineStarts; bytes: number }
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
  const rows = readJsonRows(
    path,
    format === 'sse'
      ? {
          jsonOf: (text) => (text.startsWith(':') || SSE_FIELD.test(text) ? 'skip' : text.startsWith('data:') ? text.slice(5) : 'invalid'),
          accept: (event, line) => builder.addEvent(event, line),
        }
      : { jsonOf: (text) => text, accept: (row, line) => builder.addRow(row, line) },
    options,
  );
  if (rows.status !== 'ok') return rows;
  return { status: 'ok', capture: builder.build(), lineStarts: rows.lineStarts, bytes: rows.bytes };
}
