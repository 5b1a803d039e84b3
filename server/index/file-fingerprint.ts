import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../scan/safe-open';

const EDGE = 4096;
/** Hex characters kept: 128 bits. */
export const FINGERPRINT_HEX = 32;

/**
 * A cheap content fingerprint: the first 128 bits (32 hex characters) of the SHA-256 of the size
 * and the first and last 4 KiB. With size and mtime it decides whether a file is read again; it
 * costs two small reads, so re-indexing an unchanged corpus costs almost nothing. 128 bits, not
 * 256: the index stores it as 16 bytes per file (migration 015), and a same-size, same-mtime change
 * that collides in 128 bits is not a risk worth 16 more bytes on every file.
 */
export function fileFingerprint(path: string, size: number): string {
  const { fd } = openRegularFile(path);
  try {
    return fingerprintOpenFile(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** The same, from a descriptor already open (and checked) by the caller. */
export function fingerprintOpenFile(fd: number, size: number): string {
  const hash = createHash('sha256').update(String(size));
  const head = Buffer.alloc(Math.min(EDGE, size));
  readSync(fd, head, 0, head.length, 0);
  hash.update(head);
  if (size > EDGE) {
    const tail = Buffer.alloc(Math.min(EDGE, size - EDGE));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    hash.update(tail);
  }
  return hash.digest('hex').slice(0, FINGERPRINT_HEX);
}
