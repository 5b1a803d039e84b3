/**
 * A bounded linearity check (not a test): the demo generator at two sizes (about 31 and 127 MB),
 * each indexed from scratch three times by the CLI; prints the median time, seconds per MB and the
 * database's size against the corpus. Run: node --import tsx test/team/index-scale-bench.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';

const cli = join(import.meta.dirname, '../../server/cli/launch.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-scale-'));
try {
  for (const sessions of [1000, 4000]) {
    const out = join(tmp, String(sessions));
    generateDemoCorpus({ out, seed: 5, sessions, days: 180 });
    const bytes = Number(
      execFileSync('du', ['-sb', join(out, 'projects')])
        .toString()
        .split('\t')[0],
    );
    const times: number[] = [];
    let dbBytes = 0;
    for (let round = 0; round < 3; round++) {
      const db = join(tmp, `${sessions}-${round}.db`);
      const t = performance.now();
      // Exit status 2 is expected: the demo corpus has a damaged file on purpose.
      spawnSync(process.execPath, [cli, 'index', '--db', db, join(out, 'projects')], { stdio: 'ignore' });
      times.push((performance.now() - t) / 1000);
      dbBytes = statSync(db).size;
    }
    times.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        sessions,
        corpus_mb: +(bytes / 1e6).toFixed(1),
        index_s_median: +times[1]!.toFixed(2),
        s_per_mb: +(times[1]! / (bytes / 1e6)).toFixed(3),
        db_mb: +(dbBytes / 1e6).toFixed(2),
        db_pct_of_corpus: +((dbBytes / bytes) * 100).toFixed(2),
      }),
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
