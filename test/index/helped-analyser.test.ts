import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { indexDatabase } from '../../server/app/index-database';
import type { AnalysedBatch } from '../../server/index/analysis-batch';
import { helpedAnalyser, inlineAnalyser } from '../../server/index/analysis-pool';
import { openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { dumpIndex } from '../support/db-dump';
import { sessionRows } from '../support/session-transcripts';

// The CLI's index analyses on its own thread too, beside one worker fewer (helpedAnalyser): the
// results must be exactly those of the other ways of analysing.
const tmp = mkdtempSync(join(tmpdir(), 'tcf-helped-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
generateDemoCorpus({ out: tmp, seed: 11, sessions: 30 });
const projects = join(tmp, 'projects');
// A few large sessions, so that the files average well over the one-thread threshold (8 KiB).
const big = join(projects, '-home-helped');
mkdirSync(big, { recursive: true });
for (let f = 0; f < 4; f++) {
  const path = join(big, `long-${f}.jsonl`);
  writeFileSync(path, '');
  for (let i = 0; statSync(path).size < 400 * 1024; i++)
    appendFileSync(path, `${sessionRows(i % 2 ? 'lost_call' : 'said_nothing', 'helped', { idPrefix: `h${f}-${i}` }).join('\n')}\n`);
}

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.jsonl') ? [join(dir, e.name)] : []));
const taken = (batch: AnalysedBatch) => Array.from({ length: batch.length }, (_, i) => batch.at(i));

describe('analysing on the calling thread beside the workers', () => {
  it('gives each batch the analyses the calling thread alone gives, whichever thread took it', async () => {
    const all = files(projects);
    const batches = [0, 1, 2, 3].map((k) => all.filter((_, i) => i % 4 === k));
    const helped = helpedAnalyser(2);
    try {
      // All at once: the first goes to the pool, the next is analysed here, the others queue for whichever is free.
      const got = await Promise.all(batches.map((paths) => helped.analyse(paths).then(taken)));
      const here = inlineAnalyser();
      for (const [k, paths] of batches.entries()) expect(got[k]).toEqual(taken(await here.analyse(paths)));
    } finally {
      await helped.close();
    }
  }, 60_000);

  it('indexes exactly what the inline analyser indexes', async () => {
    const dump = async (options: Parameters<typeof indexDatabase>[1]) => {
      const db = openDatabase(join(tmp, `index-${options?.analyseHere ? 'helped' : 'inline'}.db`));
      try {
        addRoot(db, projects);
        await indexDatabase(db, options);
        return dumpIndex(db);
      } finally {
        db.close();
      }
    };
    const inline = await dump({ analyser: 'inline' });
    expect(inline.findings.length).toBeGreaterThan(0);
    expect(await dump({ analyser: 'workers', analyseHere: true })).toEqual(inline);
  }, 120_000);

  it('indexes the same with workers started while planning and the denominators rebuilt in the closing transaction', async () => {
    // Large enough that the walk plans several files before it ends, so the CLI's way starts its worker during the walk.
    const large = join(tmp, 'large');
    mkdirSync(large, { recursive: true });
    for (let f = 0; f < 3; f++) {
      const rows: string[] = [];
      for (let i = 0, bytes = 0; bytes < 6 * 1024 * 1024; i++)
        for (const row of sessionRows(i % 3 ? 'said_nothing' : 'lost_call', 'large', { idPrefix: `l${f}-${i}` })) {
          rows.push(row);
          bytes += row.length + 1;
        }
      writeFileSync(join(large, `big-${f}.jsonl`), `${rows.join('\n')}\n`);
    }
    const dump = async (name: string, run: (db: ReturnType<typeof openDatabase>) => Promise<unknown>) => {
      const db = openDatabase(join(tmp, `${name}.db`));
      try {
        addRoot(db, large);
        await run(db);
        return dumpIndex(db);
      } finally {
        db.close();
      }
    };
    const inline = await dump('large-inline', (db) => indexDatabase(db, { analyser: 'inline' }));
    expect(inline.findings.length).toBeGreaterThan(0);
    expect(inline.rootCells.length).toBeGreaterThan(0);
    // As the CLI runs it with --threads 2 (server/cli/index-command.ts): analysing here too, a worker from the walk, rebuild here.
    const cli = await dump('large-cli', (db) => indexDatabase(db, { analyseHere: true, threads: 2 }, { rebuildHere: true }));
    expect(cli).toEqual(inline);
  }, 180_000);
});
