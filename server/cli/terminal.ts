import { middleTruncate } from '../../shared/middle-truncate';

/** What a terminal command's text is fitted to: a width in columns, and whether it may be coloured. */
export interface Terminal {
  width: number;
  colour: boolean;
}

/** The width when nothing says otherwise (no usable COLUMNS, not a terminal). */
export const DEFAULT_WIDTH = 80;

/**
 * `COLUMNS` when it is a whole number (the shell's value, or the user's), else the terminal's own
 * width, else 80. Colour only on a terminal, never with `NO_COLOR` set (no-color.org); `FORCE_COLOR`
 * (set, other than 0 or false) turns it on off a terminal, and `NO_COLOR` still wins.
 */
export function terminalOf(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv = process.env): Terminal {
  const columns = /^[0-9]{1,5}$/.test(env.COLUMNS ?? '') ? Number(env.COLUMNS) : Number.NaN;
  const width = columns >= 1 ? columns : stream.isTTY && stream.columns && stream.columns > 0 ? stream.columns : DEFAULT_WIDTH;
  const noColour = (env.NO_COLOR ?? '') !== '';
  const force = !['', '0', 'false'].includes(env.FORCE_COLOR ?? '');
  return { width, colour: !noColour && (stream.isTTY === true || force) };
}

/** Plain text: the width a test or a JSON-less caller gets when it names none. */
export const PLAIN: Terminal = { width: DEFAULT_WIDTH, colour: false };

const SGR = { bold: [1, 22], dim: [2, 22], red: [31, 39], yellow: [33, 39], cyan: [36, 39] } as const;
export type Style = keyof typeof SGR;

/** `text` in a style when colour is on; the text alone otherwise. Applied after layout, so widths count only visible characters. */
export function paint(t: Terminal, style: Style, text: string): string {
  if (!t.colour || text === '') return text;
  const [on, off] = SGR[style];
  return `\x1b[${on}m${text}\x1b[${off}m`;
}

/** The text without its colour codes (what the terminal shows). */
export function unpainted(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is removed
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

/**
 * Prose wrapped at spaces to `width` columns, continuation lines indented by `indent`; a word
 * longer than a line is cut in the middle, so no line is ever wider than `width`.
 */
export function wrapText(text: string, width: number, indent = '  '): string[] {
  const lines: string[] = [];
  // Leading spaces are kept (an indented line stays indented).
  const lead0 = /^ */.exec(text)![0];
  let line = lead0;
  for (const word of text.slice(lead0.length).split(' ')) {
    const lead = lines.length === 0 ? '' : indent;
    if (line.trim() !== '' && (lead + line + ' ' + word).length > width) {
      lines.push(lead + line);
      line = '';
    }
    line = line.trim() === '' ? line + word : `${line} ${word}`;
  }
  if (line !== '' || lines.length === 0) lines.push((lines.length === 0 ? '' : indent) + line);
  return lines.map((l) => (l.length > width ? middleTruncate(l, width) : l));
}

/** A column of a fitted table. */
export interface FitColumn {
  header: string;
  cells: string[];
  right?: boolean;
  /** Shorter cells to use when the table is too wide (e.g. a model without its `claude-` prefix and date). */
  short?: string[];
  /** A shorter header to use with them. */
  shortHeader?: string;
  /**
   * The width this column may shrink to (its cells cut in the middle) at each step, tried in turn
   * until the table fits: the widest shrinkable column gives a character at a time; after the first
   * step the gap narrows to one space. Omitted (or a step past its end): never cut (at that step).
   */
  min?: number[];
  /** Colour for the cells (applied after layout). */
  style?: Style;
}

/**
 * An aligned table no line of which is wider than `t.width`: short cells first, then the columns
 * cut in the middle step by step (the gap narrowing to one space after the first), so the start
 * and end of a long file name stay visible. Cells should already be printable (shared/printable.ts).
 */
export function fitTable(columns: FitColumn[], t: Terminal): string[] {
  let headers = columns.map((c) => c.header);
  const natural = (i: number, cells: string[]) => cells.reduce((w, s) => Math.max(w, s.length), headers[i]!.length);
  let cells = columns.map((c) => c.cells);
  let widths = columns.map((_, i) => natural(i, cells[i]!));
  let gap = 2;
  const total = () => widths.reduce((n, w) => n + w, 0) + gap * (columns.length - 1);
  if (total() > t.width && columns.some((c) => c.short || c.shortHeader)) {
    headers = columns.map((c) => c.shortHeader ?? c.header);
    cells = columns.map((c) => c.short ?? c.cells);
    widths = columns.map((_, i) => natural(i, cells[i]!));
  }
  const steps = columns.reduce((n, c) => Math.max(n, c.min?.length ?? 0), 0);
  for (let step = 0; step < steps && total() > t.width; step++) {
    if (step === 1) gap = 1;
    const floor = columns.map((c, i) => Math.min(widths[i]!, c.min?.[Math.min(step, c.min.length - 1)] ?? widths[i]!));
    while (total() > t.width) {
      let widest = -1;
      for (let i = 0; i < columns.length; i++) if (widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
      if (widest < 0) break;
      widths[widest]!--;
    }
  }
  const sep = ' '.repeat(gap);
  const row = (values: string[], styled: boolean) =>
    values
      .map((v, i) => {
        const c = columns[i]!;
        const cut = middleTruncate(v, widths[i]!);
        const pad = ' '.repeat(widths[i]! - cut.length);
        const shown = styled && c.style ? paint(t, c.style, cut) : cut;
        return c.right ? pad + shown : shown + pad;
      })
      .join(sep)
      .trimEnd();
  const lines = [
    row(headers, false),
    row(
      widths.map((w) => '-'.repeat(w)),
      false,
    ),
  ];
  for (let r = 0; r < (cells[0]?.length ?? 0); r++)
    lines.push(
      row(
        cells.map((c) => c[r]!),
        true,
      ),
    );
  // Only at a width smaller than the narrowest the columns allow: cut the line itself (never wider than asked).
  return lines.map((l) => {
    const visible = unpainted(l);
    return visible.length <= t.width ? l : middleTruncate(visible, t.width);
  });
}
