import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { sqliteIndexStore } from '../../server/store/index-store';
import { addRoot } from '../../server/store/roots';
import { tinyAssistantRow } from '../support/tiny-transcript';

// Planning reads the known files a page at a time (2,000), gone files go in transactions of 500,
// and the writer commits a slice of files at once: a folder of more files than any of those
// bounds must plan, re-plan and shrink exactly as one of a few files does.
const tmp = mkdtempSync(join(tmpdir(), 'tcf-paged-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FILES = 4_321;
const row = (i: number) => tinyAssistantRow(`msg_${i}`);

describe('a folder of more files than a page, a removal chunk or a write slice', () => {
  it('indexes every file once, finds them all unchanged, and keeps every gone one as gone', async () => {
    const corpus = join(tmp, 'corpus');
    for (let i = 0; i < FILES; i++) {
      const dir = join(corpus, `p${Math.floor(i / 500)}`);
      if (i % 500 === 0) mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `s${i}.jsonl`), `${row(i)}\n`);
    }
    const db = openDatabase(join(tmp, 'index.db'));
    try {
      const root = addRoot(db, corpus);
      const count = () => db.prepare<[], { n: number; m: number }>('SELECT count(*) AS n, sum(assistant_messages) AS m FROM files').get()!;

      const first = await indexDatabase(db, { analyser: 'inline' });
      expect(first.filesSeen).toBe(FILES);
      expect(first.filesUnchanged).toBe(0);
      expect(count()).toEqual({ n: FILES, m: FILES });

      // The store's pages: every file once, in id order, however the pages fall.
      const store = sqliteIndexStore(db);
      const seen: number[] = [];
      for (let after = 0; ; ) {
        const page = store.knownFiles(root.id, after, 1000);
        seen.push(...page.map((f) => f.id));
        if (page.length < 1000) break;
        after = page[page.length - 1]!.id;
      }
      expect(seen).toHaveLength(FILES);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(FILES);

      const again = await indexDatabase(db, { analyser: 'inline' });
      expect(again.filesUnchanged).toBe(FILES);
      expect(again.filesRemoved).toBe(0);

      // 1,500 files gone: three folders, more than two removal chunks.
      for (const p of ['p0', 'p3', 'p7']) rmSync(join(corpus, p), { recursive: true });
      // Kept as gone (issue 27), in chunks: every row stays, 1,500 marked.
      const shrunk = await indexDatabase(db, { analyser: 'inline' });
      expect(shrunk.filesGone).toBe(1500);
      expect(shrunk.filesRemoved).toBe(0);
      expect(shrunk.filesUnchanged).toBe(FILES - 1500);
      expect(count()).toEqual({ n: FILES, m: FILES });
      expect(db.prepare('SELECT count(*) FROM files WHERE gone_ms IS NOT NULL').pluck().get()).toBe(1500);
    } finally {
      db.close();
    }
  });
});
