import { describe, expect, it } from 'vitest';
import { safeTimestamp, slowTimestamp, utcDay } from '../../shared/metadata-patterns';

/**
 * safeTimestamp returns a canonical `YYYY-MM-DDTHH:MM:SS.sssZ` as it is, without Date.parse (issue 34, point 6:
 * it runs on every row). That fast path must give exactly what the definition gives: every boundary of every
 * field, in and out of range, is compared with slowTimestamp (the definition, without the fast path).
 */
const pad = (n: number, w: number) => String(n).padStart(w, '0');

function* candidates(): Generator<string> {
  for (const year of [1999, 2000, 2023, 2024, 2099, 2100, 2400])
    for (let month = 0; month <= 13; month++)
      for (const day of [0, 1, 28, 29, 30, 31, 32])
        for (const [h, m, s] of [
          [0, 0, 0],
          [23, 59, 59],
          [24, 0, 0],
          [12, 60, 0],
          [12, 0, 60],
        ])
          yield `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(h!, 2)}:${pad(m!, 2)}:${pad(s!, 2)}.${pad((year * 7 + day) % 1000, 3)}Z`;
  const base = '2026-06-01T10:00:03.123Z';
  // Every position of the canonical form replaced by a character that does not belong there.
  for (let i = 0; i < base.length; i++) for (const c of ['x', '/', ':', '-', ' ', '9', 'z', '\u0661']) yield base.slice(0, i) + c + base.slice(i + 1);
  yield* [
    base,
    `${base} `,
    base.slice(0, 23),
    '2026-06-01T10:00:03Z',
    '2026-06-01T10:00:03.1234Z',
    '2026-06-01T10:00:03.123+00:00',
    '2026-06-01T10:00:03.123+02:00',
  ];
}

/**
 * `fast` agrees with `definition` on every candidate, and real cases took the fast path (canonical timestamps:
 * else the test would compare the definition with itself).
 */
function agreesOnCandidates(fast: (v: string) => string | null, definition: (v: string) => string | null): void {
  let canonical = 0;
  for (const value of candidates()) {
    expect([value, fast(value)]).toEqual([value, definition(value)]);
    if (safeTimestamp(value) === value) canonical++;
  }
  expect(canonical).toBeGreaterThan(100);
}

describe('safeTimestamp: the fast path agrees with the definition', () => {
  it('on every field boundary and every misplaced character', () => {
    agreesOnCandidates(safeTimestamp, slowTimestamp);
    expect(safeTimestamp(42)).toBeNull();
  });
});

/** utcDay's own fast path (a canonical timestamp's first ten characters) against the day Date gives, on the same candidates. */
function dayByDate(value: string): string | null {
  if (!/^(\d{4})-(\d{2})-(\d{2})T/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

describe('utcDay: the fast path agrees with Date', () => {
  it('on every field boundary and every misplaced character', () => {
    agreesOnCandidates(utcDay, dayByDate);
    expect(utcDay('2026-06-01T23:30:00.000-02:00')).toBe('2026-06-02');
    expect(utcDay(42)).toBeNull();
  });
});
