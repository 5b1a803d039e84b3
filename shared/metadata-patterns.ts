/**
 * The only ways a value read from a transcript may leave the scanner: each function
 * returns the value when it matches a conservative pattern, and otherwise a fixed
 * placeholder. Anything free-form (text, paths, tool names, ids) never passes.
 */

const MODEL_ID = /^[a-z0-9._-]{1,64}$/;
const BLOCK_TYPE = /^[a-z_]{1,40}$/;
const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,6}(?:-[0-9A-Za-z.]{1,32})?$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})T/;

export function safeModelId(value: unknown): string | null {
  return typeof value === 'string' && MODEL_ID.test(value) ? value : null;
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
