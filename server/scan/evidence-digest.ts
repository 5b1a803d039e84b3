import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import type { LineTable } from './read-lines';
import { openRegularFile } from './safe-open';

/**
 * SHA-256 over the exact bytes of the given lines, in ascending order, each with its
 * terminator as it stands in the file. Two people holding the same bytes get the same
 * digest without either showing the bytes.
 */
export function digestLines(path: string, lineStarts: LineTable, lines: readonly number[]): string {
  const hash = createHash('sha256');
  const { fd } = openRegularFile(path);
  try {
    for (const line of [...new Set(lines)].sort((a, b) => a - b)) {
      const [start, end] = lineStarts.span(line);
      const buf = Buffer.allocUnsafe(end - start);
      let done = 0;
      while (done < buf.length) {
        const n = readSync(fd, buf, done, buf.length - done, start + done);
        if (n === 0) throw new Error('file shrank while being digested');
        done += n;
      }
      hash.update(buf);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The same digest over bytes held in memory (a document built by the scanner, such as an OpenCode storage session). */
export function digestBytes(bytes: Buffer, lineStarts: LineTable, lines: readonly number[]): string {
  const hash = createHash('sha256');
  for (const line of [...new Set(lines)].sort((a, b) => a - b)) {
    const [start, end] = lineStarts.span(line);
    if (end > bytes.length) throw new Error('line outside the document');
    hash.update(bytes.subarray(start, end));
  }
  return hash.digest('hex');
}
