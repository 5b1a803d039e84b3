import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { dumpIndex } from '../support/db-dump';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-write-batches-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const corpus = join(tmp, 'corpus');
generateDemoCorpus({ out: corpus, seed: 5, sessions: 20, canary: 'BATCHW' });

/** Index the corpus on this thread, with or without the CLI's batched writing: the progress seen and the rows. */
async function run(name: string, analyseHere: boolean) {
  const db = openDatabase(join(tmp, `${name}.db`));
  try {
    addRoot(db, corpus);
    const done: number[] = [];
    const summary = await indexDatabase(db, {
      analyser: 'inline',
      analyseHere,
      onProgress: (p) => {
        if (p.phase === 'indexing' && done.at(-1) !== p.filesDone) done.push(p.filesDone);
      },
    });
    return { done, summary, rows: dumpIndex(db) };
  } finally {
    db.close();
  }
}

describe('files analysed on the writing thread', () => {
  it('are written a batch per transaction for the CLI, a file each otherwise, to the same rows', async () => {
    const each = await run('each', false);
    const batched = await run('batched', true);
    const files = each.summary.filesChanged;
    expect(files).toBeGreaterThan(10);
    // A file each: progress moves through every count. Batched (the demo's files are small): in fewer, larger steps.
    expect(each.done).toEqual(Array.from({ length: files + 1 }, (_, i) => i));
    expect(batched.done.at(-1)).toBe(files);
    expect(batched.done.length).toBeLessThan(files / 2);
    expect(batched.rows).toEqual(each.rows);
  });
});
