import { isUtf8 } from 'node:buffer';

/**
 * File names are bytes; the index, the API and terminals need text. Every name component gets one
 * display name, unique and reversible:
 *
 * - a component that is valid UTF-8 with no backslash and no control character is itself (every
 *   ordinary name, unchanged from earlier builds);
 * - any other component is escaped byte by byte: a backslash as `\\`, each byte of a control
 *   character (C0, DEL, C1, U+2028/U+2029) and each byte that is not part of valid UTF-8 as `\xNN`
 *   (two lowercase hex digits), every other character as itself.
 *
 * An escaped component always holds a backslash and a plain one never does, so decoding is
 * unambiguous and two different names never share a display name (tested as a property).
 */

const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

function plainComponent(raw: Buffer): boolean {
  if (!isUtf8(raw) || raw.includes(0x5c)) return false;
  const text = raw.toString('utf8');
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return false;
  return true;
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceLength(raw: Buffer, i: number): number {
  const lead = raw[i]!;
  const len = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (len === 0 || i + len > raw.length) return 0;
  return isUtf8(raw.subarray(i, i + len)) ? len : 0;
}

const hex = (b: number) => `\\x${b.toString(16).padStart(2, '0')}`;

/** The display name of one name component (no `/` in it: a file name never holds one). */
export function displayComponent(raw: Buffer): string {
  if (plainComponent(raw)) return raw.toString('utf8');
  let out = '';
  for (let i = 0; i < raw.length; ) {
    const len = sequenceLength(raw, i);
    if (len === 0) {
      out += hex(raw[i]!);
      i++;
      continue;
    }
    const char = raw.subarray(i, i + len).toString('utf8');
    if (char === '\\') out += '\\\\';
    else if (isControl(char.charCodeAt(0))) for (let j = i; j < i + len; j++) out += hex(raw[j]!);
    else out += char;
    i += len;
  }
  return out;
}

/** Whether a display component stands for bytes that a JavaScript string cannot name directly. */
export const isEscapedComponent = (display: string): boolean => display.includes('\\');

/** The bytes of a display component, or null when it is not one displayComponent can give. */
export function componentBytes(display: string): Buffer | null {
  if (!isEscapedComponent(display)) return Buffer.from(display, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < display.length; ) {
    if (display[i] !== '\\') {
      const code = display.codePointAt(i)!;
      const char = String.fromCodePoint(code);
      parts.push(Buffer.from(char, 'utf8'));
      i += char.length;
    } else if (display[i + 1] === '\\') {
      parts.push(Buffer.from([0x5c]));
      i += 2;
    } else if (display[i + 1] === 'x' && /^[0-9a-f]{2}$/.test(display.slice(i + 2, i + 4))) {
      parts.push(Buffer.from([Number.parseInt(display.slice(i + 2, i + 4), 16)]));
      i += 4;
    } else {
      return null;
    }
  }
  const raw = Buffer.concat(parts);
  // Only the canonical form: a display name that re-escapes differently names nothing.
  return displayComponent(raw) === display ? raw : null;
}

/**
 * A path for the file system when some component of a relative name is escaped. Node only opens
 * such a file by a Buffer path, while paths travel through the index (and to worker threads) as
 * strings; so they travel as `\0<folder>\0<relative display name>`, which no real path can be (a
 * path never holds NUL, and Node refuses one that does: a byte path that reached `fs` unconverted
 * fails instead of opening something else). fsPath turns it back into bytes just before opening.
 */
const MARK = '\0';

export function childPath(folder: string, relDisplay: string): string {
  if (!relDisplay.split('/').some(isEscapedComponent)) return folder.endsWith('/') ? `${folder}${relDisplay}` : `${folder}/${relDisplay}`;
  if (folder.startsWith(MARK)) {
    const [base, rel] = splitMarked(folder)!;
    return `${MARK}${base}${MARK}${rel}/${relDisplay}`;
  }
  return `${MARK}${folder}${MARK}${relDisplay}`;
}

function splitMarked(path: string): [string, string] | null {
  const second = path.indexOf(MARK, 1);
  return second < 0 ? null : [path.slice(1, second), path.slice(second + 1)];
}

/** The path to give `fs`: the string itself, or the bytes a marked path stands for (null: malformed). */
export function fsPath(path: string): string | Buffer | null {
  if (!path.startsWith(MARK)) return path;
  const split = splitMarked(path);
  if (!split) return null;
  const [base, rel] = split;
  const parts: Buffer[] = [Buffer.from(base.endsWith('/') ? base.slice(0, -1) : base, 'utf8')];
  for (const component of rel.split('/')) {
    const bytes = componentBytes(component);
    if (!bytes || bytes.length === 0) return null;
    parts.push(Buffer.from('/'), bytes);
  }
  return Buffer.concat(parts);
}
