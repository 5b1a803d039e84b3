/** One colour per finding code, readable on light and dark backgrounds (Okabe–Ito palette). */
const PALETTE = ['#d55e00', '#0072b2', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#f0e442', '#999999'];

export function codeColor(code: string, codes: readonly string[]): string {
  const i = codes.indexOf(code);
  return PALETTE[Math.max(i, 0) % PALETTE.length]!;
}
