import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReport } from '../../server/cli/verify-command';
import { filePseudonym, pseudonymSalt } from '../../server/store/pseudonym-salt';
import { EvidenceReport } from '../../shared/api-schemas';
import { compareVersions } from '../../shared/version-order';
import { type TestApp, testApp } from '../support/api-app';
import { CLAIM_TRUTH, writeClaimCorpus } from '../support/claim-corpus';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-claim-'));
let t: TestApp;
let root: string;
let dbPath: string;
beforeAll(async () => {
  root = writeClaimCorpus(join(tmp, 'corpus'));
  t = await testApp([root]);
  dbPath = join(t.dir, 'index.db');
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const VERSION = /\b\d+\.\d+\.\d+\b/g;
const seen = CLAIM_TRUTH.unparseable.versions;
const inSeenRange = (v: string) => compareVersions(v, seen[0]) >= 0 && compareVersions(v, seen[seen.length - 1]!) <= 0;

/** The text outside every <details> block. */
const outsideDetails = (md: string) => md.replace(/<details>[\s\S]*?<\/details>/g, '');

describe('issue 28: one claim per report, on ~90 clean versions with a few unparseable calls', () => {
  it('the default Markdown is short and its first 600 characters name the code and only the versions it was seen in', async () => {
    const md = (await t.get('/api/export?format=md')).body;
    expect(md.length).toBeLessThan(20_000);
    const head = md.slice(0, 600);
    expect(head).toContain('unparseable_tool_input');
    for (const v of seen) expect(head).toContain(v);
    const mentioned = head.match(VERSION) ?? [];
    expect(mentioned.length).toBeGreaterThan(0);
    for (const v of mentioned) expect(inSeenRange(v), `${v} in the first 600 characters`).toBe(true);
    // The other code with findings has its own short section; codes without findings appear once.
    expect(md).toMatch(/### Other codes with findings\n\n- `empty_tool_input_with_error_result`: 1 in 1 session, Claude Code 2\.1\.91/);
    expect(md.split('`missing_tool_use_block`').length - 1).toBe(1);
  });

  it('no per-version row with zero findings outside <details>; every version is inside it', async () => {
    const md = (await t.get('/api/export?format=md')).body;
    const visible = outsideDetails(md);
    const versionRows = visible.split('\n').filter((l) => /^\| \d+\.\d+\.\d+ \|/.test(l));
    expect(versionRows.map((l) => l.split(' | ')[0]!.slice(2))).toEqual(['2.1.91', '2.1.211', '2.1.215', '2.1.220']);
    for (const row of versionRows)
      expect(
        row
          .split(' | ')
          .slice(3)
          .some((cell) => /^[1-9]/.test(cell)),
        row,
      ).toBe(true);
    // Zero rows pooled: the neighbours in runs, the rest in one row.
    expect(visible).toMatch(/\| the other \d+ versions \(no findings\) \|/);
    const all = md.match(/<details><summary>Every version \(97\)<\/summary>[\s\S]*?<\/details>/)![0];
    expect(all.split('\n').filter((l) => /^\| \d+\.\d+\.\d+ \|/.test(l))).toHaveLength(CLAIM_TRUTH.versions);
  });

  it('findings name version, model, day, tool, error kind, the redacted shape, block types, stop reason and a digest prefix', async () => {
    const md = (await t.get('/api/export?format=md')).body;
    expect(md).toMatch(/\| # \| code \| version \| model \| day \| tool \| error kind \| shape \| blocks \| stop reason \| digest \|/);
    expect(md).toMatch(
      /\| 2\.1\.215 \| claude-sonnet-5 \| 2026-\d\d-\d\d \| Read \| other \| 42 bytes; stops at 42, expecting comma or close \| tool_use \| tool use \| `[0-9a-f]{12}` \|/,
    );
    expect(md).toMatch(/\| 2\.1\.91 \| claude-opus-4-8 \| 2026-01-01 \| Read \| missing parameter \| missing `file_path` \|/);
    // The environment block, and the line asking for the Feedback ID.
    expect(md).toMatch(/- Entrypoints \(of the findings' messages, as recorded\): cli/);
    expect(md).toMatch(new RegExp(`- Reporter's system: ${process.platform} ${process.arch}`));
    expect(md).toContain('/feedback');
    expect(md).not.toMatch(/Effort levels/); // not recorded by this index
  });

  it('the JSON report is sparse and under 100 KB, and carries the claim', async () => {
    const out = runCli(['export', '--db', dbPath, '--format', 'json']);
    expect(out.status).toBe(0);
    expect(out.stdout.length).toBeLessThan(100_000);
    const json = JSON.parse(out.stdout) as EvidenceReport;
    expect(Value.Check(EvidenceReport, json)).toBe(true);
    expect(json.report_format).toBe(2);
    expect(json.claim).toMatchObject({
      code: 'unparseable_tool_input',
      chosen_by: 'most_findings',
      findings: 4,
      sessions: 3,
      versions: seen,
      models: ['claude-sonnet-5'],
    });
    expect(json.by_day.every((r) => r.codes.length > 0)).toBe(true);
    // A code appears in a version's row where it has findings, or where a code with findings cannot be measured.
    for (const r of json.by_version) for (const c of r.codes) expect(c.count > 0 || c.not_measurable !== null).toBe(true);
    const unparsed = json.findings.filter((f) => f.code === 'unparseable_tool_input');
    for (const f of unparsed)
      expect(f.details).toMatchObject({
        tool: 'Read',
        len: 42,
        raw_chars: 42,
        stop_offset: 42,
        stop_expected: 'comma_or_close',
        stop_reason: 'tool_use',
        entrypoint: 'cli',
      });
    expect(json.findings.find((f) => f.code === 'empty_tool_input_with_error_result')!.details).toMatchObject({ missing_parameter: 'file_path', tool: 'Read' });
  });

  it('--code picks the claim; --all-codes keeps the whole-corpus report', async () => {
    const one = (await t.get('/api/export?format=json&code=empty_tool_input_with_error_result')).json as EvidenceReport;
    expect(one.claim).toMatchObject({ code: 'empty_tool_input_with_error_result', chosen_by: 'code_filter', versions: ['2.1.91'] });
    expect(one.title).toMatch(/^empty_tool_input_with_error_result in Claude Code 2\.1\.91:/);
    const all = (await t.get('/api/export?format=json&scope=all')).json as EvidenceReport;
    expect(all.claim).toBeUndefined();
    expect(all.title).toBe('5 lost tool calls in Claude Code 2.1.91–2.1.225 transcripts');
    const cli = runCli(['export', '--db', dbPath, '--all-codes']);
    expect(cli.stdout.split('\n')[0]).toBe(`## ${all.title}`);
  });

  it('verify checks the pasted Markdown: exit 0 with every finding matched; exit 1 naming the row when a line changes', () => {
    const out = runCli(['export', '--db', dbPath]);
    const report = join(tmp, 'report.md');
    writeFileSync(report, out.stdout);
    const ok = runCli(['verify', report, root, '--db', dbPath]);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('5 findings: 5 match');

    // One line of a transcript changed: the finding it holds is named by its row, the others still match.
    const row = out.stdout.split('\n').find((l) => / unparseable_tool_input \S+ [0-9a-f]{64} "/.test(l) && l.startsWith('3 '))!;
    const name = JSON.parse(row.slice(row.indexOf('"')));
    const byName = verifyReport(out.stdout, [root], t.db);
    expect(byName.every((r) => r.status === 'match')).toBe(true);
    const path = join(root, findFile(name));
    const file = readFileSync(path, 'utf8').split('\n');
    const lineNo = Number(row.split(' ')[2]!.split(',')[0]);
    const original = file.join('\n');
    file[lineNo - 1] = file[lineNo - 1]!.replace('"isSidechain":false', '"isSidechain":false ');
    writeFileSync(path, file.join('\n'));
    try {
      const bad = runCli(['verify', report, root, '--db', dbPath]);
      expect(bad.status).toBe(1);
      expect(bad.stdout).toMatch(/^changed +#3 unparseable_tool_input file-[0-9a-f]{16}: the source lines differ from the reported digest$/m);
      expect(bad.stdout).toContain('5 findings: 4 match, 1 changed');
    } finally {
      writeFileSync(path, original);
    }

    // One line of the report changed: that row is named.
    const edited = out.stdout.replace(
      row,
      row.replace(/ ([0-9a-f])([0-9a-f]{63}) /, (_m, a: string, rest: string) => ` ${a === '0' ? '1' : '0'}${rest} `),
    );
    writeFileSync(report, edited);
    const tampered = runCli(['verify', report, root, '--db', dbPath]);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/^changed +#3 unparseable_tool_input/m);
  }, 60_000);

  it('verify still reads format-1 JSON reports, and refuses text that is neither form with a clear error', async () => {
    const json = (await t.get('/api/export?format=json')).json as EvidenceReport;
    const old = { ...json, report_format: 1 };
    delete (old as Partial<EvidenceReport>).claim;
    delete (old as Partial<EvidenceReport>).other_codes;
    delete (old as Partial<EvidenceReport>).environment;
    expect(verifyReport(JSON.stringify(old), [root], t.db).map((r) => r.status)).toEqual(Array(5).fill('match'));
    const path = join(tmp, 'not-a-report.md');
    writeFileSync(path, '## a report someone typed\n\nno block here\n');
    const refused = runCli(['verify', path, root, '--db', dbPath]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('verification block');
  }, 60_000);
});

/** The transcript a pseudonym names, by this index's salt (relative to the root). */
function findFile(pseudonym: string): string {
  const rows = t.db.prepare('SELECT rel_path FROM files').all() as Array<{ rel_path: string }>;
  const salt = pseudonymSalt(t.db);
  const hit = rows.find((r) => filePseudonym(salt, r.rel_path) === pseudonym);
  if (!hit) throw new Error(`no file for ${pseudonym}`);
  return hit.rel_path;
}
