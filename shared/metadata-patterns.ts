/**
 * The only ways a value read from a transcript may leave the scanner: each function
 * returns the value when it matches a conservative pattern, and otherwise a fixed
 * placeholder. Anything free-form (text, paths, tool names, ids) never passes.
 */
import { isModelId } from './model-id';

const BLOCK_TYPE = /^[a-z_]{1,40}$/;
const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,6}(?:-[0-9A-Za-z.]{1,32})?$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})T/;

/**
 * A model id as shared/model-id.ts defines it (the one definition the API, the CLI and the page filter
 * by), kept as written: third-party backends use ids such as `qwen3-coder:30b`, `Kimi-K2` or
 * `vendor/model-name`. Anything else is null (unknown); `<synthetic>`, the harness's marker, is not one.
 */
export function safeModelId(value: unknown): string | null {
  return isModelId(value) ? value : null;
}

const TERMINAL_REASON = /^[a-z][a-z0-9_]{0,63}$/;

/** A stream-json result row's terminal_reason (e.g. completed, max_turns, malformed_tool_use_exhausted), when it looks like one. */
export function safeTerminalReason(value: unknown): string | null {
  return typeof value === 'string' && TERMINAL_REASON.test(value) ? value : null;
}

/** An assistant row's `effort` (2.1.212+: low, medium, high, xhigh, max): a short lower-case word, else null. */
const EFFORT = /^[a-z]{1,12}$/;
export function safeEffort(value: unknown): string | null {
  return typeof value === 'string' && EFFORT.test(value) ? value : null;
}

export function safeBlockType(value: string): string {
  return BLOCK_TYPE.test(value) ? value : 'other';
}

export function safeVersion(value: unknown): string | null {
  return typeof value === 'string' && VERSION.test(value) ? value : null;
}

/** UTC day (YYYY-MM-DD) of an ISO-8601 timestamp, or null when it is not one. */
export function utcDay(value: unknown): string | null {
  if (typeof value !== 'string' || !ISO_DAY.test(value)) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

/** ISO-8601 date-time as transcripts write it: date, T, time, optional fraction, then Z or an offset. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const LATEST_MS = Date.UTC(2100, 0, 1);

/**
 * A row's timestamp as it may leave the scanner: an ISO-8601 date-time between 2000 and 2100,
 * rewritten in one canonical UTC form (YYYY-MM-DDTHH:MM:SS.sssZ), so comparing two as text
 * compares them as times; null for anything else (free text never passes).
 */
export function safeTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40 || !ISO_TIMESTAMP.test(value)) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms < EARLIEST_MS || ms >= LATEST_MS) return null;
  return new Date(ms).toISOString();
}
