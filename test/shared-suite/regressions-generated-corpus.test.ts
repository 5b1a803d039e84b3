import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getRegressions } from '../../server/query/get-regressions';
import { type Db, openDatabase } from '../../server/store/database';
import { indexRoots } from '../../server/store/index-roots';
import { addRoot } from '../../server/store/roots';
import { generateCorpus } from '../support/generated-corpus';
import { describeWithShared } from '../support/shared-material';

// 150 MB: at the injected rates (4 and 2 per 1,000 tool-use turns) a smaller corpus leaves 2.1.40 with too few
// findings to beat the Bonferroni threshold, and the test would check the generator's luck, not the verdict.
describeWithShared('regression verdict on ../shared/bench/gen-corpus.mjs (regression injected at 2.1.40)', () => {
  const corpus = generateCorpus(['--size-mb', '150', '--seed', '5', '--canary', 'REGSHAREDCANARY']);
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(join(corpus.dir, 'index.db'));
    addRoot(db, corpus.projects);
    await indexRoots(db, {});
  });
  afterAll(() => {
    db.close();
    rmSync(corpus.dir, { recursive: true, force: true });
  });

  it.each(['missing_tool_use_block', 'empty_tool_input_with_error_result'])('%s: first bad 2.1.40, last good 2.1.39', (code) => {
    const v = getRegressions(db).verdicts.find((x) => x.code === code && x.model === null && x.dimension === 'version')!;
    expect(v).toMatchObject({ status: 'regression', last_good: '2.1.39', first_bad: '2.1.40' });
  });
});
