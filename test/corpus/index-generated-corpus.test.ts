import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { countOf, getRates } from '../../server/query/get-rates';
import { getSummary } from '../../server/query/get-summary';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { FINDING_CODES } from '../../shared/finding-codes';
import { safeModelId } from '../../shared/metadata-patterns';
import { compareVersions } from '../../shared/version-order';
import { cellTotals } from '../support/db-dump';
import { generateCorpus } from '../support/generated-corpus';
import { describeWithShared } from '../support/shared-material';

describeWithShared('index on a generated corpus (../shared/bench/gen-corpus.mjs)', () => {
  const corpus = generateCorpus(['--size-mb', '30', '--seed', '3', '--canary', 'IDXSHAREDCANARY']);
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(join(corpus.dir, 'index.db'));
    addRoot(db, corpus.projects);
    await indexDatabase(db, { analyser: 'workers' });
  });
  afterAll(() => {
    db.close();
    rmSync(corpus.dir, { recursive: true, force: true });
  });

  it('stores assistant messages, tool-use turns and recorded stop reasons per day × version × model exactly as truth.json', () => {
    // truth.json: model messages without synthetic rows; a tool-use turn stops for tool_use or, with no stop reason
    // recorded (2.1.12–2.1.42 record none), calls a tool; damaged files count nowhere.
    // A model id the scanner's model-id check does not pass is stored as unknown (''): map truth the same way.
    const byCell = new Map<
      string,
      { day: string; version: string; model: string; assistant_messages: number; tool_use_turns: number; stop_known_messages: number }
    >();
    for (const c of corpus.truth.cells) {
      const model = safeModelId(c.model) ?? '';
      const key = `${c.day}|${c.version}|${model}`;
      const into = byCell.get(key) ?? { day: c.day, version: c.version, model, assistant_messages: 0, tool_use_turns: 0, stop_known_messages: 0 };
      into.assistant_messages += c.assistant_messages;
      into.tool_use_turns += c.tool_use_turns;
      into.stop_known_messages += c.stop_known_messages;
      byCell.set(key, into);
    }
    const byKey = (a: { day: string; version: string; model: string }, b: typeof a) =>
      a.day.localeCompare(b.day) || a.version.localeCompare(b.version) || a.model.localeCompare(b.model);
    const want = [...byCell.values()].sort(byKey);
    expect(cellTotals(db).sort(byKey)).toEqual(want);
  });

  it('rates each code over its own opportunities: where no stop reason is recorded, missing_tool_use_block is not measurable', () => {
    const rows = getRates(db, 'version', { codes: ['missing_tool_use_block', 'empty_tool_input_with_error_result'] });
    const byVersion = new Map<string, { turns: number; known: number }>();
    for (const c of corpus.truth.cells) {
      const v = byVersion.get(c.version) ?? { turns: 0, known: 0 };
      byVersion.set(c.version, { turns: v.turns + c.tool_use_turns, known: v.known + c.stop_known_messages });
    }
    expect(rows.map((r) => r.key)).toEqual([...byVersion.keys()].sort(compareVersions));
    expect([...byVersion.values()].some((v) => v.known === 0)).toBe(true); // the legacy era is in the corpus
    for (const r of rows) {
      const want = byVersion.get(r.key!)!;
      const missing = r.codes.find((c) => c.code === 'missing_tool_use_block')!;
      const empty = r.codes.find((c) => c.code === 'empty_tool_input_with_error_result')!;
      expect([missing.opportunities, empty.opportunities]).toEqual([want.known, want.turns]);
      expect(missing.not_measurable).toBe(want.known === 0 ? 'stop_reason_not_recorded' : null);
      if (want.known === 0) expect(missing.per_1000_opportunities).toBeNull();
      expect(empty.not_measurable).toBeNull();
    }
    const summary = getSummary(db);
    expect([summary.assistant_messages, summary.tool_use_turns, summary.stop_known_messages]).toEqual([
      corpus.truth.totals.assistant_messages,
      corpus.truth.totals.tool_use_turns,
      corpus.truth.totals.stop_known_messages,
    ]);
  });

  it.each([...FINDING_CODES])('counts %s exactly as truth.json (0 where none was injected)', (code) => {
    const counted = countOf(getRates(db, 'day', { codes: [code] }), code);
    expect(counted).toBe(corpus.truth.totals.by_code[code] ?? 0);
  });
});
