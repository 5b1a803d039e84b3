import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../support/api-app';
import { newCanary } from '../support/canary-transcripts';
import { expectAnswersFree, expectIndexFree, openCodeCanaryToolParts } from '../support/privacy-checks';
import { runCli } from '../support/run-cli';

/**
 * Issue 34: the Codex and OpenCode adapters keep no payload. The canary is planted in every payload field of
 * each format (SOURCES.md "Never store", plus ids, tool names built-in or MCP, cwd, git facts, titles, slugs,
 * versions that fail their pattern), in files that give a finding each, so the finding's outputs are checked
 * too: scan (JSON and table), the index's bytes, /api/agents, /api/findings, /api/summary, /api/files. The OpenCode
 * session is also written as OpenCode's legacy storage/ tree (issue 38), read a session at a time.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-agentpriv-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function writeAgentFiles(root: string, c: string): void {
  mkdirSync(root, { recursive: true });
  let t = 0;
  const row = (type: string, payload: object) => ({ timestamp: new Date(Date.UTC(2026, 5, 1, 10, 0, t++)).toISOString(), type, payload });
  const codex = [
    row('session_meta', {
      id: c,
      cli_version: '0.146.0',
      originator: c,
      model_provider: c,
      cwd: `/home/${c}`,
      base_instructions: { text: c },
      git: { commit_hash: c, branch: c, repository_url: c },
      workspace_roots: [c],
    }),
    row('session_meta', { id: `${c}-2`, cli_version: c, originator: c }),
    row('turn_context', { model: 'gpt-5.4', effort: c, cwd: c, summary: c, developer_instructions: c, collaboration_mode: { settings: { model: c } } }),
    row('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: c }] }),
    row('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: c }] }),
    row('event_msg', { type: 'user_message', message: c }),
    row('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: c }], encrypted_content: c }),
    row('response_item', { type: 'function_call', name: `mcp__${c}__tool`, arguments: JSON.stringify({ [c]: c }), call_id: `call_${c}_lost` }),
    row('response_item', { type: 'function_call', name: c, arguments: c, call_id: `call_${c}` }),
    row('event_msg', { type: 'exec_command_end', call_id: `call_${c}`, stdout: c, command: [c] }),
    row('response_item', { type: 'function_call_output', call_id: `call_${c}`, output: c }),
    row('response_item', { type: 'custom_tool_call', name: c, input: c, call_id: `custom_${c}`, status: c }),
    row('response_item', { type: 'custom_tool_call_output', call_id: `custom_${c}`, output: c }),
    row('response_item', { type: 'web_search_call', status: c, action: { type: 'search', query: c } }),
    row('event_msg', { type: 'agent_message', message: c }),
    row('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: c }] }),
    row('compacted', { message: c, replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: c }] }] }),
    row('event_msg', { type: 'turn_aborted', reason: c }),
    row(c.toLowerCase(), { type: c, [c]: c }),
  ];
  writeFileSync(join(root, 'codex.jsonl'), codex.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const part = (extra: object) => ({ id: `prt_${c}_${t++}`, sessionID: `ses_${c}`, messageID: `msg_${c}`, ...extra });
  const doc = {
    info: {
      id: `ses_${c}`,
      slug: c,
      projectID: c,
      directory: `/home/${c}`,
      title: c,
      version: '1.14.28',
      summary: { additions: 1, deletions: 1, files: 1, diffs: [{ file: c, before: c, after: c }] },
      time: { created: 1780300000000, updated: 1780300009000 },
    },
    messages: [
      {
        info: {
          id: `msg_${c}_u`,
          sessionID: `ses_${c}`,
          role: 'user',
          agent: c,
          model: { providerID: c, modelID: 'kimi-k2' },
          time: { created: 1780300001000 },
        },
        parts: [part({ type: 'text', text: c }), part({ type: 'file', url: c, filename: c, mime: c })],
      },
      {
        info: {
          id: `msg_${c}_a`,
          sessionID: `ses_${c}`,
          role: 'assistant',
          modelID: 'kimi-k2',
          providerID: c,
          mode: c,
          agent: c,
          path: { cwd: c, root: c },
          finish: c,
          time: { created: 1780300002000 },
          error: { name: c, data: { message: c } },
        },
        parts: [
          part({ type: 'step-start', snapshot: c }),
          part({ type: 'reasoning', text: c, metadata: { [c]: c } }),
          part({ type: 'text', text: c }),
          ...openCodeCanaryToolParts(c).map(part),
          part({ type: 'patch', hash: c, files: [c] }),
          part({ type: c.toLowerCase(), [c]: c }),
          part({ type: 'step-finish', reason: c, snapshot: c, tokens: { input: 1, output: 1 }, cost: 0 }),
        ],
      },
    ],
  };
  writeFileSync(join(root, 'opencode.jsonl'), JSON.stringify(doc, null, 2) + '\n');
  writeStorageTree(join(root, 'opencode', 'storage'), doc);
}

/**
 * Issue 38: the same session in OpenCode's legacy storage/ tree, one file per session, message and part. Its ids
 * name its files (relative file names are what may leave the scanner, server/README.md), so they are plain ids here;
 * every other field keeps the canary.
 */
function writeStorageTree(
  storage: string,
  doc: { info: Record<string, unknown>; messages: Array<{ info: Record<string, unknown>; parts: Array<Record<string, unknown>> }> },
): void {
  const put = (path: string, value: unknown) => {
    mkdirSync(join(storage, path, '..'), { recursive: true });
    writeFileSync(join(storage, path), JSON.stringify(value, null, 2));
  };
  put('session/global/ses_p.json', { ...doc.info, id: 'ses_p', projectID: 'global' });
  doc.messages.forEach(({ info, parts }, i) => {
    const mid = `msg_p${i}`;
    put(`message/ses_p/${mid}.json`, { ...info, id: mid, sessionID: 'ses_p' });
    parts.forEach((part, j) => {
      const id = `prt_p${i}${String(j).padStart(2, '0')}`;
      put(`part/${mid}/${id}.json`, { ...part, id, sessionID: 'ses_p', messageID: mid });
    });
  });
}

describe('Codex and OpenCode outputs hold no payload', () => {
  it('scan (JSON and table), the index, /api/agents, /api/findings, /api/summary, /api/files', async () => {
    const canary = newCanary();
    const root = join(tmp, 'root');
    writeAgentFiles(root, canary);

    const json = runCli(['scan', '--json', root]);
    const report = JSON.parse(json.stdout);
    expect(report.errors).toEqual([]);
    expect(report.summary.files_read_by_agent).toEqual({ codex: 1, opencode: 2 });
    // Each file gives its finding, so every finding field is checked too.
    expect(report.findings.map((f: { agent: string; code: string }) => `${f.agent} ${f.code}`).sort()).toEqual([
      'codex orphan_tool_use',
      'opencode unparseable_tool_input',
      'opencode unparseable_tool_input',
    ]);
    const table = runCli(['scan', root]);
    for (const out of [json.stdout + json.stderr, table.stdout + table.stderr]) expect(out).not.toContain(canary);

    const t = await testApp([root]);
    try {
      const agents = await t.get('/api/agents');
      expect(agents.status).toBe(200);
      expect(agents.json.rows.map((r: { agent: string; findings: number }) => [r.agent, r.findings])).toEqual([
        ['codex', 1],
        ['opencode', 2],
      ]);
      await expectAnswersFree(
        t,
        [
          '/api/agents',
          '/api/findings',
          '/api/findings?agent=codex',
          '/api/summary',
          '/api/summary?agent=opencode',
          '/api/files',
          '/api/files?status=salvaged',
          '/api/diagnostics',
        ],
        canary,
      );
      // Issue 34: every finding, its detail and its session name the agent (a name of shared/agents.ts, never payload).
      const findings = (await t.get('/api/findings')).json.rows as { id: string; agent: string }[];
      // The OpenCode session is written twice (its export and its storage/ tree): one finding each.
      expect(findings.map((f) => f.agent).sort()).toEqual(['codex', 'opencode', 'opencode']);
      for (const f of findings) {
        const detail = await t.get(`/api/findings/${f.id}`);
        expect(detail.status).toBe(200);
        expect(detail.json.agent).toBe(f.agent);
        expect(detail.body).not.toContain(canary);
        if (detail.json.session_hash === null) continue;
        const session = await t.get(`/api/sessions/${detail.json.session_hash}`);
        expect(session.status).toBe(200);
        expect(session.json.rows.map((r: { agent: string }) => r.agent)).toContain(f.agent);
        expect(session.body).not.toContain(canary);
        expect(session.body.toLowerCase()).not.toContain(canary.toLowerCase());
      }
      const { dbPath } = expectIndexFree(t, canary);
      const reportRun = runCli(['report', '--db', dbPath]);
      expect(reportRun.stdout + reportRun.stderr).not.toContain(canary);
    } finally {
      await t.close();
    }
  });
});
