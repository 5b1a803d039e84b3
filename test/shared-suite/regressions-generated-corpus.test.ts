import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRegressions } from '../../server/query/get-regressions';
import { type Db, openDatabase } from '../../server/store/database';
import { indexRoots } from '../../server/store/index-roots';
import { addRoot } from '../../server/store/roots';
import { FINDING_OPPORTUNITY } from '../../shared/finding-codes';
import { compareVersions } from '../../shared/version-order';
import { generateCorpus } from '../support/generated-corpus';
import { requireSharedOrSkip } from '../support/shared-material';

// 150 MB: at the injected rates (4 and 2 per 1,000 tool-use turns) a smaller corpus leaves the first bad version
// with too few findings to beat the Bonferroni threshold, and the test would check the generator's luck, not the verdict.
// The versions come from truth.json: the first bad one is the first with an injected finding of the code, the last good
// one the version before it that had opportunities for the code (stop-known messages for missing_tool_use_block).
describe.runIf(requireSharedOrSkip('regressions on a generated corpus'))(
  'regression verdict on ../shared/bench/gen-corpus.mjs (versions from truth.json)',
  () => {
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

    /** From truth.json and the rows it points at: the version of the first finding, and the version before it with opportunities. */
    const injected = (code: 'missing_tool_use_block' | 'empty_tool_input_with_error_result') => {
      const { truth } = corpus;
      const lines = new Map<string, string[]>();
      const versionAt = (file: string, line: number) => {
        let l = lines.get(file);
        if (!l) lines.set(file, (l = readFileSync(join(corpus.projects, file), 'utf8').split('\n')));
        return (JSON.parse(l[line - 1]!) as { version: string }).version;
      };
      const bad = [...new Set(truth.findings.filter((f) => f.code === code).map((f) => versionAt(f.file, f.lines[0]!)))].sort(compareVersions);
      const opportunities = FINDING_OPPORTUNITY[code] === 'stop_known_messages' ? 'stop_known_messages' : 'tool_use_turns';
      const measured = [...new Set(truth.cells.filter((c) => c[opportunities] > 0).map((c) => c.version))].sort(compareVersions);
      const firstBad = bad[0]!;
      return { firstBad, lastGood: measured[measured.indexOf(firstBad) - 1] };
    };

    it.each(['missing_tool_use_block', 'empty_tool_input_with_error_result'] as const)('%s: first bad and last good as injected', (code) => {
      const { firstBad, lastGood } = injected(code);
      expect(lastGood).toBeDefined();
      const v = getRegressions(db).verdicts.find((x) => x.code === code && x.model === null && x.dimension === 'version')!;
      expect(v).toMatchObject({ status: 'regression', last_good: lastGood, first_bad: firstBad });
    });
  },
);
