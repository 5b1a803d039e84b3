import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { indexDatabase } from '../../server/app/index-database';
import { type TestApp, testApp } from '../support/api-app';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { writeContextFixtures } from '../support/context-fixtures';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-ctx-'));
const canary = newCanary();
let root: string;
let t: TestApp;
const logged: string[] = [];

interface Row {
  line: number;
  type: string;
  role: string | null;
  blocks: string[];
  stop_reason: string | null;
  is_error: boolean;
  synthetic: string | null;
  seconds_since_previous: number | null;
  tool_calls: Array<{ tool: string; empty_input: boolean }>;
  in_finding: boolean;
}

/** One strip row as a short line: `*` marks the finding's rows. */
const fmt = (r: Row) =>
  [
    `${r.in_finding ? '*' : ' '}${r.line}`,
    r.type,
    r.blocks.join('+') || '-',
    r.stop_reason ?? '-',
    r.is_error ? 'error' : '-',
    r.synthetic ?? '-',
    r.tool_calls.map((c) => `${c.tool}${c.empty_input ? '{}' : ''}`).join(',') || '-',
  ].join(' ');

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr] as const) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
  }
  root = writeContextFixtures(tmp, canary);
  t = await testApp([root]);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function findings() {
  return (await t.get('/api/findings?sort=day_asc&limit=500')).json.rows as Array<{ id: string; code: string; file: string; lines: [number, number] }>;
}
async function refOf(file: string, code: string, first: number) {
  const f = (await findings()).find((x) => x.file.endsWith(file) && x.code === code && x.lines[0] === first);
  expect(f, `${file} ${code} ${first}`).toBeDefined();
  return f!.id;
}
async function detail(id: string, context = 15) {
  const r = await t.get(`/api/findings/${id}?context=${context}`);
  expect(r.status).toBe(200);
  return r.json;
}

describe('GET /api/findings/:id: one finding, as in the list, with its turn strip', () => {
  it('compaction after a call: the {} call, its error, a hook row, the boundary and the summary', async () => {
    const d = await detail(await refOf('compaction.jsonl', 'empty_tool_input_with_error_result', 2), 4);
    expect(d.strip.status).toBe('ok');
    expect(d.strip.rows.map(fmt)).toEqual([
      ' 1 user string - - - -',
      '*2 assistant tool_use tool_use - - Bash{}',
      '*3 user tool_result - error - -',
      ' 4 progress - - - hook -',
      ' 5 system - - - compact_boundary -',
      ' 6 user string - - compact_summary -',
      ' 7 assistant text end_turn - - -',
    ]);
    expect(d.strip.rows.map((r: Row) => r.seconds_since_previous)).toEqual([null, 2, 2, 2, 2, 2, 2]);
  });

  it('an interrupt: an MCP tool shows as `mcp`, its refused {} call and the interrupt row are marked', async () => {
    const d = await detail(await refOf('interrupt.jsonl', 'empty_tool_input_with_error_result', 2));
    expect(d.strip.rows.map(fmt)).toEqual([
      ' 1 user string - - - -',
      '*2 assistant tool_use tool_use - - mcp{}',
      '*3 user tool_result - error - -',
      ' 4 user text - - interrupt -',
      ' 5 assistant text end_turn - - -',
    ]);
  });

  it('a retry nudge chain: missing block → nudge → retry → "retry also failed", linked both ways', async () => {
    const missing = await refOf('chain.jsonl', 'missing_tool_use_block', 2);
    const nudge = await refOf('chain.jsonl', 'malformed_retry_injected', 3);
    const exhausted = await refOf('chain.jsonl', 'malformed_retry_exhausted', 5);
    const d = await detail(nudge, 2);
    expect(d.strip.rows.map(fmt)).toEqual([
      ' 1 user string - - - -',
      ' 2 assistant text tool_use - - -',
      '*3 user string - - retry_nudge -',
      ' 4 assistant thinking tool_use - - -',
      ' 5 assistant text stop_sequence error retry_exhausted -',
    ]);
    const chain = (x: { chain: Array<{ id: string }> }) => x.chain.map((c) => c.id);
    expect(chain(d)).toEqual(expect.arrayContaining([missing, exhausted]));
    expect(chain(await detail(missing))).toContain(nudge);
    expect(chain(await detail(exhausted))).toContain(nudge);
  });

  it('a repeated {} run: each call links to the run and the run to each call', async () => {
    const run = await refOf('run.jsonl', 'repeated_empty_tool_call', 2);
    const calls = await Promise.all([2, 4, 6].map((l) => refOf('run.jsonl', 'empty_tool_input_with_error_result', l)));
    const d = await detail(run, 1);
    expect(d.strip.rows.map(fmt)).toEqual([
      ' 1 user string - - - -',
      '*2 assistant tool_use tool_use - - Read{}',
      '*3 user tool_result - error - -',
      '*4 assistant tool_use tool_use - - Read{}',
      '*5 user tool_result - error - -',
      '*6 assistant tool_use tool_use - - Read{}',
      '*7 user tool_result - error - -',
      ' 8 assistant text end_turn - - -',
    ]);
    expect(d.chain.map((c: { id: string }) => c.id).sort()).toEqual([...calls].sort());
    for (const call of calls) expect((await detail(call)).chain.map((c: { id: string }) => c.id)).toEqual([run]);
  });

  it('context is bounded and adjustable', async () => {
    const ref = await refOf('run.jsonl', 'repeated_empty_tool_call', 2);
    expect((await detail(ref, 0)).strip.rows.map((r: Row) => r.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect((await t.get(`/api/findings/${ref}?context=101`)).status).toBe(400);
    expect((await t.get('/api/findings/1-0000000000000000')).status).toBe(404);
    expect((await t.get('/api/findings/not-a-ref')).status).toBe(400);
  });

  it('the session: the same session id joins two files; the page gets the other findings and the session view counts', async () => {
    const d = await detail(await refOf('chain.jsonl', 'missing_tool_use_block', 2));
    expect(d.session.map((s: { file: string }) => s.file.split('/').pop())).toEqual(expect.arrayContaining(['chain.jsonl', 'run.jsonl']));
    expect(d.session).toHaveLength(3 + 4);
    const s = (await t.get(`/api/sessions/${d.session_hash}`)).json;
    expect(s.rows.map((f: { file: string }) => f.file.split('/').pop()).sort()).toEqual(['chain.jsonl', 'run.jsonl']);
    const run = s.rows.find((f: { file: string }) => f.file.endsWith('run.jsonl'));
    expect([run.rows, run.turns, run.calls, run.errors, run.compactions]).toEqual([8, 4, 3, 3, 0]);
    const comp = (await t.get(`/api/sessions/${(await detail(await refOf('compaction.jsonl', 'empty_tool_input_with_error_result', 2))).session_hash}`)).json;
    expect(comp.totals).toEqual({ turns: 2, calls: 1, errors: 1, compactions: 1, findings: 1 });
    expect(comp.rows[0].marks).toEqual([
      { line: 3, kind: 'error' },
      { line: 5, kind: 'compaction' },
    ]);
    expect((await t.get('/api/sessions/0123456789abcdef')).status).toBe(404);
  });

  it('the owner-only command is relative to the added folder and shell-quoted', async () => {
    const d = await detail(await refOf('interrupt.jsonl', 'empty_tool_input_with_error_result', 2), 1);
    expect(d.local_command).toBe("sed -n '1,4p' './-home-user-project/interrupt.jsonl'");
    expect(d.local_command).not.toContain(tmp);
  });
});

describe('stable references and changed files', () => {
  it('a reference survives re-indexing unchanged files, and the strip says when the file changed', async () => {
    const before = await findings();
    const file = join(root, '-home-user-project', 'compaction.jsonl');
    appendFileSync(join(root, '-home-user-project', 'run.jsonl'), '');
    await indexDatabase(t.db, { analyser: 'inline' });
    expect((await findings()).map((f) => f.id)).toEqual(before.map((f) => f.id));

    const ref = await refOf('compaction.jsonl', 'empty_tool_input_with_error_result', 2);
    // Same length, one byte different on a source line, not re-indexed: the digest no longer matches.
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    lines[1] = lines[1]!.replace('"input":{}', '"input":[]');
    writeFileSync(file, lines.join('\n'));
    const d = await detail(ref);
    expect(d.strip.status).toBe('changed');
    expect(d.strip.message).toContain('file changed since indexing');
    expect(d.strip.rows).toEqual([]);
    writeFileSync(file, text);
    expect((await detail(ref)).strip.status).toBe('ok');
    rmSync(file);
    expect((await detail(ref)).strip.status).toBe('unreadable');
    writeFileSync(file, text);
  });
});

describe('privacy: nothing around a finding leaks', () => {
  it('no finding page, session view or log holds the canary or an absolute path', async () => {
    const all = await findings();
    expect(all.length).toBeGreaterThanOrEqual(10);
    const bodies: string[] = [];
    const sessions = new Set<string>();
    for (const f of all) {
      for (const context of [0, 15, 100]) {
        const r = await t.get(`/api/findings/${f.id}?context=${context}`);
        bodies.push(r.body);
        if (r.json.session_hash) sessions.add(r.json.session_hash);
      }
    }
    for (const s of sessions) bodies.push((await t.get(`/api/sessions/${s}`)).body);
    expect(sessions.size).toBe(3);
    for (const body of bodies) {
      expect(body).not.toContain(canary);
      expect(body).not.toContain(tmp);
    }
    expect(logged.join('')).not.toContain(canary);
  });
});

describe('privacy on the full canary corpus (every payload field Claude Code writes)', () => {
  it('finding details and sessions carry no canary and no absolute path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcf-ctx2-'));
    const c2 = newCanary();
    const app = await testApp([writeCanaryTranscripts(dir, c2, { canaryInNames: false })]);
    try {
      const items = (await app.get('/api/findings?limit=500')).json.rows as Array<{ id: string }>;
      expect(items.length).toBeGreaterThan(0);
      for (const f of items) {
        const r = await app.get(`/api/findings/${f.id}?context=100`);
        expect(r.status).toBe(200);
        expect(r.json.strip.status).toBe('ok');
        expect(r.body).not.toContain(c2);
        expect(r.body).not.toContain(dir);
        if (r.json.session_hash) {
          const s = await app.get(`/api/sessions/${r.json.session_hash}`);
          expect(s.body).not.toContain(c2);
          expect(s.body).not.toContain(dir);
        }
      }
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
