import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { fixturesRoot } from '../support/detector-fixtures';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-salvage-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('salvage in the index: off by default, on per root', () => {
  it.each(['inline', 'workers'] as const)(
    'with the %s analyser: damaged files fail until salvage is on for their root, then are read and labelled',
    async (analyser) => {
      const damaged = join(tmp, `${analyser}-damaged`);
      const other = join(tmp, `${analyser}-other`);
      for (const dir of [damaged, other]) {
        mkdirSync(dir);
        cpSync(join(fixturesRoot, 'errors/concatenated_rows.jsonl'), join(dir, 'concatenated.jsonl'));
        cpSync(join(fixturesRoot, 'errors/malformed_json-torn-row.jsonl'), join(dir, 'torn.jsonl'));
      }
      const db = openDatabase(join(tmp, `${analyser}.db`));
      const a = addRoot(db, damaged);
      addRoot(db, other);
      const first = await indexDatabase(db, { analyser });
      expect(first).toMatchObject({ filesFailed: 4, filesSalvaged: 0 });
      const codes = db.prepare('SELECT rel_path, error_code, error_line FROM files ORDER BY root_id, rel_path').all();
      expect(codes).toEqual([
        { rel_path: 'concatenated.jsonl', error_code: 'concatenated_rows', error_line: 2 },
        { rel_path: 'torn.jsonl', error_code: 'malformed_json', error_line: 2 },
        { rel_path: 'concatenated.jsonl', error_code: 'concatenated_rows', error_line: 2 },
        { rel_path: 'torn.jsonl', error_code: 'malformed_json', error_line: 2 },
      ]);
      // The per-folder setting: salvage only the first root.
      const second = await indexDatabase(db, { analyser, salvage: (rootId) => rootId === a.id });
      expect(second).toMatchObject({ filesChanged: 2, filesSalvaged: 2, filesFailed: 2 });
      const rows = db
        .prepare(
          'SELECT f.root_id = ? AS salvaged_root, f.rel_path, f.status, f.salvaged, f.damage, f.assistant_messages FROM files f ORDER BY f.root_id, f.rel_path',
        )
        .all(a.id);
      db.close();
      expect(rows).toEqual([
        {
          salvaged_root: 1,
          rel_path: 'concatenated.jsonl',
          status: 'ok',
          salvaged: 1,
          damage: '[{"code":"concatenated_rows","line":2,"torn":false}]',
          assistant_messages: 2,
        },
        // The torn row could belong to the message before it or the one after: both count nowhere.
        {
          salvaged_root: 1,
          rel_path: 'torn.jsonl',
          status: 'ok',
          salvaged: 1,
          damage: '[{"code":"malformed_json","line":2,"torn":true}]',
          assistant_messages: 0,
        },
        { salvaged_root: 0, rel_path: 'concatenated.jsonl', status: 'failed', salvaged: 0, damage: null, assistant_messages: 0 },
        { salvaged_root: 0, rel_path: 'torn.jsonl', status: 'failed', salvaged: 0, damage: null, assistant_messages: 0 },
      ]);
    },
  );
});
