import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineStarts, readLines } from '../../server/scan/read-lines';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-lines-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function read(content: Buffer | string) {
  const path = join(tmp, 'f.jsonl');
  writeFileSync(path, content);
  const fd = openSync(path, 'r');
  const starts = new LineStarts();
  const lines: string[] = [];
  try {
    const outcome = readLines(
      fd,
      (text) => {
        lines.push(text);
        return 'continue';
      },
      starts,
    );
    return { outcome, lines, starts };
  } finally {
    closeSync(fd);
  }
}

describe('readLines', () => {
  it('splits on \\n, keeps \\r in the line, counts a final line without \\n; empty lines are counted, not visited', () => {
    const { outcome, lines, starts } = read('a\r\n\nbb\nccc');
    expect(lines).toEqual(['a\r', 'bb', 'ccc']);
    expect(outcome).toMatchObject({ lines: 4, endsWithNewline: false, bytes: 10, invalidUtf8Line: null });
    expect([1, 3, 4].map((n) => starts.span(n))).toEqual([
      [0, 3],
      [4, 7],
      [7, 10],
    ]);
    expect(() => starts.span(2)).toThrow(RangeError);
  });

  it('keeps no place for empty lines: a million of them record nothing', () => {
    const { outcome, lines, starts } = read(`${'\n'.repeat(1_000_000)}x\n`);
    expect(outcome.lines).toBe(1_000_001);
    expect(lines).toEqual(['x']);
    expect(starts.recorded).toBe(1);
    expect(starts.span(1_000_001)).toEqual([1_000_000, 1_000_002]);
  });

  it('stops at a line longer than the limit without holding it, and names it', () => {
    const path = join(tmp, 'long.jsonl');
    writeFileSync(path, `{}\n${'x'.repeat(5000)}\n{}\n`);
    const fd = openSync(path, 'r');
    try {
      const seen: number[] = [];
      const outcome = readLines(
        fd,
        (_t, line) => {
          seen.push(line);
          return 'continue';
        },
        new LineStarts(),
        1000,
      );
      expect(outcome.tooLongLine).toBe(2);
      expect(seen).toEqual([1]);
    } finally {
      closeSync(fd);
    }
  });

  it('reassembles lines that cross the 4 MiB read boundary, multi-byte characters included', () => {
    const long = 'é'.repeat(3 * 1024 * 1024); // 6 MiB of two-byte characters
    const { lines, starts, outcome } = read(`x\n${long}\ny\n`);
    expect(lines.map((l) => l.length)).toEqual([1, long.length, 1]);
    expect(lines[1] === long).toBe(true);
    expect(starts.span(3)).toEqual([2 + 6 * 1024 * 1024 + 1, 2 + 6 * 1024 * 1024 + 3]);
    expect(outcome.endsWithNewline).toBe(true);
  });

  it('stops at the first line that is not UTF-8 and names it', () => {
    const { outcome, lines } = read(Buffer.concat([Buffer.from('ok\nstill ok\nbad '), Buffer.from([0xff, 0xfe]), Buffer.from('\nnever read\n')]));
    expect(outcome.invalidUtf8Line).toBe(3);
    expect(lines).toEqual(['ok', 'still ok']);
  });

  it('reads an empty file as no lines', () => {
    expect(read('').outcome).toMatchObject({ lines: 0, endsWithNewline: true });
  });
});
