/** A proportion with its 95% Wilson score interval, all three as fractions in [0, 1]. */
export interface Interval {
  rate: number;
  low: number;
  high: number;
}

const Z95 = 1.959963984540054;

/**
 * Wilson score interval for k successes in n trials (Wilson 1927). Unlike the normal
 * approximation it stays inside [0, 1] and stays honest for small n and k = 0, which is
 * exactly where failure rates live. Returns null when n is 0 (no rate at all).
 */
export function wilsonInterval(k: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  const x = Math.min(Math.max(k, 0), n);
  const p = x / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At the edges the closed form is exact (0 and 1); floating point would leave 1e-17 crumbs.
  const low = x === 0 ? 0 : Math.max(0, centre - half);
  const high = x === n ? 1 : Math.min(1, centre + half);
  return { rate: k / n, low, high };
}

/** Six significant digits: far below any interval's width, and a third of the JSON of full doubles. */
const sig6 = (x: number) => (x === 0 ? 0 : Number(x.toPrecision(6)));

/** The same interval scaled to "per 1,000" (‰), rounded to six significant digits. */
export function perThousand(k: number, n: number): Interval | null {
  const i = wilsonInterval(k, n);
  return i === null ? null : { rate: sig6(i.rate * 1000), low: sig6(i.low * 1000), high: sig6(i.high * 1000) };
}

const logFactorialCache: number[] = [0];

/** ln(n!) by summing logarithms, cached; exact enough for the counts an index holds. */
function logFactorial(n: number): number {
  for (let i = logFactorialCache.length; i <= n; i++) logFactorialCache[i] = logFactorialCache[i - 1]! + Math.log(i);
  return logFactorialCache[n]!;
}

/**
 * Fisher's exact test on the 2×2 table [[a, b], [c, d]] (rows: the two groups; columns:
 * with / without the finding). Returns the two-sided p-value (the sum of the probabilities of
 * every table with the same margins that is no more likely than the observed one, as R's
 * fisher.test does) and the one-sided p-value for "the first row's proportion is greater".
 */
export function fisherExact(a: number, b: number, c: number, d: number): { twoSided: number; greater: number } {
  const row1 = a + b;
  const row2 = c + d;
  const col1 = a + c;
  const n = row1 + row2;
  const base = logFactorial(row1) + logFactorial(row2) + logFactorial(col1) + logFactorial(n - col1) - logFactorial(n);
  const logP = (x: number) => base - logFactorial(x) - logFactorial(row1 - x) - logFactorial(col1 - x) - logFactorial(row2 - col1 + x);
  const lo = Math.max(0, col1 - row2);
  const hi = Math.min(row1, col1);
  const observed = logP(a);
  let twoSided = 0;
  let greater = 0;
  for (let x = lo; x <= hi; x++) {
    const lp = logP(x);
    const p = Math.exp(lp);
    // Relative tolerance as in R (1 + 1e-7), so ties are not lost to rounding.
    if (lp <= observed + 1e-7) twoSided += p;
    if (x >= a) greater += p;
  }
  return { twoSided: Math.min(1, twoSided), greater: Math.min(1, greater) };
}

/**
 * Ratio of two rates (k1/n1) / (k0/n0) with a 95% interval on the log scale (Katz). When a
 * count is zero, 0.5 is added to every cell (Haldane–Anscombe) so the interval stays finite;
 * the point estimate is then marked as corrected. Null when either side has no trials.
 */
export function rateRatio(k1: number, n1: number, k0: number, n0: number): { ratio: number; low: number; high: number; corrected: boolean } | null {
  if (n1 <= 0 || n0 <= 0) return null;
  const corrected = k1 === 0 || k0 === 0;
  const [a, m1, b, m0] = corrected ? [k1 + 0.5, n1 + 0.5, k0 + 0.5, n0 + 0.5] : [k1, n1, k0, n0];
  const ratio = a / m1 / (b / m0);
  const se = Math.sqrt(1 / a - 1 / m1 + 1 / b - 1 / m0);
  return { ratio, low: Math.exp(Math.log(ratio) - Z95 * se), high: Math.exp(Math.log(ratio) + Z95 * se), corrected };
}
