import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countOf, getRates } from '../../server/query/get-rates';
import { type Db, openDatabase } from '../../server/store/database';
import { indexRoots } from '../../server/store/index-roots';
import { addRoot } from '../../server/store/roots';
import { FINDING_CODES } from '../../shared/finding-codes';
import { cellTotals } from '../support/db-dump';
import { generateCorpus } from '../support/generated-corpus';
import { describeWithShared } from '../support/shared-material';

describeWithShared('index on a generated corpus (../shared/bench/gen-corpus.mjs)', () => {
  const corpus = generateCorpus(['--size-mb', '30', '--seed', '3', '--canary', 'IDXSHAREDCANARY']);
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(join(corpus.dir, 'index.db'));
    addRoot(db, corpus.projects);
    await indexRoots(db, { analyser: 'workers' });
  });
  afterAll(() => {
    db.close();
    rmSync(corpus.dir, { recursive: true, force: true });
  });

  it('stores assistant messages and tool-use turns per day × version × model exactly as truth.json', () => {
    const want = corpus.truth.cells.map(({ day, version, model, assistant_messages, tool_use_turns }) => ({
      day,
      version,
      model,
      assistant_messages,
      tool_use_turns,
    }));
    expect(cellTotals(db)).toEqual(want);
  });

  it.each([...FINDING_CODES])('counts %s exactly as truth.json (0 where none was injected)', (code) => {
    const counted = countOf(getRates(db, 'day', { codes: [code] }), code);
    expect(counted).toBe(corpus.truth.totals.by_code[code] ?? 0);
  });
});
