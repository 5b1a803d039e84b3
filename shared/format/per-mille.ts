/** A rate per 1,000 (‰) with sensible precision: 0‰, 0.42‰, 4.1‰, 41‰ (the page, the CLI and the Markdown report alike). */
export function formatPerMille(value: number): string {
  return `${formatPerMilleNumber(value)}‰`;
}

/** The number of `formatPerMille` without its sign: 0, 0.42, 4.1, 41. */
export function formatPerMilleNumber(value: number): string {
  if (value === 0) return '0';
  if (value < 1) return value.toFixed(2);
  if (value < 10) return value.toFixed(1);
  return value.toFixed(0);
}
