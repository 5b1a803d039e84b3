/**
 * JSON.parse keeps the last of two equal keys and says nothing. Instead of a slower
 * hand-written parser, we count key tokens in the text (a string followed by ':') and
 * the keys that survived parsing: on a line that JSON.parse accepted, every key token
 * creates or overwrites one property, so the counts differ exactly when some object
 * has a duplicate key. Both counts are linear and lean on native indexOf.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

function isEscaped(text: string, quoteAt: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quoteAt - 1 - backslashes) === BACKSLASH) backslashes++;
  return (backslashes & 1) === 1;
}

/** Number of object keys written in `text`, which must already be valid JSON. */
export function countKeyTokens(text: string): number {
  let keys = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) return keys;
    let k = close + 1;
    let c = text.charCodeAt(k);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++k);
    if (c === COLON) keys++;
    open = c === QUOTE ? k : text.indexOf('"', k);
  }
  return keys;
}

/** Deepest nesting of arrays and objects a row may have (the same on every thread: no recursion). */
export const MAX_NESTING_DEPTH = 512;

/**
 * Number of own keys in every object of a parsed JSON value, at any depth, or 'too_deep' when
 * arrays/objects nest deeper than `maxDepth`. Iterative, with an explicit stack: a deep row
 * can never overflow the call stack, whose size differs between the main thread and workers.
 */
export function inspectParsed(value: unknown, maxDepth = MAX_NESTING_DEPTH): number | 'too_deep' {
  if (value === null || typeof value !== 'object') return 0;
  let keys = 0;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return 'too_deep';
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const item: unknown = current[i];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    // for…in over a parsed object: its own keys (`__proto__` included; Object.prototype has no enumerable key),
    // read through V8's enum cache with no array made per object as Object.values made one: half the time on
    // Claude Code's rows of the 65 MB corpus (16-18 ms against 36-38) and on OpenCode's exports (5-17 against 18-27),
    // at V8's default tiering and at the CLI's (v8-tiering.ts), and in a fresh worker thread (34 against 57-61).
    const object = current as Record<string, unknown>;
    for (const key in object) {
      keys++;
      const item = object[key];
      if (item !== null && typeof item === 'object') {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return keys;
}

/** Number of own keys in every object of a parsed JSON value, at any depth (no depth limit). */
export function countParsedKeys(value: unknown): number {
  return inspectParsed(value, Number.POSITIVE_INFINITY) as number;
}

export function hasDuplicateKey(text: string, parsed: unknown): boolean {
  if (parsed === null || typeof parsed !== 'object') return false;
  return countKeyTokens(text) !== countParsedKeys(parsed);
}
