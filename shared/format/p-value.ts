/** A p-value in two significant digits, in exponent form below 1e-4 (`3.2e-17`); `–` for none. */
export function formatP(p: number | null): string {
  if (p === null) return '–';
  return p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);
}
