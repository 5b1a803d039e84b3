import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { runExport } from '../../server/cli/export-command';
import { verifyReport } from '../../server/cli/verify-command';
import { buildEvidenceReport, isHomeDerived, keepSessionName, redactionOf } from '../../server/query/build-evidence-report';
import { renderEvidence } from '../../server/query/evidence-markdown';
import { EvidenceReport } from '../../shared/api-schemas';
import { FINDING_CODES } from '../../shared/finding-codes';
import { type TestApp, testApp } from '../support/api-app';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-evidence-'));
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function corpusApp(name: string, days: number, options: { demo?: boolean } = {}) {
  const out = join(tmp, name);
  // About as many sessions per day as the bundled demo (90 over 42 days).
  generateDemoCorpus({ out, seed: days, days, sessions: Math.round(days * 2.2) });
  const app = await testApp([join(out, 'projects')], options);
  apps.push(app);
  return app;
}

describe('the default Markdown fits and leads with the answer', () => {
  it.each([
    [60, 20_000],
    [180, 60_000],
  ])(
    '%i days of generated transcripts: under %i characters; the headline names 2.1.40, the first bad version',
    async (days, limit) => {
      const t = await corpusApp(`days-${days}`, days);
      const md = (await t.get('/api/export?format=md')).body;
      expect(md.length).toBeLessThan(limit);
      const json = (await t.get('/api/export?format=json')).json;
      expect(Value.Check(EvidenceReport, json)).toBe(true);
      expect(json.headline).toContain('from 2.1.40');
      expect(json.title).toContain('2.1.40');
      expect(md.split('\n')[0]).toBe(`## ${json.title}`);
      expect(md).toContain(json.headline);
      // Daily series folded to weeks inside <details>; no per-day table.
      expect(md).toMatch(/<details><summary>Per week/);
      expect(md).not.toMatch(/^\| day \|/m);
      // A sample with the count of the rest.
      expect(md).toMatch(new RegExp(`### Findings: 20 of ${json.findings.length}`));

      const totals = new Map<string, number>();
      for (const row of json.by_version) for (const c of row.codes) totals.set(c.code, (totals.get(c.code) ?? 0) + c.count);
      const absent = FINDING_CODES.filter((c) => !totals.get(c));
      expect(absent.length).toBeGreaterThan(5);
      const noneLine = md.split('\n').find((l) => l.startsWith('No findings for '))!;
      for (const code of absent) {
        expect(md.split(code).length - 1, code).toBe(1);
        expect(noneLine).toContain(`\`${code}\``);
      }
      for (const code of FINDING_CODES.filter((c) => totals.get(c))) expect(noneLine).not.toContain(code);
      expect(md).toContain('Redaction: files=pseudonymize, lines=keep, digests=keep, models=keep.');
    },
    120_000,
  );

  it('a report from the demo says so in its title and headline', async () => {
    const out = join(tmp, 'demo');
    generateDemoCorpus({ out, seed: 5, sessions: 30 });
    const t = await testApp([join(out, 'projects')], { demo: true });
    apps.push(t);
    const json = (await t.get('/api/export?format=json')).json;
    expect(json.demo).toBe(true);
    expect(json.title).toMatch(/^\[demo data\] /);
    expect(json.headline).toMatch(/^Demo data \(generated transcripts, not real sessions\)/);
    const md = (await t.get('/api/export?format=md')).body;
    expect(md.startsWith('## [demo data]')).toBe(true);
    const real = await corpusApp('not-demo', 20);
    expect((await real.get('/api/export?format=json')).json.title).not.toContain('demo');
  });

  it('always fits: over the budget it folds and samples, and says what it left out', async () => {
    const t = apps[0]!;
    const report = buildEvidenceReport(t.db, {}, redactionOf({}), '9.9.9');
    const full = renderEvidence(report);
    expect(full.omitted).toEqual([]);
    for (const budget of [8_000, 5_000, 3_000]) {
      const cut = renderEvidence(report, budget);
      expect(cut.chars).toBeLessThanOrEqual(budget);
      expect(cut.omitted.length).toBeGreaterThan(0);
      expect(cut.markdown).toContain('Left out to fit a GitHub issue:');
    }
  });
});

describe('redaction that tells the truth', () => {
  const canary = newCanary();
  let t: TestApp;
  const PROJECT_FOLDERS = ['-home-x-project', '-home-user-project-0', '-home-user-project-1'];

  it('keep-session keeps session file names and replaces project folders; names are derived the same way every time', () => {
    expect(keepSessionName('salt', '-Users-ann-work/0b5fb6d0-fa6e-423b-8aec-6829d9d854d2.jsonl')).toMatch(
      /^project-[0-9a-f]{8}\/0b5fb6d0-fa6e-423b-8aec-6829d9d854d2\.jsonl$/,
    );
    expect(keepSessionName('salt', '-Users-ann-work/0b5fb6d0-fa6e-423b-8aec-6829d9d854d2/subagents/agent-1.jsonl')).toMatch(
      /^project-[0-9a-f]{8}\/0b5fb6d0-fa6e-423b-8aec-6829d9d854d2\/subagents\/agent-1\.jsonl$/,
    );
    expect(keepSessionName('salt', 'a/x.jsonl')).toBe(keepSessionName('salt', 'a/y.jsonl').replace('y.jsonl', 'x.jsonl'));
    expect(keepSessionName('salt', 'a/x.jsonl')).not.toBe(keepSessionName('other', 'a/x.jsonl'));
    expect(['-Users-ann-x/a.jsonl', 'C--Users-ann/a.jsonl', 'proj/a.jsonl'].map(isHomeDerived)).toEqual([true, true, false]);
  });

  it.each(['keep', 'keep-session', 'pseudonymize', 'omit'])(
    'files=%s on a canary corpus: no canary, no absolute path, project folders only at keep',
    async (files) => {
      if (!t) {
        const base = join(tmp, `owner-${canary.toLowerCase()}`);
        mkdirSync(base);
        const transcripts = writeCanaryTranscripts(base, canary, { canaryInNames: false });
        generateDemoCorpus({ out: join(base, 'demo'), seed: 8, sessions: 30, canary });
        t = await testApp([transcripts, join(base, 'demo/projects')]);
        apps.push(t);
      }
      for (const format of ['md', 'json']) {
        const body = (await t.get(`/api/export?format=${format}&files=${files}`)).body;
        expect(body).not.toContain(canary);
        expect(body).not.toContain(tmp);
        expect(body.toLowerCase()).not.toContain(`owner-${canary.toLowerCase()}`);
        // The owner's local command and the finding references are for the page only.
        expect(body).not.toContain('sed -n');
        expect(body).not.toMatch(/"ref"|local_command/);
        for (const folder of PROJECT_FOLDERS) expect(body.includes(`${folder}/`), `${folder} at files=${files} (${format})`).toBe(files === 'keep');
        if (format === 'json') {
          const json = JSON.parse(body);
          expect(json.redaction.files).toBe(files);
          expect(Boolean(json.warnings?.length)).toBe(files === 'keep');
          if (files === 'keep-session')
            expect(json.findings.some((f: { file: string }) => /^project-[0-9a-f]{8}\/[0-9a-f-]{36}\.jsonl$/.test(f.file))).toBe(true);
        }
      }
    },
  );

  it('verify round-trips a keep-session report; the CLI prints the size and warns about home-derived names', async () => {
    const dbPath = join(t.dir, 'index.db');
    const report = (await t.get('/api/export?format=json&files=keep-session&folder=2')).body;
    const roots = (t.db.prepare('SELECT path FROM roots ORDER BY id').all() as Array<{ path: string }>).map((r) => r.path);
    const results = verifyReport(report, [roots[1]!], t.db);
    expect(results.length).toBeGreaterThan(3);
    expect(results.every((r) => r.status === 'match')).toBe(true);
    const path = join(tmp, 'ks.json');
    writeFileSync(path, report);
    expect(runCli(['verify', path, roots[1]!, '--db', dbPath]).status).toBe(0);

    const keep = runCli(['export', '--db', dbPath, '--files', 'keep']);
    expect(keep.status).toBe(0);
    expect(keep.stderr).toMatch(new RegExp(`^${keep.stdout.length} characters`, 'm'));
    expect(keep.stderr).toContain('warning: files=keep prints');
    const pseudo = runExport(t.db, dbPath, {}, redactionOf({}), 'md', '9.9.9');
    expect(pseudo.notes.join('\n')).not.toContain('warning');
  }, 60_000);
});
