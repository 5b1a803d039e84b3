import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the fixture generators, without types
import { OPENCODE_DDL, writeOpenCodeDatabase } from '../../fixtures/make-opencode-db.mjs';
import { testApp } from '../support/api-app';
import { newCanary } from '../support/canary-transcripts';
import { expectAnswersFree, expectIndexFree, openCodeCanaryToolParts } from '../support/privacy-checks';
import { runCli } from '../support/run-cli';

/**
 * Issue 38: nothing of OpenCode's database reaches storage, the API or the CLI but the metadata the OpenCode adapter
 * keeps. The canary is planted in every `data` field of the database (each key of message.data and part.data that
 * OpenCode writes: text, reasoning, tool names built-in or MCP, inputs, outputs, errors, metadata, titles, paths,
 * snapshots, agent, provider, ids) and in every text column of `session` (ids, slug, directory, path, title, share URL,
 * summary diffs, revert, permission, goal, agent, model), in a session that gives a finding, beside a session whose
 * `data` is damaged and a database whose schema differs by a column named after the canary.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-ocdbpriv-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function canaryDocument(c: string) {
  let t = 0;
  const part = (extra: object) => ({ ...extra, id: `prt_${String(t++).padStart(4, '0')}_${c}`, sessionID: `ses_${c}`, messageID: '' });
  const user = `msg_0001_${c}`;
  const assistant = `msg_0002_${c}`;
  return {
    info: {
      id: `ses_${c}`,
      slug: c,
      projectID: c,
      directory: `/home/${c}`,
      path: c,
      title: c,
      version: '1.14.28',
      summary: { additions: 1, deletions: 1, files: 1, diffs: [{ file: c, before: c, after: c }] },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      time: { created: 1780300000000, updated: 1780300009000 },
    },
    messages: [
      {
        info: {
          role: 'user',
          agent: c,
          model: { providerID: c, modelID: 'kimi-k2' },
          system: c,
          tools: { [c]: true },
          time: { created: 1780300001000 },
          id: user,
          sessionID: `ses_${c}`,
        },
        parts: [part({ type: 'text', text: c, synthetic: false }), part({ type: 'file', url: c, filename: c, mime: c, source: { text: { value: c } } })],
      },
      {
        info: {
          role: 'assistant',
          parentID: user,
          modelID: 'kimi-k2',
          providerID: c,
          mode: c,
          agent: c,
          path: { cwd: c, root: c },
          system: [c],
          summary: false,
          cost: 0,
          tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
          finish: c,
          time: { created: 1780300002000, completed: 1780300003000 },
          error: { name: c, data: { message: c } },
          id: assistant,
          sessionID: `ses_${c}`,
        },
        parts: [
          part({ type: 'step-start', snapshot: c }),
          part({ type: 'reasoning', text: c, metadata: { [c]: c }, time: { start: 1, end: 2 } }),
          part({ type: 'text', text: c, time: { start: 1, end: 2 } }),
          ...openCodeCanaryToolParts(c).map(part),
          part({ type: 'tool', tool: c, callID: c, state: { status: 'running', input: { [c]: c }, title: c, metadata: { [c]: c }, time: { start: 1 } } }),
          part({ type: 'patch', hash: c, files: [c] }),
          part({ type: 'agent', name: c, source: { value: c, start: 0, end: 1 } }),
          part({ type: 'subtask', prompt: c, description: c, agent: c }),
          part({ type: 'snapshot', snapshot: c }),
          part({ type: 'retry', attempt: 1, error: { name: c, data: { message: c } } }),
          part({ type: 'compaction', auto: true }),
          part({ type: c.toLowerCase(), [c]: c }),
          part({ type: 'step-finish', reason: c, snapshot: c, tokens: { input: 1, output: 1 }, cost: 0 }),
        ].map((p) => ({ ...p, messageID: assistant })),
      },
    ],
  };
}

describe("OpenCode's database holds no payload that leaves the scanner", () => {
  it('`scan` (JSON and table), the index bytes, /api/*, `index` and `report` output', async () => {
    const c = newCanary();
    const root = join(tmp, 'root');
    mkdirSync(join(root, 'channel'), { recursive: true });
    const doc = canaryDocument(c);
    for (const m of doc.messages) for (const p of m.parts) if (!p.messageID) p.messageID = m.info.id;
    const columns = {
      workspace_id: c,
      parent_id: c,
      share_url: c,
      revert: JSON.stringify({ messageID: c, snapshot: c, diff: c }),
      permission: JSON.stringify([{ permission: c, pattern: c, action: 'allow' }]),
      goal: JSON.stringify({ objective: c }),
      agent: c,
      model: JSON.stringify({ id: c, providerID: c, variant: c }),
    };
    const damaged = JSON.parse(
      JSON.stringify(doc)
        .replaceAll(`ses_${c}`, `ses_${c}_2`)
        .replaceAll(`msg_0002_${c}`, `msg_0002_${c}_2`)
        .replaceAll(`msg_0001_${c}`, `msg_0001_${c}_2`)
        .replace(/"prt_(\d{4})_/g, '"prt_$1_2_'),
    );
    writeOpenCodeDatabase(
      root,
      [
        { document: doc, extra: columns },
        { document: damaged, extra: columns },
      ],
      { checkpointed: 6 },
    );
    // Session 2's first part: its data made not JSON (with the canary in it).
    const writer = new Database(join(root, 'opencode.db'));
    writer.prepare(`UPDATE part SET data = ? WHERE session_id = ?`).run(`{"type":"text","text":"${c}`, `ses_${c}_2`);
    writer.close();
    // A second database whose schema differs by a column named after the canary.
    writeOpenCodeDatabase(join(root, 'channel'), [], { ddl: OPENCODE_DDL.replace('time_archived integer', `time_archived integer, ${c.toLowerCase()} text`) });
    const renamed = join(root, 'channel', 'opencode-beta.db');
    for (const s of ['', '-wal', '-shm'])
      if (existsSync(join(root, 'channel', `opencode.db${s}`))) renameSync(join(root, 'channel', `opencode.db${s}`), `${renamed}${s}`);

    for (const args of [
      ['scan', '--json', root],
      ['scan', root],
      ['scan', '--json', join(root, 'opencode.db')],
    ]) {
      const run = runCli(args);
      expect((run.stdout + run.stderr).toLowerCase(), args.join(' ')).not.toContain(c.toLowerCase());
      if (args[1] === '--json')
        expect(
          JSON.parse(run.stdout).findings.map((f: { code: string }) => f.code),
          args.join(' '),
        ).toEqual(['unparseable_tool_input']);
    }

    const t = await testApp([root]);
    try {
      const files = t.db.prepare('SELECT rel_path, status, error_code, format_hint, findings FROM files ORDER BY rel_path').all() as { rel_path: string }[];
      // Sorted by what they hold: the entries' names are digests of ids that hold the fresh canary.
      expect(files.map((f) => Object.values(f).slice(1)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
        ['failed', 'database_schema_unknown', 'opencode_db_session', 0],
        ['failed', 'malformed_json', null, 0],
        ['ok', null, null, 1],
      ]);
      for (const f of files) expect(f.rel_path).toMatch(/^(channel\/opencode-beta\.db|opencode\.db#[0-9a-f]{16})$/);
      await expectAnswersFree(
        t,
        ['/api/agents', '/api/findings', '/api/findings?agent=opencode', '/api/summary', '/api/summary?agent=opencode', '/api/files', '/api/diagnostics'],
        c,
      );
      const findings = await t.get('/api/findings?agent=opencode');
      expect(findings.json.rows.map((r: { code: string }) => r.code)).toEqual(['unparseable_tool_input']);
      // Its page: no rows (the session is no file) and no `sed` command, and nothing of the session.
      const detail = await t.get(`/api/findings/${findings.json.rows[0].id}`);
      expect(detail.status).toBe(200);
      expect(detail.json.strip).toMatchObject({ status: 'unreadable', rows: [] });
      expect(detail.json.strip.message).toContain("OpenCode's database");
      expect(detail.json.local_command).toBeNull();
      expect(detail.body.toLowerCase()).not.toContain(c.toLowerCase());
      const { dbPath } = expectIndexFree(t, c);
      for (const args of [
        ['index', '--db', dbPath],
        ['report', '--db', dbPath],
      ]) {
        const run = runCli(args);
        expect((run.stdout + run.stderr).toLowerCase(), args.join(' ')).not.toContain(c.toLowerCase());
      }
    } finally {
      await t.close();
    }
  });
});
