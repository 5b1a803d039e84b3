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

/** The same interval scaled to "per 1,000" (‰). */
export function perThousand(k: number, n: number): Interval | null {
  const i = wilsonInterval(k, n);
  return i === null ? null : { rate: i.rate * 1000, low: i.low * 1000, high: i.high * 1000 };
}
