import { closeSync, constants, openSync, readSync } from 'node:fs';
import { CaptureBuilder } from './build-capture';
import type { CaptureFile } from './capture-model';
import { hasDuplicateKey } from './duplicate-keys';
import { LineStarts, readLines } from './read-lines';
import type { ScanFailure } from './scan-file';

export type FileFormat = 'transcript' | 'stream-json' | 'sse';

/**
 * Which reader a file needs: `.sse` is a raw server-sent-event log; a `.jsonl`/`.ndjson` file
 * whose first row is a stream-json row (`stream_event`, the `system` `init` row or `result`)
 * is a stream-json capture; anything else is a Claude Code transcript.
 */
export function detectFormat(path: string): FileFormat {
  if (path.endsWith('.sse')) return 'sse';
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return 'transcript'; // the transcript reader reports it as unreadable
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('utf8').split('\n').find((l) => l.trim() !== '');
    if (!first) return 'transcript';
    const row = JSON.parse(first) as { type?: unknown; subtype?: unknown };
    if (row.type === 'stream_event' || row.type === 'result' || (row.type === 'system' && row.subtype === 'init')) return 'stream-json';
    return path.endsWith('.ndjson') ? 'stream-json' : 'transcript';
  } catch {
    return path.endsWith('.ndjson') ? 'stream-json' : 'transcript';
  } finally {
    closeSync(fd);
  }
}

export type CaptureScan =
  | { status: 'ok'; capture: CaptureFile; lineStarts: LineStarts; bytes: number }
  | { status: 'failed'; failure: ScanFailure; bytes: number }
  | { status: 'in_progress'; bytes: number; lines: number };

const BLANK = /^[ \t\r]*$/;
const SSE_FIELD = /^(event|id|retry):/;

/** Reads a capture, fail-closed like transcripts, and replays its events. */
export function scanCapture(path: string, format: 'stream-json' | 'sse', options: { unfinishedLastLineMeansInProgress?: boolean } = {}): CaptureScan {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  }
  const builder = new CaptureBuilder(format);
  const lineStarts = new LineStarts();
  let failure: ScanFailure | null = null;
  let unfinished = false;
  try {
    const outcome = readLines(
      fd,
      (text, line, terminated) => {
        if (text.length === 0 || BLANK.test(text)) return 'continue';
        let json = text;
        if (format === 'sse') {
          if (text.startsWith(':') || SSE_FIELD.test(text)) return 'continue';
          if (!text.startsWith('data:')) {
            failure = { code: 'invalid_structure', line };
            return 'stop';
          }
          json = text.slice(5);
        }
        let value: unknown;
        try {
          value = JSON.parse(json);
        } catch {
          if (!terminated && options.unfinishedLastLineMeansInProgress) unfinished = true;
          else failure = { code: 'malformed_json', line };
          return 'stop';
        }
        if (hasDuplicateKey(json, value)) {
          failure = { code: 'duplicate_key', line };
          return 'stop';
        }
        const verdict = format === 'sse' ? builder.addEvent(value, line) : builder.addRow(value, line);
        if (verdict !== 'ok') {
          failure = { code: 'invalid_structure', line };
          return 'stop';
        }
        return 'continue';
      },
      lineStarts,
    );
    if (outcome.invalidUtf8Line !== null) {
      const cut = !outcome.endsWithNewline && outcome.invalidUtf8Line === outcome.lines;
      if (cut && options.unfinishedLastLineMeansInProgress) unfinished = true;
      else failure = { code: 'invalid_utf8', line: outcome.invalidUtf8Line };
    }
    if (unfinished) return { status: 'in_progress', bytes: outcome.bytes, lines: outcome.lines };
    if (failure !== null) return { status: 'failed', failure, bytes: outcome.bytes };
    return { status: 'ok', capture: builder.build(), lineStarts, bytes: outcome.bytes };
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  } finally {
    closeSync(fd);
  }
}
