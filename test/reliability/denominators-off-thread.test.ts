import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { rebuildDenominatorsOffThread } from '../../server/store/denominators-off-thread';
import { prepareIndexStatements } from '../../server/store/index-statements';
import { markChanged, rebuildDenominatorsIfNeeded } from '../../server/store/index-store';
import { addRoot } from '../../server/store/roots';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-denoms-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cells = (db: ReturnType<typeof openDatabase>) => ({
  cells: db.prepare('SELECT * FROM root_cells ORDER BY root_id, cell_id').all(),
  counted: db.prepare('SELECT id, counted FROM findings ORDER BY id').all(),
  meta: db.prepare("SELECT key, value FROM meta WHERE key IN ('root_cells_dirty', 'rows_generation', 'root_cells_generation') ORDER BY key").all(),
});

describe('the denominator rebuild on a worker thread', () => {
  it('gives exactly what the rebuild on the caller connection gives, and only when rows changed', async () => {
    const out = join(tmp, 'corpus');
    generateDemoCorpus({ out, seed: 3, sessions: 30 });
    const db = openDatabase(join(tmp, 'a.db'));
    addRoot(db, join(out, 'projects'));
    await indexDatabase(db, { analyser: 'inline' });
    const st = prepareIndexStatements(db);
    const full = cells(db);
    expect(full.cells.length).toBeGreaterThan(3);
    expect(await rebuildDenominatorsOffThread(db)).toBe(false); // nothing changed since the run's own rebuild

    // Wrong denominators, and a change recorded: the worker puts them right.
    db.exec('UPDATE root_cells SET assistant_messages = assistant_messages + 7; UPDATE findings SET counted = 0');
    db.transaction(() => markChanged(st)).immediate();
    expect(await rebuildDenominatorsOffThread(db)).toBe(true);
    expect(cells(db).cells).toEqual(full.cells);
    expect(cells(db).counted).toEqual(full.counted);
    // The generation it recorded is the current one: the caller's rebuild has nothing left to do.
    expect(db.transaction(() => rebuildDenominatorsIfNeeded(st)).immediate()).toBe(false);
    db.close();
  });

  it('leaves a database in memory to the caller', async () => {
    const db = openDatabase(':memory:');
    expect(await rebuildDenominatorsOffThread(db)).toBe(false);
    db.close();
  });
});
