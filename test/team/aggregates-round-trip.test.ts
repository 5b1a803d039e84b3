import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoTruth, generateDemoCorpus } from '../../fixtures/demo-corpus';
import { buildApp } from '../../server/app/build-app';
import { indexDatabase } from '../../server/app/index-database';
import { getComparison } from '../../server/query/get-comparison';
import { getRates, type RateDimension } from '../../server/query/get-rates';
import { getRegressions, getVerdictCards } from '../../server/query/get-regressions';
import { getSummary } from '../../server/query/get-summary';
import { getVersionMarkers } from '../../server/query/get-version-markers';
import { getVersionModelRates } from '../../server/query/get-version-model-rates';
import type { RateFilters } from '../../server/query/rate-filters';
import { type Db, openDatabase } from '../../server/store/database';
import { addRoot } from '../../server/store/roots';
import { readAggregateFile, writeAggregateFile } from '../../server/team/aggregate-files';
import { collectAggregates } from '../../server/team/collect-aggregates';
import { importAggregateFiles } from '../../server/team/import-aggregates';
import type { RegressionsResponse } from '../../shared/api-schemas';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { runCli } from '../support/run-cli';
import { sessionRows } from '../support/session-transcripts';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-team-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CANARY = 'TEAMROUNDTRIPCANARY';

/** Two machines' corpora: overlapping days and versions, so the merge has to add within cells. */
function corpora(): [DemoTruth, DemoTruth] {
  return [
    generateDemoCorpus({ out: join(tmp, 'a'), seed: 21, sessions: 70, canary: CANARY }),
    generateDemoCorpus({ out: join(tmp, 'b'), seed: 22, sessions: 70, canary: CANARY, start: '2026-05-08' }),
  ];
}

async function indexed(name: string, dirs: string[]): Promise<Db> {
  const db = openDatabase(join(tmp, `${name}.db`));
  for (const d of dirs) addRoot(db, d);
  await indexDatabase(db, { analyser: 'inline' });
  return db;
}

describe('aggregates from two machines, merged, give the figures and verdicts of one index of both', () => {
  let alpha: Db;
  let beta: Db;
  let both: Db;
  let team: Db;
  const files = {
    alphaNd: join(tmp, 'alpha.ndjson'),
    alphaPq: join(tmp, 'alpha.parquet'),
    betaNd: join(tmp, 'beta.ndjson'),
    betaPq: join(tmp, 'beta.parquet'),
  };

  beforeAll(async () => {
    corpora();
    // One looping session on machine b: five lost calls in one file, so the per-session cap (3) is at work.
    const loop = Array.from({ length: 5 }, (_, i) => sessionRows('lost_call', CANARY, { idPrefix: `loop${i}`, version: '2.1.90' }).slice(i === 0 ? 0 : 1));
    mkdirSync(join(tmp, 'b/projects/-home-user-loop'), { recursive: true });
    writeFileSync(join(tmp, 'b/projects/-home-user-loop/loop-session.jsonl'), loop.flat().join('\n') + '\n');
    const a = join(tmp, 'a/projects');
    const b = join(tmp, 'b/projects');
    alpha = await indexed('alpha', [a]);
    beta = await indexed('beta', [b]);
    both = await indexed('both', [a, b]);
    const ea = collectAggregates(alpha, { machine: 'alpha', toolVersion: '0.1.0' }).aggregates;
    writeAggregateFile(files.alphaNd, ea, 'ndjson');
    writeAggregateFile(files.alphaPq, ea, 'parquet');
    const eb = collectAggregates(beta, { toolVersion: '0.1.0' }).aggregates;
    writeAggregateFile(files.betaNd, eb, 'ndjson');
    writeAggregateFile(files.betaPq, eb, 'parquet');
    team = openDatabase(join(tmp, 'team.db'));
    // One machine from NDJSON, the other from Parquet: both readers are on the path.
    await importAggregateFiles(team, [files.alphaNd, files.betaPq]);
  }, 120_000);
  afterAll(() => {
    for (const db of [alpha, beta, both, team]) db.close();
  });

  it('reads back the same aggregates from NDJSON and from Parquet', async () => {
    for (const [nd, pq] of [
      [files.alphaNd, files.alphaPq],
      [files.betaNd, files.betaPq],
    ] as const) {
      const fromNd = await readAggregateFile(nd, 'nd');
      const fromPq = await readAggregateFile(pq, 'pq');
      expect(fromPq).toEqual(fromNd);
      expect(fromNd.rows.length).toBeGreaterThan(100);
      expect(fromNd.rows.some((r) => r.findings > 0)).toBe(true);
    }
  });

  const dimensions: RateDimension[] = ['day', 'week', 'version', 'model'];
  const filterSets: RateFilters[] = [{}, { sidechain: true }, { sidechain: false }, { models: ['claude-opus-4-8'] }, { from: '2026-05-10', to: '2026-05-30' }];

  it('gives equal rates per day, week, version and model, under filters', () => {
    for (const filters of filterSets) {
      for (const d of dimensions) expect(getRates(team, d, filters), `${d} ${JSON.stringify(filters)}`).toEqual(getRates(both, d, filters));
      expect(getVersionModelRates(team, filters)).toEqual(getVersionModelRates(both, filters));
      expect(getVersionMarkers(team, filters)).toEqual(getVersionMarkers(both, filters));
    }
    // Not a comparison of two empty things: both corpora add up within shared cells.
    const versions = getRates(team, 'version');
    expect(versions.reduce((n, r) => n + r.tool_use_turns, 0)).toBe(
      getRates(alpha, 'version').reduce((n, r) => n + r.tool_use_turns, 0) + getRates(beta, 'version').reduce((n, r) => n + r.tool_use_turns, 0),
    );
    // The stored counts travel, not the old stand-ins (tool-use turns): stop-known and capture
    // messages are their own counts (the demo corpus has no synthetic messages: see aggregates-bad-input).
    const sum = (k: 'tool_use_turns' | 'stop_known_messages' | 'capture_messages') => versions.reduce((n, r) => n + r[k], 0);
    expect(sum('stop_known_messages')).not.toBe(sum('tool_use_turns'));
    expect(sum('capture_messages')).not.toBe(sum('tool_use_turns'));
  });

  it('gives equal regression verdicts (first bad version, day splits) and comparisons', () => {
    const merged = getRegressions(team);
    const truth = getRegressions(both);
    expect(withoutCards(merged)).toEqual(withoutCards(truth));
    expectTeamCards(merged, truth);
    const named = merged.verdicts.find((v) => v.code === 'missing_tool_use_block' && v.model === null && v.dimension === 'version');
    expect(named?.status).toBe('regression');
    expect(named?.first_bad).toBe('2.1.40');
    expect(getComparison(team, '2.1.36..2.1.39', '2.1.40..2.1.42', {})).toEqual(getComparison(both, '2.1.36..2.1.39', '2.1.40..2.1.42', {}));
  });

  it('gives equal verdict cards under filters: sessions counted and findings capped per session, as one index counts them', () => {
    for (const filters of filterSets) expect(getVerdictCards(team, filters), JSON.stringify(filters)).toEqual(getVerdictCards(both, filters));
    // The cap is at work: some side counts fewer findings than events (a session with more than SESSION_CAP).
    const sides = getVerdictCards(team).rows.flatMap((c) => c.codes.flatMap((code) => [code.before, code.after]));
    expect(sides.some((s) => s.count < s.events)).toBe(true);
  });

  it('gives an equal summary: machines count as sources, their damaged and excluded files are counted', () => {
    // Per-file facts of the local index only (a team aggregate holds no file rows): by format, empty, refused by code.
    const { files_by_format: _a, files_empty: _ae, files_refused_by_code: _ar, ...merged } = getSummary(team);
    const { files_by_format: _b, files_empty: _be, files_refused_by_code: _br, ...truth } = getSummary(both);
    expect(merged).toEqual(truth);
    expect(merged.folders).toBe(2);
    expect(merged.files_failed).toBeGreaterThan(0);
    expect(merged.files_in_progress).toBeGreaterThan(0);
  });

  it('serves the same figures over the API (what the pages read)', async () => {
    const apps = await Promise.all([team, both].map((db) => buildApp({ db, token: 't', allowedHosts: ['127.0.0.1:4319'], toolVersion: '9.9.9' })));
    try {
      const get = async (i: number, url: string) => {
        const r = await apps[i]!.inject({ url, headers: { host: '127.0.0.1:4319' } });
        expect(r.statusCode, url).toBe(200);
        return r.json();
      };
      for (const url of [
        '/api/versions',
        '/api/models?sidechain=main',
        '/api/version-models',
        '/api/timeline?bucket=week',
        '/api/regressions',
        '/api/compare?a=2.1.36..2.1.39&b=2.1.40..2.1.42',
      ]) {
        if (url === '/api/regressions') {
          const [merged, truth] = [(await get(0, url)) as RegressionsResponse, (await get(1, url)) as RegressionsResponse];
          expect(withoutCards(merged), url).toEqual(withoutCards(truth));
          expectTeamCards(merged, truth);
        } else expect(await get(0, url), url).toEqual(await get(1, url));
      }
      const { files_by_format: _a, files_empty: _ae, files_refused_by_code: _ar, ...merged } = await get(0, '/api/summary');
      const { files_by_format: _b, files_empty: _be, files_refused_by_code: _br, ...truth } = await get(1, '/api/summary');
      expect(merged).toEqual(truth);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });

  it('replaces a machine on re-import instead of adding it twice', async () => {
    const before = getRates(team, 'version');
    const again = await importAggregateFiles(team, [files.alphaPq, files.betaNd]);
    expect(again.imported.map((m) => m.replaced)).toEqual([true, true]);
    expect(getRates(team, 'version')).toEqual(before);
    expect(getRates(team, 'version')).toEqual(getRates(both, 'version'));
  });

  it('exports no payload, file name, path, digest or session hash', () => {
    const needles = [
      CANARY,
      tmp,
      ...(alpha.prepare('SELECT rel_path, lower(hex(session_hash)) FROM files').raw().all() as Array<[string, string | null]>).flat(),
      ...(alpha.prepare('SELECT evidence_sha256, CAST(message_hash AS TEXT) FROM findings').raw().all() as string[][]).flat(),
    ].filter((n): n is string => typeof n === 'string' && n.length > 0);
    expect(needles.length).toBeGreaterThan(50);
    for (const file of [files.alphaNd, files.alphaPq]) {
      const bytes = readFileSync(file);
      for (const n of needles) expect(bytes.includes(Buffer.from(n)), `${n} in ${file}`).toBe(false);
    }
    // The search works: the file does hold the metadata it should.
    expect(readFileSync(files.alphaPq).includes(Buffer.from('missing_tool_use_block'))).toBe(true);
  });

  it('keeps the generated machine id, and --machine chooses and stores one (CLI)', () => {
    const first = collectAggregates(beta, { toolVersion: '0.1.0' }).aggregates.header.machine;
    expect(first).toMatch(/^machine-[0-9a-f]{12}$/);
    expect(collectAggregates(beta, { toolVersion: '0.1.0' }).aggregates.header.machine).toBe(first);
    const out = join(tmp, 'cli.parquet');
    const run = runCli(['export-aggregates', '--db', join(tmp, 'alpha.db'), '--machine', 'alpha-2', '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('machine alpha-2');
    expect(run.stderr).toContain('named alpha before');
    const stdout = runCli(['export-aggregates', '--db', join(tmp, 'alpha.db')]);
    expect(stdout.status, stdout.stderr).toBe(0);
    expect(JSON.parse(stdout.stdout.split('\n')[0]!).machine).toBe('alpha-2');
    const imported = runCli(['import-aggregates', '--db', join(tmp, 'team-cli.db'), out, files.betaNd]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('team database: 2 machines');
  });
});

describe('aggregates of the canary transcripts hold no payload', () => {
  it('neither the NDJSON, the Parquet, nor the team database that imported them holds the canary', async () => {
    const canary = newCanary();
    // Canary in folder names too: an absolute or relative path anywhere would show.
    const root = writeCanaryTranscripts(join(tmp, 'canary'), canary);
    const db = openDatabase(join(tmp, 'canary.db'));
    addRoot(db, root);
    const summary = await indexDatabase(db, { analyser: 'inline' });
    expect(summary.findingsAdded).toBeGreaterThan(0);
    expect(summary.filesFailed).toBeGreaterThan(0);
    const { aggregates } = collectAggregates(db, { toolVersion: '0.1.0' });
    db.close();
    expect(aggregates.rows.some((r) => r.findings > 0)).toBe(true);
    const nd = join(tmp, 'canary.ndjson');
    const pq = join(tmp, 'canary.parquet');
    writeAggregateFile(nd, aggregates, 'ndjson');
    writeAggregateFile(pq, aggregates, 'parquet');
    const teamPath = join(tmp, 'canary-team.db');
    const team = openDatabase(teamPath);
    await importAggregateFiles(team, [pq]);
    const needle = Buffer.from(canary);
    const teamBytes = () => Buffer.concat(['', '-wal', '-shm'].filter((x) => existsSync(teamPath + x)).map((x) => readFileSync(teamPath + x)));
    expect(readFileSync(nd).includes(needle)).toBe(false);
    expect(readFileSync(pq).includes(needle)).toBe(false);
    expect(teamBytes().includes(needle)).toBe(false);
    team.close();
    expect(teamBytes().includes(needle)).toBe(false);
    // The search works: the canary corpus's findings did arrive.
    expect(readFileSync(nd).includes(Buffer.from('"findings":1'))).toBe(true);
  });
});

/** Everything but the verdict cards (compared by expectTeamCards, which says what differs where). */
function withoutCards(r: RegressionsResponse) {
  const { rows: _cards, ...rest } = r;
  return rest;
}

/**
 * The cards of a team database equal those of one index of both corpora: the same change points,
 * strengths and opportunities, findings capped per session, and sessions counted from the
 * per-cell session counts the machines exported (aggregate schema 2). Exact here because no
 * session of these corpora has findings of one code in two cells of a side; where one does, the
 * team counts it once per cell (see "Verdict cards on team rows" in the README and the unit test
 * below).
 */
function expectTeamCards(merged: RegressionsResponse, truth: RegressionsResponse) {
  expect(merged.rows.length).toBeGreaterThan(0);
  expect(merged.rows).toEqual(truth.rows);
  // Not a comparison of cards without sessions: some side has several, and some capped count is below its events.
  const sides = merged.rows.flatMap((c) => c.codes.flatMap((code) => [code.before, code.after]));
  expect(Math.max(...sides.map((s) => s.sessions))).toBeGreaterThan(2);
  expect(merged.rows.some((c) => c.strength === 'strong')).toBe(true);
}
