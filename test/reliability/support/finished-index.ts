import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../support/run-cli';

/**
 * A finished index of the demo corpus, alone in a new folder `name` under `parent`: its last writer
 * closed it, so every change is merged and SQLite removed its side files (what the read-only
 * tests need to start from).
 */
export function finishedIndex(parent: string, name: string, corpus: string): { dir: string; db: string } {
  const dir = join(parent, name);
  mkdirSync(dir);
  const db = join(dir, 'index.db');
  // 2: the demo corpus holds one damaged file on purpose.
  expect(runCli(['index', corpus, '--db', db]).status).toBe(2);
  expect(readdirSync(dir)).toEqual(['index.db']);
  return { dir, db };
}
