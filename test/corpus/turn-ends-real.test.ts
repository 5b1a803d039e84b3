import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { classifyTurnEnds } from '../../server/detect/classify-turn-ends';
import { classifySessionEnd } from '../../server/detect/session-end';
import { getTurnEnds } from '../../server/query/get-turn-ends';
import { scanFile } from '../../server/scan/scan-file';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { TURN_ENDS } from '../../shared/turn-ends';
import { describeWithShared, sharedDir } from '../support/shared-material';

function transcripts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return transcripts(path);
    return name.endsWith('.jsonl') ? [path] : [];
  });
}

describeWithShared('how every turn ends on the real dev set (corpus/real)', () => {
  const root = join(sharedDir, 'corpus/real');
  const scans = transcripts(root).flatMap((path) => {
    const scan = scanFile(path);
    return scan.status === 'ok' ? [scan.transcript] : [];
  });
  const dir = mkdtempSync(join(tmpdir(), 'tcf-turn-ends-'));
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(join(dir, 'index.db'));
    addRoot(db, root);
    await indexDatabase(db, { analyser: 'inline' });
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every dimension of /api/turn-ends sums, class by class, to the turn ends the classifier finds in the files', () => {
    const want = Object.fromEntries(TURN_ENDS.map((e) => [e, 0])) as Record<string, number>;
    let total = 0;
    for (const t of scans) {
      for (const end of classifyTurnEnds(t)) {
        want[end.end]!++;
        total++;
      }
    }
    // A real set has many more turn ends than sessions, and more than one way to end.
    expect(total).toBeGreaterThan(scans.length);
    expect(Object.values(want).filter((n) => n > 0).length).toBeGreaterThanOrEqual(4);
    for (const dimension of ['version', 'model', 'day', 'effort'] as const) {
      const rows = getTurnEnds(db, dimension, { sidechain: undefined }).rows;
      const got = Object.fromEntries(TURN_ENDS.map((e) => [e, rows.reduce((n, r) => n + r.ends[e], 0)]));
      expect(got, dimension).toEqual(want);
      expect(
        rows.reduce((n, r) => n + r.turn_ends, 0),
        dimension,
      ).toBe(total);
      for (const r of rows) expect(TURN_ENDS.reduce((n, e) => n + r.ends[e], 0)).toBe(r.turn_ends);
    }
  });

  it("a session's last turn end is its session end (max_tokens split by what was cut)", () => {
    const last = getTurnEnds(db, 'version', { sidechain: undefined, lastOnly: true }).rows;
    const want: Record<string, number> = {};
    for (const t of scans) {
      const end = classifySessionEnd(t)?.end;
      if (end === undefined) continue;
      const key = end === 'max_tokens' ? 'cut' : end;
      want[key] = (want[key] ?? 0) + 1;
    }
    const got: Record<string, number> = {};
    for (const r of last) {
      for (const e of TURN_ENDS) {
        if (r.ends[e] === 0) continue;
        const key = e.startsWith('cut_') ? 'cut' : e;
        got[key] = (got[key] ?? 0) + r.ends[e];
      }
    }
    expect(got).toEqual(want);
  });

  it('counts the turn the user interrupted after a cut while thinking (FORMAT.md: one of the five ended a turn), and rows by effort', () => {
    const byVersion = getTurnEnds(db, 'version', { sidechain: undefined }).rows;
    expect(byVersion.find((r) => r.version === '2.1.177')?.ends.cut_while_thinking).toBe(1);
    expect(byVersion.reduce((n, r) => n + r.ends.cut_while_thinking, 0)).toBe(1);
    const byEffort = getTurnEnds(db, 'effort', { sidechain: undefined }).rows;
    expect(byEffort.some((r) => r.effort === 'high' || r.effort === 'xhigh')).toBe(true);
    expect(byEffort.some((r) => r.effort === null)).toBe(true);
  });
});
