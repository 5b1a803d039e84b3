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
  if (typeof value !== 'string') return null;
  // The form safeTimestamp hands on (every timestamp an adapter keeps): its day is its first ten characters.
  if (value.length === 24 && isCanonicalUtc(value)) return value.slice(0, 10);
  if (!ISO_DAY.test(value)) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

const DIGIT_0 = 48;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two or four ASCII digits at `at` as a number, or -1. */
function digits(s: string, at: number, n: 2 | 4): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - DIGIT_0;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * The form every timestamp leaves the scanner in, `YYYY-MM-DDTHH:MM:SS.sssZ`, already canonical and in range
 * (2000–2099, a real day, hours 0–23, minutes and seconds 0–59): such a value is its own canonical form, so it
 * is returned without Date.parse and toISOString. Claude Code and Codex write every row's time this way, and
 * this check runs once a row (issue 34, point 6: per-row costs weigh most where rows are small, as Codex's are).
 * Anything else (other forms, offsets, 24:00, a day past the month's end) goes the slow way.
 */
function isCanonicalUtc(s: string): boolean {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  if (s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90) return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  if (year < 2000 || year > 2099 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return false;
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const c20 = s.charCodeAt(20) - DIGIT_0;
  const c21 = s.charCodeAt(21) - DIGIT_0;
  const c22 = s.charCodeAt(22) - DIGIT_0;
  return c20 >= 0 && c20 <= 9 && c21 >= 0 && c21 <= 9 && c22 >= 0 && c22 <= 9;
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
  if (typeof value !== 'string') return null;
  if (value.length === 24 && isCanonicalUtc(value)) return value;
  return slowTimestamp(value);
}

/** safeTimestamp without its fast path: the definition the fast path must agree with (a test compares them). */
export function slowTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40 || !ISO_TIMESTAMP.test(value)) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms < EARLIEST_MS || ms >= LATEST_MS) return null;
  return new Date(ms).toISOString();
}
