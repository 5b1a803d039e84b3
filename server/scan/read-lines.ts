import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

/** Where each line starts in the file, so evidence digests can re-read exact bytes later. */
export class LineStarts {
  private starts = new Float64Array(1024);
  count = 0;
  endOfData = 0;

  push(offset: number): void {
    if (this.count === this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.count++] = offset;
  }

  /** Byte range [start, end) of 1-based line `line`, terminator included. */
  span(line: number): [number, number] {
    const start = this.starts[line - 1];
    if (start === undefined || line < 1 || line > this.count) throw new RangeError(`no line ${line}`);
    const end = line < this.count ? this.starts[line]! : this.endOfData;
    return [start, end];
  }
}

/** `terminated` is false only for a last line with no \n after it. */
export type LineVisitor = (text: string, line: number, terminated: boolean) => 'continue' | 'stop';

export interface ReadOutcome {
  lines: number;
  /** False when the last line has no terminating \n (the file may still be being written). */
  endsWithNewline: boolean;
  bytes: number;
  /** Set when a line is not valid UTF-8; reading stopped there. */
  invalidUtf8Line: number | null;
  stoppedEarly: boolean;
}

const CHUNK = 4 * 1024 * 1024;
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

export function readLines(fd: number, visit: LineVisitor, starts: LineStarts): ReadOutcome {
  const chunk = (sharedChunk ??= Buffer.allocUnsafe(CHUNK));
  let carry: Buffer[] = [];
  let carryLength = 0;
  let fileOffset = 0;
  let lineNo = 0;

  const emit = (buf: Buffer, start: number, end: number, lineOffset: number, terminated = true): 'continue' | 'stop' | 'bad' => {
    lineNo++;
    starts.push(lineOffset);
    const slice = buf.subarray(start, end);
    if (!isUtf8(slice)) return 'bad';
    return visit(slice.toString('utf8'), lineNo, terminated);
  };

  const finish = (endsWithNewline: boolean, invalid: boolean, stopped: boolean): ReadOutcome => {
    starts.endOfData = fileOffset;
    return { lines: lineNo, endsWithNewline, bytes: fileOffset, invalidUtf8Line: invalid ? lineNo : null, stoppedEarly: stopped };
  };

  for (;;) {
    const n = readSync(fd, chunk, 0, CHUNK, null);
    if (n === 0) break;
    const view = n === CHUNK ? chunk : chunk.subarray(0, n);
    const chunkStart = fileOffset;
    fileOffset += n;
    let pos = 0;
    let nl = view.indexOf(NEWLINE, 0);
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
      const r = emit(view, pos, nl, chunkStart + pos);
      if (r !== 'continue') return finish(true, r === 'bad', r === 'stop');
      pos = nl + 1;
      nl = view.indexOf(NEWLINE, pos);
    }
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
