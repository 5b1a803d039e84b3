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
  it('splits on \\n, keeps \\r in the line, counts a final line without \\n', () => {
    const { outcome, lines, starts } = read('a\r\n\nbb\nccc');
    expect(lines).toEqual(['a\r', '', 'bb', 'ccc']);
    expect(outcome).toMatchObject({ lines: 4, endsWithNewline: false, bytes: 10, invalidUtf8Line: null });
    expect([1, 2, 3, 4].map((n) => starts.span(n))).toEqual([
      [0, 3],
      [3, 4],
      [4, 7],
      [7, 10],
    ]);
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
