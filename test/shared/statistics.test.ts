import { describe, expect, it } from 'vitest';
import { perThousand, wilsonInterval } from '../../shared/statistics';
import { compareVersions } from '../../shared/version-order';

describe('Wilson score interval (95%)', () => {
  // Reference values: Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I
  // (method 3, score interval without continuity correction), and Wilson (1927).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i → [%f, %f]', (k, n, low, high) => {
    const i = wilsonInterval(k, n)!;
    expect(i.low).toBeCloseTo(low, 4);
    expect(i.high).toBeCloseTo(high, 4);
    expect(i.rate).toBeCloseTo(k / n, 12);
  });

  it('is exact at the edges and undefined without trials', () => {
    expect(wilsonInterval(0, 10)!.low).toBe(0);
    expect(wilsonInterval(10, 10)!.high).toBe(1);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('scales to per 1,000', () => {
    const i = perThousand(57, 32_173)!;
    expect(i.rate).toBeCloseTo(1.7717, 3);
    expect(i.low).toBeGreaterThan(1.3);
    expect(i.high).toBeLessThan(2.4);
  });
});

describe('semantic version order', () => {
  it('orders numerically, pre-releases before releases, non-versions last', () => {
    const sorted = ['2.1.100', 'garbage', '2.1.9', '2.0.76', '2.1.10', '2.1.10-beta.2', '', '1.0.128', '2.1.10-beta.10'].sort(compareVersions);
    expect(sorted).toEqual(['1.0.128', '2.0.76', '2.1.9', '2.1.10-beta.2', '2.1.10-beta.10', '2.1.10', '2.1.100', '', 'garbage']);
  });
});
