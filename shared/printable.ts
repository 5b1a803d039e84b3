/**
 * A name or reason as it may be printed to a terminal or written into Markdown: every control
 * character (C0, DEL, C1, and the line/paragraph separators) becomes a visible escape, so a file
 * named with a newline or an escape sequence cannot forge rows, colours or headings. A
 * backslash is doubled, so an escaped name never reads as another real name.
 */
export function printable(text: string): string {
  return text.replace(/[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\\') return '\\\\';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
