/**
 * A line that is not one JSON value may still be two real rows that lost the newline between
 * them: Claude Code's writers append without a shared lock, and after an unclean exit a resumed
 * session writes its first row straight after the last one (`…}{"type":…`). Or a row was torn
 * mid-string and the next complete row follows it on the same line. This tells the two apart.
 * A piece counts only if it parses as one complete JSON object on its own; nothing is repaired
 * or guessed.
 */
export type DamagedLine =
  /** Two or more complete objects and nothing else: every row is whole. */
  | { kind: 'concatenated'; rows: Array<{ json: string; value: Record<string, unknown> }> }
  /** A torn piece (not one complete object) before the complete rows that follow it on the line. */
  | { kind: 'torn'; rows: Array<{ json: string; value: Record<string, unknown> }> }
  /** Nothing on the line parses as complete rows. */
  | { kind: 'unreadable' };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * After a torn piece, a kept object must look like a whole row, not an object nested in the
 * torn one (a `usage` or `message` object can parse on its own): a string `type` and one of the
 * keys every top-level row carries.
 */
function looksLikeRow(value: Record<string, unknown>): boolean {
  if (typeof value.type !== 'string') return false;
  return ['uuid', 'sessionId', 'session_id', 'timestamp', 'leafUuid', 'messageId'].some((k) => Object.hasOwn(value, k));
}

/** Attempts at most this many parses on one line: a damaged line costs bounded work. */
const MAX_ATTEMPTS = 64;

/**
 * The line from `start` split into complete objects, each ending at a `}` that is followed by
 * `{` or by the end of the line (trailing blanks allowed); null when that is impossible.
 */
function splitWhole(text: string, start: number, budget: { left: number }): Array<{ json: string; value: Record<string, unknown> }> | null {
  const end = text.trimEnd().length;
  const rows: Array<{ json: string; value: Record<string, unknown> }> = [];
  let from = start;
  while (from < end) {
    if (text.charCodeAt(from) !== 0x7b) return null;
    let found = false;
    // Candidate ends: each `}{` junction after `from`, then the end of the line.
    let j = text.indexOf('}{', from);
    while (budget.left > 0) {
      const stop = j === -1 ? end : j + 1;
      budget.left--;
      const json = text.slice(from, stop);
      const value = parseObject(json);
      if (value !== null) {
        rows.push({ json, value });
        from = stop;
        found = true;
        break;
      }
      if (j === -1) break;
      j = text.indexOf('}{', j + 1);
    }
    if (!found) return null;
  }
  return rows;
}

export function splitDamagedLine(text: string): DamagedLine {
  const budget = { left: MAX_ATTEMPTS };
  const first = text.search(/\S/);
  if (first >= 0) {
    const whole = splitWhole(text, first, budget);
    if (whole !== null && whole.length >= 2) return { kind: 'concatenated', rows: whole };
  }
  // A torn row: find the earliest `{"` from which the rest of the line is complete rows.
  let at = text.indexOf('{"', Math.max(first, 0) + 1);
  while (at !== -1 && budget.left > 0) {
    const rest = splitWhole(text, at, budget);
    if (rest !== null && rest.length > 0 && looksLikeRow(rest[0]!.value)) return { kind: 'torn', rows: rest };
    at = text.indexOf('{"', at + 1);
  }
  return { kind: 'unreadable' };
}
