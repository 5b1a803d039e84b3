import { describe, expect, it } from 'vitest';
import { BadSideError, checkSides, parseSide } from '../../server/query/get-comparison';

const KNOWN = ['2.1.36', '2.1.37', '2.1.38', '2.1.39', '2.1.40', '2.1.41', '2.1.42'];
const DAYS = ['2026-05-01', '2026-05-02', '2026-06-10'];
const bad = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(BadSideError);
    return e as BadSideError;
  }
  throw new Error('accepted');
};

describe('compare sides are validated, not guessed', () => {
  it('reads ranges, lists and day ranges of what is indexed', () => {
    expect(parseSide('2.1.36..2.1.38', KNOWN).versions).toEqual(['2.1.36', '2.1.37', '2.1.38']);
    expect(parseSide('2.1.40,2.1.39', KNOWN).versions).toEqual(['2.1.39', '2.1.40']);
    expect(parseSide('2026-05-01..2026-05-31', KNOWN, DAYS)).toMatchObject({ kind: 'days', from: '2026-05-01', to: '2026-05-31' });
  });

  it('takes the indexed versions within a range whose ends were never indexed', () => {
    expect(parseSide('2.1.38..2.1.99', KNOWN).versions).toEqual(['2.1.38', '2.1.39', '2.1.40', '2.1.41', '2.1.42']);
    expect(parseSide('2.0.1..2.1.37', KNOWN).versions).toEqual(['2.1.36', '2.1.37']);
    expect(parseSide('2.1.36-beta..2.1.365', KNOWN).versions).toEqual(KNOWN);
  });

  it('refuses unknown versions and garbled ranges with a message naming them', () => {
    expect(bad(() => parseSide('9.9.9', KNOWN)).code).toBe('unknown_version');
    expect(bad(() => parseSide('2.1.36..2.1.392.19', KNOWN)).message).toContain('2.1.392.19');
    expect(bad(() => parseSide('2.1.50..2.1.99', KNOWN)).code).toBe('empty_side');
    expect(bad(() => parseSide('2.1.50..2.1.99', KNOWN)).message).toContain('no indexed version lies in 2.1.50..2.1.99');
    expect(bad(() => parseSide('2.1.36..2.1.37..2.1.38', KNOWN)).code).toBe('bad_side');
    expect(bad(() => parseSide('2026-02-30..2026-03-01', KNOWN, DAYS)).message).toContain('not a day');
    expect(bad(() => parseSide('2027-01-01..2027-02-01', KNOWN, DAYS)).code).toBe('empty_side');
  });

  it('refuses reversed ranges and suggests the right order', () => {
    const e = bad(() => parseSide('2.1.40..2.1.36', KNOWN));
    expect(e.code).toBe('reversed_range');
    expect(e.message).toContain('2.1.36..2.1.40');
    expect(bad(() => parseSide('2026-06-10..2026-05-01', KNOWN, DAYS)).code).toBe('reversed_range');
  });

  it('refuses overlapping and mixed sides', () => {
    const a = parseSide('2.1.36..2.1.39', KNOWN);
    expect(bad(() => checkSides(a, parseSide('2.1.39..2.1.42', KNOWN))).code).toBe('overlapping_sides');
    expect(() => checkSides(a, parseSide('2.1.40..2.1.42', KNOWN))).not.toThrow();
    const d1 = parseSide('2026-05-01..2026-05-20', KNOWN, DAYS);
    expect(bad(() => checkSides(d1, parseSide('2026-05-20..2026-06-30', KNOWN, DAYS))).code).toBe('overlapping_sides');
    expect(() => checkSides(d1, parseSide('2026-05-21..2026-06-30', KNOWN, DAYS))).not.toThrow();
    expect(bad(() => checkSides(a, d1)).code).toBe('mixed_sides');
  });
});
