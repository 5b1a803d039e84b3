import { FINDING_CODES } from '../../../shared/finding-codes';

/**
 * One distinct colour per finding code (Paul Tol's bright and vibrant schemes, colour-blind
 * safe, mid-luminance so each reads on the light and the dark background). A code keeps its
 * colour whatever else is drawn; codes that tend to coincide (a missing block and its retry
 * nudge) also differ in dash pattern, so one line cannot hide under another.
 */
export const PALETTE = [
  '#4477aa',
  '#ee7733',
  '#228833',
  '#aa3377',
  '#ccbb44',
  '#66ccee',
  '#cc3311',
  '#009988',
  '#ee3377',
  '#997700',
  '#33bbee',
  '#bbbbbb',
  '#ee6677',
  '#6f5fbf',
  '#882255',
  '#aa4499',
] as const;

const DASHES = ['', '6 3', '2 2', '8 3 2 3'];

export function codeColor(code: string, codes: readonly string[] = FINDING_CODES): string {
  const i = (FINDING_CODES as readonly string[]).indexOf(code);
  return PALETTE[(i >= 0 ? i : Math.max(codes.indexOf(code), 0)) % PALETTE.length]!;
}

export function codeDash(code: string): string {
  const i = Math.max((FINDING_CODES as readonly string[]).indexOf(code), 0);
  return DASHES[i % DASHES.length]!;
}
