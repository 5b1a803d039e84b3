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

/** Number of own keys in every object of a parsed JSON value, at any depth. */
export function countParsedKeys(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let keys = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object') keys += countParsedKeys(item);
    }
    return keys;
  }
  for (const key in value) {
    keys++;
    const item = (value as Record<string, unknown>)[key];
    if (item !== null && typeof item === 'object') keys += countParsedKeys(item);
  }
  return keys;
}

export function hasDuplicateKey(text: string, parsed: unknown): boolean {
  if (parsed === null || typeof parsed !== 'object') return false;
  return countKeyTokens(text) !== countParsedKeys(parsed);
}
