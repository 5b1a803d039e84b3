const unsafe = (code: number) => code === 0x5c || code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

/**
 * A name or reason as it may be printed to a terminal or written into Markdown: every control
 * character (C0, DEL, C1, and the line/paragraph separators) becomes a visible escape, so a file
 * named with a newline or an escape sequence cannot forge rows, colours or headings. A
 * backslash is doubled, so an escaped name never reads as another real name.
 */
export function printable(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!unsafe(code)) out += text[i];
    else if (code === 0x5c) out += '\\\\';
    else out += code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}
