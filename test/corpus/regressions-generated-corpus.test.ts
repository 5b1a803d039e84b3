import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { getRates } from '../../server/query/get-rates';
import { getRegressions } from '../../server/query/get-regressions';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { compareVersions } from '../../shared/version-order';
import { generateCorpus } from '../support/generated-corpus';
import { describeWithShared } from '../support/shared-material';

// 150 MB: at the injected rates (2 and 4 per 1,000 tool-use turns) a smaller corpus leaves the first bad version with
// too few findings to beat the Bonferroni threshold, and the test would check the generator's luck, not the verdict.
describeWithShared('regression verdicts on ../shared/bench/gen-corpus.mjs', () => {
  const corpus = generateCorpus(['--size-mb', '150', '--seed', '5', '--canary', 'REGSHAREDCANARY']);
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(join(corpus.dir, 'index.db'));
    addRoot(db, corpus.projects);
    await indexDatabase(db, {});
  });
  afterAll(() => {
    db.close();
    rmSync(corpus.dir, { recursive: true, force: true });
  });

  /** From truth.json: the first version with an injected finding of `code` (read from the finding's own row). */
  function firstBad(code: string): string {
    const versions = corpus.truth.findings
      .filter((f) => f.code === code)
      .map((f) => {
        const lines = readFileSync(join(corpus.projects, f.file), 'utf8').split('\n');
        return (JSON.parse(lines[f.lines[0]! - 1]!) as { version: string }).version;
      });
    return versions.sort(compareVersions)[0]!;
  }
  /** From truth.json's cells: versions in order, and those with a recorded stop reason. */
  const versions = () => [...new Set(corpus.truth.cells.map((c) => c.version))].sort(compareVersions);
  const stopKnown = (v: string) => corpus.truth.cells.filter((c) => c.version === v).reduce((n, c) => n + c.stop_known_messages, 0);
  const verdict = (code: string) =>
    getRegressions(db, { codes: [code] }).verdicts.find((x) => x.code === code && x.model === null && x.dimension === 'version')!;

  it("empty_tool_input_with_error_result, over tool-use turns: measurable in the legacy era (no stop reason recorded), over truth.json's turns", () => {
    const bad = firstBad('empty_tool_input_with_error_result');
    expect(stopKnown(bad)).toBe(0); // the {}-input regression starts where no stop reason is recorded
    const v = verdict('empty_tool_input_with_error_result');
    expect(v).toMatchObject({ opportunity: 'tool_use_turns', not_measurable: null, not_measurable_keys: [] });
    expect(v.tests).toBe(versions().length - 1);
    const turns = (version: string) => corpus.truth.cells.filter((c) => c.version === version).reduce((n, c) => n + c.tool_use_turns, 0);
    const rows = getRates(db, 'version', { codes: ['empty_tool_input_with_error_result'] });
    expect(rows.map((r) => [r.key, r.codes[0]!.opportunities])).toEqual(versions().map((x) => [x, turns(x)]));
    // At 150 MB the first bad version holds only a few findings (0.2% of ~1,100 turns): too few to beat the Bonferroni
    // threshold over every version. Whatever is claimed must not name a version before the injected start.
    if (v.status === 'regression') expect(compareVersions(v.first_bad!, bad)).toBeGreaterThanOrEqual(0);
  });

  it('missing_tool_use_block, over messages with a recorded stop reason: the legacy versions are left out as not measurable', () => {
    const bad = firstBad('missing_tool_use_block');
    const measurable = versions().filter((v) => stopKnown(v) > 0);
    const legacy = versions().filter((v) => stopKnown(v) === 0);
    expect(legacy.length).toBeGreaterThan(0);
    expect(verdict('missing_tool_use_block')).toMatchObject({
      status: 'regression',
      opportunity: 'stop_known_messages',
      last_good: measurable[measurable.indexOf(bad) - 1],
      first_bad: bad,
      not_measurable_keys: legacy,
    });
  });
});
