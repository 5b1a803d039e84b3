/**
 * Where a JSON text stops parsing, and what kind of token was expected there: metadata about
 * an `__unparsedToolInput` raw string that never reveals its bytes. Only the offset (in UTF-16
 * code units, as JavaScript counts string length) and one word from JSON_EXPECTED leave here.
 * Iterative (an explicit stack), so hostile nesting cannot overflow the call stack.
 */

/** The token kinds a stop can name. */
export const JSON_EXPECTED = ['value', 'key', 'colon', 'comma_or_close', 'string_end', 'escape', 'digit', 'literal', 'end_of_input'] as const;
export type JsonExpected = (typeof JSON_EXPECTED)[number];

export interface JsonStop {
  offset: number;
  expected: JsonExpected;
}

const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** null when the whole text is one valid JSON value (with surrounding whitespace). */
export function jsonStop(s: string): JsonStop | null {
  const n = s.length;
  let i = 0;
  // Stack of open containers: '{' or '['.
  const stack: number[] = [];
  const ws = () => {
    while (i < n && isWs(s.charCodeAt(i))) i++;
  };
  /** Reads a string starting at its opening quote; returns a stop or null. */
  const str = (): JsonStop | null => {
    i++;
    for (;;) {
      if (i >= n) return { offset: i, expected: 'string_end' };
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c < 0x20) return { offset: i, expected: 'string_end' };
      if (c === 0x5c) {
        i++;
        if (i >= n) return { offset: i, expected: 'escape' };
        const e = s.charCodeAt(i);
        if (e === 0x75) {
          for (let k = 1; k <= 4; k++) if (i + k >= n || !isHex(s.charCodeAt(i + k))) return { offset: i + k, expected: 'escape' };
          i += 5;
        } else if ('"\\/bfnrt'.includes(s[i]!)) i++;
        else return { offset: i, expected: 'escape' };
      } else i++;
    }
  };
  const num = (): JsonStop | null => {
    if (s.charCodeAt(i) === 0x2d) i++;
    if (i >= n || !isDigit(s.charCodeAt(i))) return { offset: i, expected: 'digit' };
    if (s.charCodeAt(i) === 0x30) i++;
    else while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i < n && s.charCodeAt(i) === 0x2e) {
      i++;
      if (i >= n || !isDigit(s.charCodeAt(i))) return { offset: i, expected: 'digit' };
      while (i < n && isDigit(s.charCodeAt(i))) i++;
    }
    if (i < n && (s.charCodeAt(i) === 0x65 || s.charCodeAt(i) === 0x45)) {
      i++;
      if (i < n && (s.charCodeAt(i) === 0x2b || s.charCodeAt(i) === 0x2d)) i++;
      if (i >= n || !isDigit(s.charCodeAt(i))) return { offset: i, expected: 'digit' };
      while (i < n && isDigit(s.charCodeAt(i))) i++;
    }
    return null;
  };
  const literal = (word: string): JsonStop | null => {
    for (let k = 0; k < word.length; k++) if (i + k >= n || s[i + k] !== word[k]) return { offset: i + k, expected: 'literal' };
    i += word.length;
    return null;
  };
  // States: expecting a value; after a value (comma, close or end).
  for (;;) {
    // Expect a value.
    ws();
    if (i >= n) return { offset: i, expected: 'value' };
    const c = s.charCodeAt(i);
    let stop: JsonStop | null = null;
    let opened = false;
    if (c === 0x7b || c === 0x5b) {
      stack.push(c);
      i++;
      ws();
      const close = c === 0x7b ? 0x7d : 0x5d;
      if (i < n && s.charCodeAt(i) === close) {
        stack.pop();
        i++;
      } else opened = true;
    } else if (c === 0x22) stop = str();
    else if (c === 0x2d || isDigit(c)) stop = num();
    else if (c === 0x74) stop = literal('true');
    else if (c === 0x66) stop = literal('false');
    else if (c === 0x6e) stop = literal('null');
    else return { offset: i, expected: 'value' };
    if (stop) return stop;
    if (opened && stack[stack.length - 1] === 0x7b) {
      const key = objectKey();
      if (key) return key;
      continue;
    }
    if (opened) continue;
    // After a value: comma, close, or the end.
    for (;;) {
      ws();
      if (stack.length === 0) return i < n ? { offset: i, expected: 'end_of_input' } : null;
      if (i >= n) return { offset: i, expected: 'comma_or_close' };
      const d = s.charCodeAt(i);
      const top = stack[stack.length - 1]!;
      if (d === 0x2c) {
        i++;
        if (top === 0x7b) {
          const key = objectKey();
          if (key) return key;
        }
        break;
      }
      if ((top === 0x7b && d === 0x7d) || (top === 0x5b && d === 0x5d)) {
        stack.pop();
        i++;
        continue;
      }
      return { offset: i, expected: 'comma_or_close' };
    }
  }

  /** Inside an object, before a member: its key and colon (the value follows). */
  function objectKey(): JsonStop | null {
    ws();
    if (i >= n || s.charCodeAt(i) !== 0x22) return { offset: i, expected: 'key' };
    const stop = str();
    if (stop) return stop;
    ws();
    if (i >= n || s.charCodeAt(i) !== 0x3a) return { offset: i, expected: 'colon' };
    i++;
    return null;
  }
}
