import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { verifyReport } from '../../server/cli/verify-command';
import { filePseudonym, pseudonymSalt } from '../../server/store/pseudonym-salt';
import { EvidenceReport } from '../../shared/api-schemas';
import { FINDING_CODES } from '../../shared/finding-codes';
import { type TestApp, testApp } from '../support/api-app';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-export-'));
const canary = newCanary();
const marker = `ownersfolder${canary.toLowerCase()}`;
let t: TestApp;
let demoRoot: string;
let fileNames: string[];

beforeAll(async () => {
  const base = join(tmp, marker);
  mkdirSync(base);
  const transcripts = writeCanaryTranscripts(base, canary, { canaryInNames: false });
  generateDemoCorpus({ out: join(base, 'demo'), seed: 12, sessions: 40, canary });
  demoRoot = join(base, 'demo/projects');
  t = await testApp([demoRoot, transcripts]);
  fileNames = (t.db.prepare('SELECT rel_path FROM files').all() as Array<{ rel_path: string }>).map((r) => r.rel_path);
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const LEVELS = [
  'files=keep',
  'files=pseudonymize',
  'files=omit',
  'lines=omit',
  'digests=omit',
  'models=generalize',
  'files=omit&lines=omit&digests=omit&models=generalize',
  '',
];

describe('evidence report', () => {
  it.each(LEVELS.flatMap((l) => ['json', 'md'].map((f) => [l, f])))(
    'redaction %j as %s: no canary, no absolute path, states its redaction',
    async (level, format) => {
      const r = await t.get(`/api/export?format=${format}${level ? `&${level}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body).not.toContain(canary);
      expect(r.body.toLowerCase()).not.toContain(marker);
      expect(r.body).not.toContain(tmp);
      const want = {
        files: 'pseudonymize',
        lines: 'keep',
        digests: 'keep',
        models: 'keep',
        ...Object.fromEntries(
          level
            .split('&')
            .filter(Boolean)
            .map((p) => p.split('=')),
        ),
      };
      if (format === 'json') {
        expect(Value.Check(EvidenceReport, r.json)).toBe(true);
        expect(r.json.redaction).toEqual(want);
        const f = r.json.findings[0];
        expect('file' in f).toBe(want.files !== 'omit');
        expect('lines' in f && 'source_lines' in f).toBe(want.lines === 'keep');
        expect('evidence_sha256' in f).toBe(want.digests === 'keep');
      } else {
        expect(r.headers['content-type']).toContain('text/markdown');
        expect(r.body).toContain(`Redaction: files=${want.files}, lines=${want.lines}, digests=${want.digests}, models=${want.models}.`);
        expect(r.body).toContain('| version | tool-use turns |');
      }
      if (want.files !== 'keep') for (const name of fileNames) expect(r.body).not.toContain(name.split('/').pop()!);
      if (want.models === 'generalize') {
        expect(r.body).not.toMatch(/claude-(opus|sonnet|haiku)-\d/);
        if (format === 'json') expect(r.body).toContain('"opus"');
      }
    },
  );

  it('pseudonyms are stable across exports and different for different files', async () => {
    const a = (await t.get('/api/export?format=json')).json.findings.map((f: { file: string }) => f.file);
    const b = (await t.get('/api/export?format=json')).json.findings.map((f: { file: string }) => f.file);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(3);
    for (const p of a) expect(p).toMatch(/^file-[0-9a-f]{16}$/);
  });

  it('holds the scanned counts, tables, verdicts and every finding', async () => {
    const r = (await t.get('/api/export?format=json')).json;
    const summary = (await t.get('/api/summary')).json;
    expect(r.scanned).toMatchObject({ roots: 2, files_failed: summary.files_failed, assistant_messages: summary.assistant_messages });
    expect(r.findings.length).toBe((await t.get('/api/findings?limit=1')).json.total);
    expect(r.by_version.length).toBeGreaterThan(3);
    expect(r.regressions.verdicts.length).toBeGreaterThan(0);
    expect(r.definitions.map((d: { code: string }) => d.code)).toEqual([...FINDING_CODES]);
  });
});

describe('verify', () => {
  it('a pseudonymized report round-trips; one changed byte is reported as changed; a deleted file as missing', async () => {
    const work = join(tmp, 'verify-copy');
    cpSync(demoRoot, work, { recursive: true });
    const report = (await t.get('/api/export?format=json&folder=1')).body;
    const ok = verifyReport(report, [work], t.db);
    expect(ok.length).toBeGreaterThan(3);
    expect(ok.every((r) => r.status === 'match')).toBe(true);

    // Find the first finding's file through the database's salt, and change one byte of one of its source lines.
    const parsed = JSON.parse(report) as { findings: Array<{ file: string; source_lines: number[] }> };
    const first = parsed.findings[0]!;
    const salt = pseudonymSalt(t.db);
    const changedPath = readdirSync(work, { recursive: true })
      .map(String)
      .find((n) => n.endsWith('.jsonl') && filePseudonym(salt, n) === first.file)!;
    expect(changedPath).toBeTruthy();
    const changedLine = first.source_lines[0]!;
    const lines = readFileSync(join(work, changedPath), 'utf8').split('\n');
    const original = lines[changedLine - 1]!;
    lines[changedLine - 1] = original.replace('"type":"assistant"', '"type":"assistanT"');
    expect(lines[changedLine - 1]).not.toBe(original);
    writeFileSync(join(work, changedPath), lines.join('\n'));
    const after = verifyReport(report, [work], t.db);
    parsed.findings.forEach((f, i) => {
      const touched = f.file === first.file && f.source_lines.includes(changedLine);
      expect(after[i]!.status).toBe(touched ? 'changed' : 'match');
    });
    unlinkSync(join(work, changedPath));
    expect(verifyReport(report, [work], t.db)[0]!.status).toBe('missing');
  });

  it('reports without names or digests are unverifiable, and the CLI exits 0 only when all match', async () => {
    const omitted = (await t.get('/api/export?format=json&folder=1&digests=omit')).body;
    expect(verifyReport(omitted, [demoRoot], t.db).every((r) => r.status === 'unverifiable')).toBe(true);
    const keep = join(tmp, 'keep.json');
    writeFileSync(keep, (await t.get('/api/export?format=json&folder=1&files=keep')).body);
    const dbPath = join(t.dir, 'index.db');
    expect(runCli(['verify', keep, demoRoot, '--db', dbPath]).status).toBe(0);
    const omittedPath = join(tmp, 'omitted.json');
    writeFileSync(omittedPath, omitted);
    const run = runCli(['verify', omittedPath, demoRoot, '--db', dbPath]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('unverifiable');
    expect(runCli(['verify', join(tmp, 'nope.json'), demoRoot, '--db', dbPath]).status).toBe(2);
  });
});
