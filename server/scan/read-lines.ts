import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

/** Where a file's lines are, as evidence digests and line counts read them (LineStarts, DocumentLines). */
export interface LineTable {
  /** Every line of the file, kept or not. */
  readonly count: number;
  readonly endOfData: number;
  /** Byte range [start, end) of 1-based line `line`, terminator included; a RangeError for a line not kept. */
  span(line: number): [number, number];
}

/**
 * Every line of a JSON document (documentShape), in one array of starts where LineStarts keeps three numbers per
 * line: a pretty-printed document has a line per key and value (65 MB of OpenCode exports: millions), and
 * LineStarts' three writes a line cost 27 ms of the index's 1 s there. Answers as LineStarts does: a blank line
 * (its newline alone) is not a line a digest reads.
 */
export class DocumentLines implements LineTable {
  private starts = new Float64Array(4096);
  private added = 0;
  count = 0;
  endOfData = 0;
  private endsWithNewline = false;

  /** The next line starts at byte `start`. */
  add(start: number): void {
    if (this.added === this.starts.length) {
      const grown = new Float64Array(this.added * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.added++] = start;
  }

  /** Every line added: the bytes end at `endOfData`, the last line with or without its newline. */
  finish(endOfData: number, endsWithNewline: boolean): void {
    this.count = this.added;
    this.endOfData = endOfData;
    this.endsWithNewline = endsWithNewline;
  }

  span(line: number): [number, number] {
    if (!Number.isInteger(line) || line < 1 || line > this.added) throw new RangeError(`no line ${line}`);
    const start = this.starts[line - 1]!;
    const end = line < this.added ? this.starts[line]! : this.endOfData;
    const terminated = line < this.added || this.endsWithNewline;
    if (end - start <= (terminated ? 1 : 0)) throw new RangeError(`no line ${line}`);
    return [start, end];
  }
}

/**
 * Where the lines a digest may need start and end, so evidence digests can re-read exact
 * bytes later. Only lines the visitor kept are recorded (blank lines never are): memory
 * follows the rows the detectors hold, not the number of newlines in the file.
 */
export class LineStarts implements LineTable {
  private lines = new Float64Array(256);
  private starts = new Float64Array(256);
  private lengths = new Uint32Array(256);
  private kept = 0;
  /** Every line of the file, kept or not. */
  count = 0;
  endOfData = 0;

  /** Records 1-based `line` as the bytes [start, start + length), its terminator included. */
  push(line: number, start: number, length: number): void {
    if (this.kept === this.lines.length) {
      const size = this.kept * 2;
      const lines = new Float64Array(size);
      const starts = new Float64Array(size);
      const lengths = new Uint32Array(size);
      lines.set(this.lines);
      starts.set(this.starts);
      lengths.set(this.lengths);
      this.lines = lines;
      this.starts = starts;
      this.lengths = lengths;
    }
    this.lines[this.kept] = line;
    this.starts[this.kept] = start;
    this.lengths[this.kept] = length;
    this.kept++;
  }

  /** Lines recorded (blank lines are not). */
  get recorded(): number {
    return this.kept;
  }

  /** Byte range [start, end) of 1-based line `line`, terminator included. */
  span(line: number): [number, number] {
    let lo = 0;
    let hi = this.kept - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.lines[mid]!;
      if (at === line) return [this.starts[mid]!, this.starts[mid]! + this.lengths[mid]!];
      if (at < line) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new RangeError(`no line ${line}`);
  }
}

/**
 * `terminated` is false only for a last line with no \n after it. Empty lines are counted but
 * not visited. 'ignore' continues without recording the line's place (a blank line).
 */
export type LineVisitor = (text: string, line: number, terminated: boolean) => 'continue' | 'ignore' | 'stop';

export interface ReadOutcome {
  lines: number;
  /** False when the last line has no terminating \n (the file may still be being written). */
  endsWithNewline: boolean;
  bytes: number;
  /** Set when a line is not valid UTF-8; reading stopped there. */
  invalidUtf8Line: number | null;
  /** Set when a line is longer than MAX_LINE_BYTES; reading stopped there, without holding it. */
  tooLongLine: number | null;
  stoppedEarly: boolean;
}

const CHUNK = 4 * 1024 * 1024;
/** Longest line read (V8 strings stop near 512 MiB; JSON.parse needs several times the text). */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Reads an open file in fixed chunks (never whole into memory), splits on \n (a \r before
 * it stays part of the line) and hands each line's text to `visit`, numbered from 1.
 * A final line without \n is still a line. Lines are checked for valid UTF-8 before they
 * are decoded, so a bad byte is reported at its line instead of becoming U+FFFD.
 */
/**
 * One read buffer per thread, reused for every file: allocating 4 MiB per file cost page
 * faults on every one of thousands of small transcripts. Safe because reading is synchronous
 * and every line is decoded (or copied, when it spans chunks) before the next read.
 */
let sharedChunk: Buffer | null = null;

export function readLines(fd: number, visit: LineVisitor, starts: LineStarts, maxLineBytes = MAX_LINE_BYTES): ReadOutcome {
  const chunk = (sharedChunk ??= Buffer.allocUnsafe(CHUNK));
  let carry: Buffer[] = [];
  let carryLength = 0;
  let fileOffset = 0;
  let lineNo = 0;

  const emit = (buf: Buffer, start: number, end: number, lineOffset: number, terminated = true): 'continue' | 'stop' | 'bad' => {
    lineNo++;
    // An empty line carries nothing: counted, never visited, never recorded.
    if (end === start) return 'continue';
    const slice = buf.subarray(start, end);
    if (!isUtf8(slice)) return 'bad';
    const r = visit(slice.toString('utf8'), lineNo, terminated);
    if (r === 'ignore') return 'continue';
    starts.push(lineNo, lineOffset, end - start + (terminated ? 1 : 0));
    return r;
  };

  const finish = (endsWithNewline: boolean, invalid: boolean, stopped: boolean, tooLong = false): ReadOutcome => {
    starts.endOfData = fileOffset;
    starts.count = lineNo;
    return {
      lines: lineNo,
      endsWithNewline,
      bytes: fileOffset,
      invalidUtf8Line: invalid ? lineNo : null,
      tooLongLine: tooLong ? lineNo + 1 : null,
      stoppedEarly: stopped || tooLong,
    };
  };

  for (;;) {
    // Positioned reads: the descriptor may have been read before (scan-file.ts hands one open file to each reader).
    const n = readSync(fd, chunk, 0, CHUNK, fileOffset);
    if (n === 0) break;
    const view = n === CHUNK ? chunk : chunk.subarray(0, n);
    const chunkStart = fileOffset;
    fileOffset += n;
    let pos = 0;
    let nl = view.indexOf(NEWLINE, 0);
    if (carryLength + (nl === -1 ? n : nl) > maxLineBytes) return finish(false, false, false, true);
    if (carryLength > 0 && nl !== -1) {
      carry.push(view.subarray(0, nl + 1));
      const whole = Buffer.concat(carry, carryLength + nl + 1);
      const r = emit(whole, 0, whole.length - 1, chunkStart - carryLength);
      carry = [];
      carryLength = 0;
      if (r !== 'continue') return finish(true, r === 'bad', r === 'stop');
      pos = nl + 1;
      nl = view.indexOf(NEWLINE, pos);
    }
    while (nl !== -1) {
      if (nl - pos > maxLineBytes) return finish(false, false, false, true);
      const r = emit(view, pos, nl, chunkStart + pos);
      if (r !== 'continue') return finish(true, r === 'bad', r === 'stop');
      pos = nl + 1;
      nl = view.indexOf(NEWLINE, pos);
    }
    if (n - pos > maxLineBytes) return finish(false, false, false, true);
    if (pos < n) {
      // The rest of this chunk belongs to a line that continues: keep a copy, the chunk is reused.
      carry.push(Buffer.from(view.subarray(pos, n)));
      carryLength += n - pos;
    }
  }
  if (carryLength > 0) {
    const whole = Buffer.concat(carry, carryLength);
    const r = emit(whole, 0, whole.length, fileOffset - carryLength, false);
    return finish(false, r === 'bad', r === 'stop');
  }
  return finish(true, false, false);
}
