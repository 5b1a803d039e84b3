import { isAscii, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { inspectParsed, MAX_NESTING_DEPTH } from '../duplicate-keys';
import { DocumentLines, LineStarts, type LineTable, MAX_LINE_BYTES } from '../read-lines';
import { OpenError, type OpenedFile, openRegularFile } from '../safe-open';
import type { TranscriptFile } from '../transcript-model';
import { type AdapterFailure, DOCUMENT_LINE_DEPTH, type JsonDocument } from './adapter';

/** Largest whole-file JSON document read (the same bound as one JSONL line). */
export const MAX_DOCUMENT_BYTES = MAX_LINE_BYTES;

export type DocumentRead =
  | {
      status: 'ok';
      document: JsonDocument;
      lineStarts: LineTable;
      bytes: number;
      /** The document's strings are Latin-1 views of their UTF-8 bytes (see readJsonDocument): compare them, never keep one as text. */
      latin1View: boolean;
    }
  /** Not one JSON document (the caller keeps its line-by-line verdict). */
  | { status: 'not_a_document' }
  | { status: 'failed'; failure: AdapterFailure; bytes: number };

/**
 * The line of each object's opening brace down to DOCUMENT_LINE_DEPTH, as a tree that follows the document: a
 * container's members that are containers, by key (an object's) or index (an array's); `line` 0 for an array (a
 * line is an object's). Looked up member by member (lineOfTree), where a map keyed by the path's text built that
 * text twice per object, once scanning and once asking: 10-15% of the scan and lookups of 65 MB of OpenCode
 * exports.
 */
export interface LineNode {
  line: number;
  kids: Map<string, LineNode> | LineNode[] | null;
}

const newNode = (): LineNode => ({ line: 0, kids: null });

/** A member node of `parent` (an object's by `key`, an array's at `index`), made and attached. */
function memberNode(parent: LineNode, key: string | null, index: number): LineNode {
  const node = newNode();
  if (key !== null) ((parent.kids ??= new Map()) as Map<string, LineNode>).set(key, node);
  else ((parent.kids ??= []) as LineNode[])[index] = node;
  return node;
}

/** An array index written as text (`'3'`), as a path into an array may give it; -1 for any other text. */
const indexOfText = (segment: string) => (/^(?:0|[1-9][0-9]{0,8})$/.test(segment) ? Number(segment) : -1);

/** The line of the object at `path` (JsonDocument.lineOf): keys and indexes from the root; null when none is recorded there. */
export function lineOfTree(root: LineNode, path: readonly (string | number)[]): number | null {
  let node: LineNode | undefined = root;
  for (let i = 0; i < path.length; i++) {
    const kids: LineNode['kids'] = node.kids;
    if (kids === null) return null;
    const segment = path[i]!;
    node = Array.isArray(kids)
      ? kids[typeof segment === 'number' ? segment : indexOfText(segment)]
      : kids.get(typeof segment === 'string' ? segment : String(segment));
    if (node === undefined) return null;
  }
  return node.line === 0 ? null : node.line;
}

/**
 * One read buffer per thread for documents up to REUSED_BYTES (as read-lines.ts keeps one for rows): a fresh buffer
 * per file cost a page fault on every page of every file; a larger document, rarer, gets its own and parsing it
 * outweighs its faults. The bytes are not kept: line starts are offsets, digests re-read the file.
 */
const REUSED_BYTES = 4 * 1024 * 1024;
let sharedBytes: Buffer | null = null;

function bufferOf(size: number): Buffer {
  if (size > REUSED_BYTES) return Buffer.allocUnsafe(size);
  sharedBytes ??= Buffer.allocUnsafe(REUSED_BYTES);
  return sharedBytes.subarray(0, size);
}

/**
 * Whether the bytes [start, end) of a string's text hold a `\u` escape of a character above U+007F, which a Latin-1
 * view would tell apart from the same character written raw (the escape is one character, the raw UTF-8 two to
 * four). Asked of keys only (documentShape): they alone are compared with each other (duplicates); see
 * readJsonDocument for the strings an adapter hands on.
 */
function hasWideEscape(bytes: Buffer, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    if (bytes[at] !== 0x5c) continue;
    at++;
    // Below U+0080 is `00` and a digit 0–7 (the \u001b of terminal colours, the commonest escape).
    if (bytes[at] !== 0x75) continue;
    const c4 = bytes[at + 3]!;
    if (bytes[at + 1] !== 0x30 || bytes[at + 2] !== 0x30 || c4 < 0x30 || c4 > 0x37) return true;
  }
  return false;
}

/**
 * Reads a file as one JSON document (pretty-printed OpenCode exports, Gemini CLI chats), fail
 * closed as rows are: opened without following links, valid UTF-8, one JSON value, no duplicate
 * key at any depth, nesting within the fixed limit. Records where each line starts (evidence
 * digests re-read them) and the line of every object's opening brace down to DOCUMENT_LINE_DEPTH.
 *
 * The bytes are scanned once (documentShape: lines, keys, the pieces parsed alone) and parsed in pieces
 * (parseInPieces). Once known to be UTF-8 they are parsed as Latin-1 (one character per byte), not decoded: a file
 * holding any character outside ASCII decodes to a string of two bytes per character, making it cost as much as
 * the JSON.parse after it (66 MB of OpenCode exports: 0.35 s of 0.84 s of CPU). The view is exact for everything an
 * adapter does with a string but keep it: JSON's syntax is ASCII and a UTF-8 sequence's bytes are all above 0x7F, so
 * the view parses exactly when the text does, to the same structure; a string is ASCII in the view exactly when it
 * is in the text, and then it is itself (its bytes are ASCII, read alike either way), and a non-ASCII character
 * stays non-ASCII, so a test against ASCII (a fixed marker, a pattern of ASCII characters, emptiness) answers the
 * same and ASCII runs stay whole. What the view does not keep is the equality of strings outside ASCII: a `\u`
 * escape of a character above U+007F is one character in the view, the same character written raw two to four.
 * So:
 * - keys, which are compared with each other (duplicate keys), are exact unless one holds such an escape
 *   (documentShape looks, keys only): then the file is decoded as UTF-8 instead;
 * - the strings an adapter hands on in the transcript (the session id, which the index hashes; message and call
 *   ids, compared with each other; tool names) are exact when ASCII, and a transcript with any other is read again
 *   decoded (viewIsExact; `exact`), so the view never leaves the scanner. Such ids do not occur in practice.
 * A file of ASCII only is its own view.
 */
export function readJsonDocument(path: string, given?: OpenedFile, exact = false): DocumentRead {
  let opened: OpenedFile;
  try {
    opened = given ?? openRegularFile(path);
  } catch (error) {
    return { status: 'failed', failure: { code: error instanceof OpenError ? error.problem : 'unreadable', line: null }, bytes: 0 };
  }
  const { fd } = opened;
  const { size } = opened.stat;
  let bytes: Buffer;
  try {
    if (size > MAX_DOCUMENT_BYTES) return { status: 'not_a_document' };
    bytes = bufferOf(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    if (read !== size) return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: read };
  } catch {
    return { status: 'failed', failure: { code: 'unreadable', line: null }, bytes: 0 };
  } finally {
    if (opened !== given) closeSync(fd);
  }
  const ascii = isAscii(bytes);
  if (!ascii && !isUtf8(bytes)) return { status: 'not_a_document' };
  let latin1View = !ascii && !exact;
  let shape = documentShape(bytes, latin1View);
  if (shape === null) return { status: 'not_a_document' };
  if (shape.wideKey) {
    latin1View = false;
    shape = documentShape(bytes, false)!;
  }
  const parsed = parseInPieces(bytes, shape, latin1View);
  if (parsed === undefined || parsed.value === null || typeof parsed.value !== 'object') return { status: 'not_a_document' };
  const { value, keys } = parsed;
  if (keys === 'too_deep') return { status: 'failed', failure: { code: 'nesting_too_deep', line: shape.firstLine }, bytes: size };
  if (shape.keys !== keys) return { status: 'failed', failure: { code: 'duplicate_key', line: shape.firstLine }, bytes: size };
  return { status: 'ok', ...documentOfText(value, bytes, shape), latin1View };
}

/** A document's text as the reading parses it: its Latin-1 view (readJsonDocument), or decoded from UTF-8. */
const textOf = (bytes: Buffer, start: number, end: number, latin1View: boolean) => bytes.toString(latin1View ? 'latin1' : 'utf8', start, end);

/**
 * JSON.parse of a document, each element object of an array that is a member of the root (an OpenCode export's
 * `messages[i]`, a Gemini chat's) parsed alone, and the rest (the skeleton) with a `0` in each one's place; the
 * value put together, with its keys as inspectParsed counts them; undefined when the document is not JSON. Equal to one JSON.parse of the whole: the pieces
 * are the spans the shape scan found (documentShape), which on valid JSON are exactly those values; and when the
 * skeleton and every piece parse, the whole does (the scan reads the skeleton's text as it read the whole, a piece
 * being balanced and its `0` neutral, and on valid text its strings are the parser's: so each `0`, standing between
 * `[` or `,` and `,` or `]`, is an array element outside any string, and a value put in a value's place keeps JSON
 * valid). A piece put where the parse has no `0` (a root key written twice) makes it parse the whole. One string
 * of the whole file is what this saves: above 128 KiB V8 places a string in its own pages, fresh from the kernel for
 * each file (66 MB of OpenCode exports: 0.19 s of page faults for their views, 0.05 s for their pieces).
 */
function parseInPieces(bytes: Buffer, shape: DocumentShape, latin1View: boolean): Parsed | undefined {
  const parse = (text: string) => JSON.parse(text) as unknown;
  const whole = (): Parsed => {
    const value = parse(textOf(bytes, 0, bytes.length, latin1View));
    return { value, keys: inspectParsed(value) };
  };
  try {
    if (shape.pieces.length === 0) return whole();
    const skeleton: string[] = [];
    let at = 0;
    for (const piece of shape.pieces) {
      if (!between(bytes, piece.start, piece.end)) return undefined;
      skeleton.push(textOf(bytes, at, piece.start, latin1View), '0');
      at = piece.end;
    }
    skeleton.push(textOf(bytes, at, bytes.length, latin1View));
    const root: unknown = parse(skeleton.join(''));
    // The skeleton's keys (a `0` has none) and each piece's, inspected as it is parsed, while its objects are
    // fresh in the cache (one walk of the whole afterwards came back to every object cold). A piece is the root's
    // grandchild: its nesting counts from depth 3.
    let keys: number | 'too_deep' = inspectParsed(root);
    for (const piece of shape.pieces) {
      const array = isPlainObject(root) && Object.hasOwn(root, piece.key) ? root[piece.key] : undefined;
      // A key the root holds twice: JSON.parse kept the last; read whole, to be failed for the duplicate.
      if (!Array.isArray(array) || array[piece.index] !== 0) return whole();
      const value = parse(textOf(bytes, piece.start, piece.end, latin1View));
      array[piece.index] = value;
      const inPiece = inspectParsed(value, MAX_NESTING_DEPTH - 2);
      keys = keys === 'too_deep' || inPiece === 'too_deep' ? 'too_deep' : keys + inPiece;
    }
    return { value: root, keys };
  } catch {
    return undefined;
  }
}

/** A document's value and its keys at any depth as inspectParsed counts them ('too_deep' past MAX_NESTING_DEPTH). */
interface Parsed {
  value: unknown;
  keys: number | 'too_deep';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isJsonSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A piece stands as an array element: `[` or `,` before it, `,` or `]` after it, JSON whitespace aside. */
function between(bytes: Buffer, start: number, end: number): boolean {
  let before = start - 1;
  while (isJsonSpace(bytes[before])) before--;
  let after = end;
  while (isJsonSpace(bytes[after])) after++;
  return (bytes[before] === 0x5b || bytes[before] === 0x2c) && (bytes[after] === 0x2c || bytes[after] === 0x5d);
}

const OUTSIDE_ASCII = /[\u0080-\uffff]/;
const outsideAscii = (s: string | null) => s !== null && OUTSIDE_ASCII.test(s);

/**
 * Whether a transcript read from a document's Latin-1 view (readJsonDocument) holds only strings that are
 * themselves: every string an adapter copies from the document into the model is ASCII (the rest are fixed words
 * or pass ASCII-only patterns). When one is not, the file is read again decoded.
 */
export function viewIsExact(file: TranscriptFile): boolean {
  if (outsideAscii(file.sessionId)) return false;
  for (const m of file.messages) {
    if (outsideAscii(m.messageId)) return false;
    for (const c of m.toolUses) if (outsideAscii(c.id) || outsideAscii(c.name)) return false;
  }
  for (const r of file.toolResults) {
    if (outsideAscii(r.toolUseId) || (typeof r.missingParameter === 'string' && outsideAscii(r.missingParameter))) return false;
  }
  return true;
}

/**
 * A parsed document and the bytes it was parsed from: where each line starts (evidence digests
 * re-read them) and the line of every object's opening brace. Also used for a document built here
 * (OpenCode's storage tree, opencode-storage.ts), whose bytes are its export form.
 */
export function documentOfText(
  value: unknown,
  bytes: Buffer,
  shape = documentShape(bytes, false)!,
): { document: JsonDocument; lineStarts: LineTable; bytes: number } {
  const size = bytes.length;
  const document: JsonDocument = {
    value,
    lineOf: (p) => lineOfTree(shape.lines, p),
    lineCount: shape.lineStarts.count,
    endsWithNewline: size > 0 && bytes[size - 1] === 0x0a,
  };
  return { document, lineStarts: shape.lineStarts, bytes: size };
}

/**
 * A document built in memory (OpenCode's storage tree, a session of its database), read instead of a file: its
 * bytes or text when it holds them, or `digest`, which hashes the lines a finding names without the text.
 */
export type BuiltDocument = ReturnType<typeof documentOfText> & { text?: Buffer; digest?: (lines: readonly number[]) => string; latin1View?: boolean };

/**
 * A value as `opencode export` prints it (`JSON.stringify(value, null, 2)` and a newline), without printing it:
 * its line count, the line of every object's opening brace (stringifiedLines), its exact size in bytes (the
 * compact print's, counted in the same walk: a string with nothing to escape and no byte outside ASCII is its
 * length and two quotes, any other is printed alone; plus the whitespace the pretty print adds: a newline and an
 * indentation per line, a space after each key) and its evidence digests all follow from the value. A line a
 * finding names is an object's opening line (a message, a part), whose text is its indentation, its key and `{`
 * (or `{}` and a comma): hashed as the printed bytes; any other line makes the whole text once, on demand.
 * 'too_deep' when it nests deeper than a document read from a file may (MAX_NESTING_DEPTH); 'too_large' above
 * MAX_DOCUMENT_BYTES.
 */
export function exportDocument(value: unknown): BuiltDocument | 'too_deep' | 'too_large' {
  const walk = newWalk(true);
  const count = stringifiedSpan(value, 1, walk.lines, 0, walk, null, true);
  if (count < 0) return 'too_deep';
  const size = walk.bytes + walk.extra + 1;
  if (size > MAX_DOCUMENT_BYTES) return 'too_large';
  const lineStarts = new LineStarts();
  lineStarts.count = count;
  lineStarts.endOfData = size;
  const document: JsonDocument = { value, lineOf: (p) => lineOfTree(walk.lines, p), lineCount: count, endsWithNewline: true };
  let printed: { text: string; lineStarts: LineStarts } | null = null;
  const digest = (lines: readonly number[]): string => {
    const texts = walk.texts!;
    const wanted = [...new Set(lines)].sort((a, b) => a - b);
    if (wanted.every((l) => texts.has(l))) {
      const hash = createHash('sha256');
      for (const l of wanted) hash.update(texts.get(l)!, 'utf8');
      return hash.digest('hex');
    }
    printed ??= printedText(value);
    return digestText(printed.text, printed.lineStarts, wanted);
  };
  return { document, lineStarts, bytes: size, digest };
}

/** The printed export and where each of its lines starts (offsets in the string). */
export function printedText(value: unknown): { text: string; lineStarts: LineStarts } {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const lineStarts = new LineStarts();
  let line = 0;
  let start = 0;
  while (start < text.length) {
    line++;
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl + 1;
    if (end - start > (nl === -1 ? 0 : 1)) lineStarts.push(line, start, end - start);
    start = end;
  }
  lineStarts.count = line;
  lineStarts.endOfData = text.length;
  return { text, lineStarts };
}

/** SHA-256 over the UTF-8 bytes of some lines of a text (line starts: offsets in the string), in line order. */
function digestText(text: string, lineStarts: LineTable, lines: readonly number[]): string {
  const hash = createHash('sha256');
  for (const line of lines) {
    const [start, end] = lineStarts.span(line);
    hash.update(text.slice(start, end), 'utf8');
  }
  return hash.digest('hex');
}

/** What a walk of a value as printed finds: each object's line (a tree from the root), the first object's, the bytes of whitespace added, and (when asked) each object's opening line's text. */
interface LineWalk {
  lines: LineNode;
  firstLine: number;
  /** Bytes of the compact print (JSON.stringify(value)), and those the pretty print adds. */
  bytes: number;
  extra: number;
  texts: Map<number, string> | null;
}

const newWalk = (texts: boolean): LineWalk => ({ lines: newNode(), firstLine: 0, bytes: 0, extra: 0, texts: texts ? new Map() : null });

/** A string needing no escape and holding no byte outside ASCII prints as itself between quotes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what JSON escapes
const NOT_PLAIN = /["\\\u0000-\u001f\u007f-\uffff]/;

/** Bytes of a string as JSON.stringify prints it in UTF-8. */
function stringBytes(s: string): number {
  return NOT_PLAIN.test(s) ? Buffer.byteLength(JSON.stringify(s), 'utf8') : s.length + 2;
}

/** Bytes of a value that is not an object or array as JSON.stringify prints it (in an array, what it leaves out prints `null`). */
function scalarBytes(v: unknown): number {
  if (typeof v === 'string') return stringBytes(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v).length : 4;
  if (typeof v === 'boolean') return v ? 4 : 5;
  return 4;
}

/** A member JSON.stringify leaves out of an object. */
const leftOut = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** Bytes of keys as printed, kept per thread: a session's objects repeat a few dozen keys (a bound keeps odd ones from piling up). */
const keySizes = new Map<string, number>();
function keyBytes(k: string): number {
  let n = keySizes.get(k);
  if (n === undefined) {
    n = stringBytes(k);
    if (keySizes.size >= 4096) keySizes.clear();
    keySizes.set(k, n);
  }
  return n;
}

/** The indentation of a line `depth` containers deep. */
const indent = (depth: number) => ' '.repeat(2 * depth);

/**
 * Lines `v` spans in `JSON.stringify(…, null, 2)` when it starts on `line` (-1: nested too deep), recording each
 * object's line in its node of `walk`'s tree (null below DOCUMENT_LINE_DEPTH), with the text of that line when the walk
 * keeps texts (`key`: its key in its object, null in an array or at the root; `last`: nothing printed after it in
 * its container). A plain function, recursing at most MAX_NESTING_DEPTH deep.
 */
function stringifiedSpan(v: unknown, line: number, node: LineNode | null, depth: number, walk: LineWalk, key: string | null, last: boolean): number {
  if (v === null || typeof v !== 'object') {
    walk.bytes += scalarBytes(v);
    return 1;
  }
  if (depth + 1 > MAX_NESTING_DEPTH) return -1;
  // The node of each member that is a container, while this one is above DOCUMENT_LINE_DEPTH.
  const parent = node !== null && depth < DOCUMENT_LINE_DEPTH ? node : null;
  let at = line + 1;
  if (Array.isArray(v)) {
    walk.bytes += v.length === 0 ? 2 : 1 + v.length;
    for (let i = 0; i < v.length; i++) {
      const child = v[i];
      const kid = parent !== null && child !== null && typeof child === 'object' ? memberNode(parent, null, i) : null;
      const n = stringifiedSpan(child, at, kid, depth + 1, walk, null, i === v.length - 1);
      if (n < 0) return -1;
      at += n;
      walk.extra += 1 + 2 * (depth + 1);
    }
    if (at === line + 1) return 1;
    walk.extra += 1 + 2 * depth;
    return at - line + 1;
  }
  if (walk.firstLine === 0) walk.firstLine = line;
  // Own enumerable keys, in JSON.stringify's order (for…in would add inherited ones), less those it leaves out
  // (never in parsed JSON: counted in place rather than filtered into a new array for every object).
  const object = v as Record<string, unknown>;
  const keys = Object.keys(object);
  let kept = 0;
  let lastKept = -1;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (leftOut(object[k])) continue;
    kept++;
    lastKept = i;
    walk.bytes += keyBytes(k) + 1;
  }
  walk.bytes += kept === 0 ? 2 : 1 + kept;
  if (node !== null) {
    node.line = line;
    if (walk.texts !== null) {
      const head = `${indent(depth)}${key === null ? '' : `${JSON.stringify(key)}: `}`;
      walk.texts.set(line, kept === 0 ? `${head}{}${last ? '' : ','}\n` : `${head}{\n`);
    }
  }
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const child = object[k];
    if (leftOut(child)) continue;
    const kid = parent !== null && child !== null && typeof child === 'object' ? memberNode(parent, k, -1) : null;
    const n = stringifiedSpan(child, at, kid, depth + 1, walk, k, i === lastKept);
    if (n < 0) return -1;
    at += n;
    walk.extra += 2 + 2 * (depth + 1);
  }
  if (at === line + 1) return 1;
  walk.extra += 1 + 2 * depth;
  return at - line + 1;
}

/**
 * The lines objectLines would find in `JSON.stringify(value, null, 2)`, from the value alone: an empty object or
 * array, or any other value, takes one line; a non-empty one its opening line, its members' lines (a member starts
 * on its key's line) and its closing line. Members JSON.stringify leaves out (undefined, functions, symbols) take
 * none; in an array they print `null`. Plain parsed JSON values only (no toJSON). A walk over the values, not the
 * text's characters. 'too_deep' when containers nest deeper than MAX_NESTING_DEPTH (as inspectParsed counts).
 */
export function stringifiedLines(value: unknown): { lines: LineNode; firstLine: number } | 'too_deep' {
  const walk = newWalk(false);
  if (stringifiedSpan(value, 1, walk.lines, 0, walk, null, true) < 0) return 'too_deep';
  return { lines: walk.lines, firstLine: walk.firstLine || 1 };
}

/** An element object of an array that is a member of the root object: its bytes [start, end), the member's key and its index. */
interface Piece {
  start: number;
  end: number;
  key: string;
  index: number;
}

/** What one scan of a document's bytes finds (documentShape). */
export interface DocumentShape {
  /** The 1-based line of each object's opening brace down to DOCUMENT_LINE_DEPTH, as a tree from the root (LineNode). */
  lines: LineNode;
  firstLine: number;
  /** Object keys written, at any depth (JSON.parse keeps one of two equal keys: fewer parsed means a duplicate). */
  keys: number;
  pieces: Piece[];
  /** Where each line starts (evidence digests re-read them), every line counted. */
  lineStarts: DocumentLines;
  /** Scanned for a Latin-1 view: a key holds a `\u` escape above U+007F (hasWideEscape), so the view would not keep keys' equality. */
  wideKey: boolean;
}

/** The shape of `text` (valid JSON), read from its UTF-8 bytes. */
export function objectLines(text: string): DocumentShape {
  return documentShape(Buffer.from(text, 'utf8'), false) as DocumentShape;
}

/**
 * One pass over a document's bytes, before they are parsed (null when a string never closes): the line of each
 * object's opening brace down to DOCUMENT_LINE_DEPTH, the keys written, and the pieces parseInPieces parses alone.
 * Trusted only once the document has parsed: then strings hold no raw newline, so lines are counted in whitespace,
 * and keys and braces are the parser's. Keys of paths are read as the parse reads the text (`latin1View`).
 */
export function documentShape(bytes: Buffer, latin1View: boolean): DocumentShape | null {
  const lines = newNode();
  const pieces: Piece[] = [];
  // The open containers, one slot per depth in arrays of their own, not an object per container: a pretty-printed
  // export opens one per part, state, input, time… and allocating each was a tenth of this scan and its collection.
  const isObject: boolean[] = [];
  // Each open container's node in the line tree (null below DOCUMENT_LINE_DEPTH).
  const nodes: (LineNode | null)[] = [];
  const indexes: number[] = [];
  // The bytes of the last key read in each object, quotes included (decoded only for a path: most keys name scalars).
  const keyStarts: number[] = [];
  const keyEnds: number[] = [];
  let depth = 0;
  const n = bytes.length;
  // Four bytes read at once where most bytes are passed over: indentation, and short strings looked through for their
  // closing quote (20% and 7% of this scan over 65 MB of OpenCode exports).
  const words = new DataView(bytes.buffer, bytes.byteOffset, n);
  const lineStarts = new DocumentLines();
  if (n > 0) lineStarts.add(0);
  let line = 1;
  let firstLine = 0;
  let keys = 0;
  let wideKey = false;
  let expectKey = false;
  let piece: Piece | null = null;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === 0x0a) {
      if (i + 1 < n) lineStarts.add(i + 1);
      line++;
      // A pretty-printed document's indentation: passed over four spaces at a time, then one.
      while (i + 5 < n && words.getUint32(i + 1, true) === 0x20202020) i += 4;
      while (bytes[i + 1] === 0x20) i++;
    } else if (c === 0x22) {
      // Most strings are short (keys, ids, states): looked through here before asking indexOf.
      let close = i + 1;
      const near = Math.min(n, i + 48);
      // Four bytes at a time while none is a quote (x = word ^ 0x22222222 has no zero byte: the classic test, exact
      // for "some byte is zero"), then byte by byte.
      while (close + 4 <= near) {
        const x = words.getUint32(close, true) ^ 0x22222222;
        if (((x - 0x01010101) & ~x & 0x80808080) !== 0) break;
        close += 4;
      }
      while (close < near && bytes[close] !== 0x22) close++;
      if (close === near) close = bytes.indexOf(0x22, near);
      while (close !== -1 && isEscaped(bytes, close)) close = bytes.indexOf(0x22, close + 1);
      if (close === -1) return null;
      if (expectKey && depth > 0 && isObject[depth - 1]) {
        keys++;
        keyStarts[depth - 1] = i;
        keyEnds[depth - 1] = close + 1;
        if (latin1View && !wideKey) wideKey = hasWideEscape(bytes, i + 1, close);
      }
      i = close;
    } else if (c === 0x7b || c === 0x5b) {
      // The node of the container opening here (null below DOCUMENT_LINE_DEPTH). No closure reads this scan's
      // variables: captured, each would live in a context, a load away in every turn of this loop.
      let node: LineNode | null = lines;
      if (depth > 0) {
        const top = depth - 1;
        const parent = nodes[top] ?? null;
        if (parent === null || top >= DOCUMENT_LINE_DEPTH) node = null;
        else
          node = isObject[top] ? memberNode(parent, keyText(bytes, keyStarts[top]!, keyEnds[top]!, latin1View), -1) : memberNode(parent, null, indexes[top]!);
      }
      if (c === 0x7b) {
        if (firstLine === 0) firstLine = line;
        if (node !== null) node.line = line;
        if (depth === 2 && isObject[0] && !isObject[1])
          piece = { start: i, end: -1, key: keyText(bytes, keyStarts[0]!, keyEnds[0]!, latin1View), index: indexes[1]! };
      }
      isObject[depth] = c === 0x7b;
      nodes[depth] = node;
      indexes[depth] = 0;
      keyStarts[depth] = -1;
      keyEnds[depth] = -1;
      depth++;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--;
      expectKey = false;
      if (piece !== null && depth === 2) {
        piece.end = i + 1;
        pieces.push(piece);
        piece = null;
      }
    } else if (c === 0x2c) {
      if (depth > 0) {
        if (isObject[depth - 1]) expectKey = true;
        else indexes[depth - 1]!++;
      }
    } else if (c === 0x3a) expectKey = false;
  }
  lineStarts.finish(n, n > 0 && bytes[n - 1] === 0x0a);
  return { lines, firstLine: firstLine || 1, keys, pieces, lineStarts, wideKey };
}

/** A key (its bytes, quotes included) as the parse reads it: without escapes, its own text; only one with a backslash needs decoding. */
function keyText(bytes: Buffer, start: number, end: number, latin1View: boolean): string {
  const raw = textOf(bytes, start + 1, end - 1, latin1View);
  return raw.includes('\\') ? (JSON.parse(textOf(bytes, start, end, latin1View)) as string) : raw;
}

function isEscaped(bytes: Buffer, quoteAt: number): boolean {
  let backslashes = 0;
  while (bytes[quoteAt - 1 - backslashes] === 0x5c) backslashes++;
  return (backslashes & 1) === 1;
}
