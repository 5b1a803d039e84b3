import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-idxpriv-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function databaseBytes(path: string): Buffer {
  return Buffer.concat(['', '-wal', '-shm'].filter((s) => existsSync(path + s)).map((s) => readFileSync(path + s)));
}

describe('the index holds no payload', () => {
  it('neither the database nor its WAL contain the canary, while open and after closing', async () => {
    const canary = newCanary();
    const transcripts = writeCanaryTranscripts(tmp, canary, { canaryInNames: false });
    generateDemoCorpus({ out: join(tmp, 'demo'), seed: 9, sessions: 20, canary });
    const dbPath = join(tmp, 'index.db');
    const db = openDatabase(dbPath);
    addRoot(db, transcripts);
    addRoot(db, join(tmp, 'demo/projects'));
    const summary = await indexDatabase(db, { analyser: 'inline' });
    expect(summary.findingsAdded).toBeGreaterThan(0);
    expect(summary.filesFailed).toBeGreaterThan(0);
    const needle = Buffer.from(canary);
    expect(databaseBytes(dbPath).includes(needle)).toBe(false);
    // The 2.1.2xx file (format-2026.jsonl) was read: its effort, its turn ends and its thinking cut are stored, its payload is not.
    expect(db.prepare("SELECT count(*) AS n FROM findings WHERE code = 'thinking_cut_at_max_tokens'").get()).toEqual({ n: 1 });
    expect(db.prepare("SELECT DISTINCT effort FROM cells WHERE effort <> '' ORDER BY effort").pluck().all()).toEqual(['xhigh']);
    expect(db.prepare("SELECT count(*) AS n FROM turn_ends WHERE api_error_kind = 'rate_limit'").get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT sum(turns) AS n FROM turn_ends').get()).toMatchObject({ n: expect.any(Number) });
    // Salvage reads the damaged files again: still nothing of theirs but metadata.
    const salvaged = await indexDatabase(db, { analyser: 'inline', salvage: true });
    expect(salvaged.filesSalvaged).toBe(2);
    expect(db.prepare('SELECT count(*) AS n FROM files WHERE salvaged = 1').get()).toEqual({ n: 2 });
    expect(db.prepare("SELECT count(*) AS n FROM findings WHERE code IN ('unparseable_tool_input', 'malformed_tool_use_exhausted')").get()).toEqual({ n: 3 });
    expect(databaseBytes(dbPath).includes(needle)).toBe(false);
    db.close();
    expect(databaseBytes(dbPath).includes(needle)).toBe(false);
    // Sanity: the needle search itself works on these bytes.
    expect(databaseBytes(dbPath).includes(Buffer.from('missing_tool_use_block'))).toBe(true);
  });
});
