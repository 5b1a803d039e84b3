import { describe, expect, it } from 'vitest';
import {
  codeLabel,
  formatBytes,
  formatCount,
  formatDay,
  formatDuration,
  formatPerMille,
  formatRate,
  formatRateWithInterval,
  formatShortDay,
  formatTimestamp,
  middleTruncate,
  shortDigest,
} from '../../web/src/lib/format';

describe('formatters', () => {
  it.each([
    ['short/name.jsonl', 34, 'short/name.jsonl'],
    ['demo/-home-user-project-0/2aab9fb1-48f1-4de9-89cf-50181871d769.jsonl', 34, 'demo/-home-us…f-50181871d769.jsonl'],
    ['abcdefghij', 5, 'a…hij'],
  ])('middleTruncate(%s, %i) = %s', (text, max, cut) => {
    expect(middleTruncate(text, max)).toBe(cut);
    expect(middleTruncate(text, max).length).toBeLessThanOrEqual(max);
  });

  it.each([
    [0, '0‰'],
    [0.004, '0.00‰'],
    [0.4213, '0.42‰'],
    [4.1, '4.1‰'],
    [9.96, '10.0‰'],
    [41.4, '41‰'],
    [1000, '1000‰'],
  ])('formatPerMille(%f) = %s', (v, s) => expect(formatPerMille(v)).toBe(s));

  it('formats rates with and without their interval, and the absence of a rate', () => {
    expect(formatRate(null)).toBe('–');
    expect(formatRate({ rate: 4.1, low: 1.2, high: 8 })).toBe('4.1‰');
    expect(formatRateWithInterval({ rate: 4.1, low: 1.2, high: 8 })).toBe('4.1‰ (95% CI 1.2–8.0‰)');
    expect(formatRateWithInterval({ rate: 0, low: 0, high: 16.2 })).toBe('0‰ (95% CI 0–16‰)');
    expect(formatRateWithInterval(null)).toBe('–');
  });

  it.each([
    [0, '0'],
    [32173, '32,173'],
    [1234567, '1,234,567'],
  ])('formatCount(%i) = %s', (n, s) => expect(formatCount(n)).toBe(s));

  it.each([
    [512, '512 B'],
    [1500, '1.5 kB'],
    [301_000_000, '301.0 MB'],
    [2_500_000_000, '2.50 GB'],
  ])('formatBytes(%i) = %s', (n, s) => expect(formatBytes(n)).toBe(s));

  it.each([
    [null, '–'],
    [Number.NaN, '–'],
    [-1, '–'],
    [4.4, '4 s'],
    [75, '1 min 15 s'],
    [3725, '1 h 02 min'],
  ])('formatDuration(%s) = %s', (n, s) => expect(formatDuration(n)).toBe(s));

  it('formats UTC days and timestamps without shifting them to local time', () => {
    expect(formatDay('2026-05-29')).toBe('May 29, 2026');
    expect(formatDay(null)).toBe('unknown');
    expect(formatShortDay('2026-01-01')).toBe('Jan 1');
    expect(formatTimestamp('2026-12-02T14:07:14.123Z')).toBe('2026-12-02 14:07 UTC');
    expect(formatTimestamp(null)).toBe('never');
  });

  it('labels codes and shortens digests', () => {
    expect(codeLabel('missing_tool_use_block')).toBe('missing tool use block');
    expect(shortDigest('a'.repeat(64))).toBe('aaaaaaaaaaaa');
  });
});
