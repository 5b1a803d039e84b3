/**
 * `text` cut to `max` characters in the middle, two fifths kept before the ellipsis and the rest after it:
 * the start of a path and its file's own name stay visible (the page's lists and the terminal's lines share it).
 */
export function middleTruncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return text.slice(0, Math.max(0, max));
  const head = Math.floor((max - 1) * 0.4);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}
