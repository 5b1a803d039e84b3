import { describe, expect, it } from 'vitest';
import { fisherExact, perThousand, rateRatio, wilsonInterval } from '../../shared/statistics';
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

describe("Fisher's exact test", () => {
  // Published values: Fisher's lady tasting tea (R: fisher.test(TeaTasting), p = 0.4857); the
  // dieting example of the Wikipedia article "Fisher's exact test" (p = 0.002759, R agrees);
  // Agresti, Categorical Data Analysis, tea tasting one-sided p = 0.2429.
  it('tea tasting [[3,1],[1,3]]: two-sided 0.4857, one-sided 0.2429', () => {
    const p = fisherExact(3, 1, 1, 3);
    expect(p.twoSided).toBeCloseTo(0.4857, 4);
    expect(p.greater).toBeCloseTo(0.2429, 4);
  });
  it('dieting [[1,9],[11,3]]: two-sided 0.002759', () => {
    expect(fisherExact(1, 9, 11, 3).twoSided).toBeCloseTo(0.002759, 6);
  });
  it('a large sparse table stays exact and fast: 57 of 8,000 against 0 of 32,173', () => {
    const p = fisherExact(57, 8000 - 57, 0, 32_173);
    // Every one of the 57 findings fell in the smaller group: P = C(8000,57)/C(40173,57).
    let expected = 0;
    for (let i = 0; i < 57; i++) expected += Math.log((8000 - i) / (40_173 - i));
    expect(Math.log(p.greater)).toBeCloseTo(expected, 6);
    expect(p.twoSided).toBeLessThan(1e-30);
  });
  it('gives 1 when nothing differs', () => {
    expect(fisherExact(0, 100, 0, 100)).toEqual({ twoSided: 1, greater: 1 });
  });
});

describe('rate ratio', () => {
  it('is the ratio of the two rates with a log-scale interval', () => {
    const r = rateRatio(20, 1000, 10, 1000)!;
    expect(r.ratio).toBeCloseTo(2, 12);
    // Katz: exp(ln 2 ± 1.96·sqrt(1/20 − 1/1000 + 1/10 − 1/1000)) = [0.9409, 4.2510]
    expect(r.low).toBeCloseTo(0.9409, 4);
    expect(r.high).toBeCloseTo(4.251, 4);
    expect(r.corrected).toBe(false);
  });
  it('stays finite with a zero count, and says it was corrected', () => {
    const r = rateRatio(5, 1000, 0, 1000)!;
    expect(r.corrected).toBe(true);
    expect(Number.isFinite(r.high)).toBe(true);
    expect(rateRatio(1, 0, 1, 10)).toBeNull();
  });
});
