import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app/serve';
import { HOOK_MESSAGE_MAX, hookSentence, hookSettingsSnippet, runHook } from '../../server/cli/hook-command';
import { FINDING_CODES } from '../../shared/finding-codes';
import { SESSION_ENDS, type SessionEnd } from '../../shared/session-ends';
import { newCanary } from '../support/canary-transcripts';
import { sessionRows, sessionText } from '../support/session-transcripts';

const root = join(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-hook-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A port nothing listens on (so no dashboard link), unless a test starts a server. */
const NO_SERVER = 9;

function transcript(end: SessionEnd, name = `${end}.jsonl`, canary?: string): string {
  const path = join(tmp, name);
  writeFileSync(path, sessionText(end, canary));
  return path;
}

const stdinOf = (input: unknown) => async () => JSON.stringify(input);

/** Runs the CLI as Claude Code does: the hook JSON on stdin, stdout and stderr captured. */
function runHookCli(args: string[], stdin: string, env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'server/cli/launch.mjs'), ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('hook stop: what it says for each way a session ends', () => {
  const speaks: Partial<Record<SessionEnd, string>> = { lost_call: 'missing_tool_use_block', said_nothing: 'said_nothing', max_tokens: 'max_tokens' };
  it.each(SESSION_ENDS.map((e) => [e]))('%s', async (end) => {
    const out = await runHook('stop', { port: NO_SERVER, stdin: stdinOf({ session_id: 's', transcript_path: transcript(end), stop_hook_active: false }) });
    const expected = speaks[end];
    if (expected === undefined) {
      expect(out).toBe('');
      return;
    }
    const answer = JSON.parse(out) as { systemMessage: string };
    expect(Object.keys(answer)).toEqual(['systemMessage']);
    expect(answer.systemMessage).toContain(expected);
    expect(answer.systemMessage).not.toContain('Dashboard');
    expect(out.endsWith('\n')).toBe(true);
  });

  it('names the code and what it means for a lost call', async () => {
    const out = await runHook('stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: transcript('lost_call') }) });
    expect(JSON.parse(out).systemMessage).toBe(
      'tool-call-forensics: the turn stopped to call a tool, but no call was saved (missing_tool_use_block), a known client failure, not your prompt.',
    );
  });

  it('keeps quiet about a failure the turn recovered from, and names it beside a failing ending', async () => {
    const recovered = join(tmp, 'recovered.jsonl');
    writeFileSync(recovered, [...sessionRows('lost_call'), ...sessionRows('text_answer', 'PAYLOAD', { idPrefix: 'b' }).slice(1)].join('\n') + '\n');
    expect(await runHook('stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: recovered }) })).toBe('');
    const silent = join(tmp, 'silent-after.jsonl');
    writeFileSync(silent, [...sessionRows('lost_call'), ...sessionRows('said_nothing', 'PAYLOAD', { idPrefix: 'b' }).slice(1)].join('\n') + '\n');
    const said = JSON.parse(await runHook('stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: silent }) })).systemMessage as string;
    expect(said).toContain('(said_nothing)');
    expect(said).toContain('; also in this turn: missing_tool_use_block.');
  });

  it('subagent-stop reads the subagent transcript when named, else the session one', async () => {
    const sub = transcript('said_nothing', 'agent-sub.jsonl');
    const main = transcript('text_answer', 'main.jsonl');
    expect(await runHook('subagent-stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: main, agent_transcript_path: sub }) })).toContain(
      'said_nothing',
    );
    expect(await runHook('subagent-stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: main }) })).toBe('');
    expect(await runHook('stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: main, agent_transcript_path: sub }) })).toBe('');
  });

  it('follows a transcript still being flushed: the lost call written after the hook started is seen', async () => {
    const rows = sessionRows('lost_call');
    const path = join(tmp, 'flushing.jsonl');
    const last = rows.at(-1)!;
    // Every row but the last, and the start of the last one, cut mid-line.
    writeFileSync(path, `${rows.slice(0, -1).join('\n')}\n${last.slice(0, 40)}`);
    const out = await runHook('stop', {
      port: NO_SERVER,
      stdin: async () => {
        // The writer finishes the row while the hook waits (the hook polls every 50 ms for up to 1.5 s).
        setTimeout(() => appendFileSync(path, `${last.slice(40)}\n`), 120);
        return JSON.stringify({ transcript_path: path });
      },
    });
    expect(out).toContain('missing_tool_use_block');
  });

  it('examines the transcript again when a whole row lands just after it was first read', async () => {
    const rows = sessionRows('lost_call');
    const path = join(tmp, 'growing.jsonl');
    // Whole rows, ending in a newline, but not the last turn's end yet (read alone, they end well): the hook reads at
    // once, and must not keep that reading.
    writeFileSync(path, `${rows.slice(0, 4).join('\n')}\n`);
    const out = await runHook('stop', {
      port: NO_SERVER,
      stdin: async () => {
        setTimeout(() => appendFileSync(path, `${rows.slice(4).join('\n')}\n`), 30);
        return JSON.stringify({ transcript_path: path });
      },
    });
    expect(out).toContain('missing_tool_use_block');
  });

  it('says nothing when the transcript never finishes its last line (bounded wait)', async () => {
    const rows = sessionRows('lost_call');
    const path = join(tmp, 'cut.jsonl');
    writeFileSync(path, `${rows.join('\n')}\n${rows[0]!.slice(0, 30)}`);
    expect(await runHook('stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: path }) })).toBe('');
  });

  it.each<[string, unknown]>([
    ['a missing transcript_path', { transcript_path: join(tmp, 'nope.jsonl') }],
    ['no transcript_path', { session_id: 'x' }],
    ['a transcript_path that is a folder', { transcript_path: join(tmp, 'dir.jsonl') }],
    ['a transcript_path that is a symbolic link', { transcript_path: join(tmp, 'link.jsonl') }],
    ['a transcript_path that is not a string', { transcript_path: 42 }],
    ['input that is not an object', [1, 2]],
  ])('prints nothing for %s', async (_label, input) => {
    mkdirSync(join(tmp, 'dir.jsonl'), { recursive: true });
    try {
      symlinkSync(transcript('lost_call', 'target.jsonl'), join(tmp, 'link.jsonl'));
    } catch {
      // already there
    }
    expect(await runHook('stop', { port: NO_SERVER, stdin: stdinOf(input) })).toBe('');
  });

  it('prints nothing for a damaged transcript', async () => {
    const path = join(tmp, 'damaged.jsonl');
    writeFileSync(path, `${sessionRows('lost_call').join('\n')}\n{not json}\n`);
    expect(await runHook('stop', { port: NO_SERVER, stdin: stdinOf({ transcript_path: path }) })).toBe('');
  });

  it('links to the finding on a running dashboard that serves the same index, and only there', async () => {
    const dbPath = join(tmp, 'hook.db');
    const server = await startServer({ port: 0, db: dbPath, webRoot: null, log: () => {}, watch: false });
    const other = await startServer({ port: 0, db: join(tmp, 'other.db'), webRoot: null, log: () => {}, watch: false });
    const demo = await startServer({ port: 0, db: join(tmp, 'demo.db'), webRoot: null, log: () => {}, watch: false, demo: true });
    try {
      const out = await runHook('stop', { port: server.port, dbPath, stdin: stdinOf({ transcript_path: transcript('lost_call') }) });
      expect(JSON.parse(out).systemMessage).toContain(
        `Dashboard: http://127.0.0.1:${server.port}/findings?code=missing_tool_use_block&version=2.1.90&from=2026-11-30&to=2026-11-30`,
      );
      // A dashboard on another index (or the demo) does not hold this finding: no link, the sentence alone.
      for (const elsewhere of [other, demo]) {
        const said = JSON.parse(await runHook('stop', { port: elsewhere.port, dbPath, stdin: stdinOf({ transcript_path: transcript('lost_call') }) }));
        expect(said.systemMessage).not.toContain('Dashboard');
        expect(said.systemMessage).toContain('missing_tool_use_block');
      }
      // No index at the hook's database: nothing to link to.
      const none = await runHook('stop', { port: server.port, dbPath: join(tmp, 'no-index.db'), stdin: stdinOf({ transcript_path: transcript('lost_call') }) });
      expect(JSON.parse(none).systemMessage).not.toContain('Dashboard');
      expect(existsSync(join(tmp, 'no-index.db'))).toBe(false);
    } finally {
      await server.close();
      await other.close();
      await demo.close();
    }
  });

  it('speaks in one short sentence for every code and ending, however many codes the turn holds', () => {
    const all = [...FINDING_CODES];
    for (const what of [...FINDING_CODES.map((c) => `x (${c})`), 'the agent thought, said nothing and stopped (said_nothing)']) {
      for (const others of [[], all.slice(0, 1), all]) {
        const sentence = hookSentence(what, others);
        expect(sentence.length).toBeLessThanOrEqual(HOOK_MESSAGE_MAX);
        expect(sentence.endsWith('.')).toBe(true);
      }
    }
    expect(hookSentence('x', all)).toContain(`; ${all.length} more codes in this turn.`);
  });
});

describe('hook stop as a process', () => {
  it('leaks nothing of a canary planted in every payload field of the input and the transcript, and exits 0', async () => {
    const canary = newCanary();
    const dir = join(tmp, `project-${canary}`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `session-${canary}.jsonl`);
    writeFileSync(path, sessionText('lost_call', canary));
    const input = {
      session_id: `session-${canary}`,
      transcript_path: path,
      cwd: `/home/${canary}`,
      permission_mode: `mode-${canary}`,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: `said ${canary}`,
    };
    const run = await runHookCli(['hook', 'stop', '--port', String(NO_SERVER)], JSON.stringify(input));
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).systemMessage).toContain('missing_tool_use_block');
    expect(run.stdout + run.stderr).not.toContain(canary);
    expect(run.stdout + run.stderr).not.toContain(tmp);

    const bad = await runHookCli(['hook', 'subagent-stop'], `{"transcript_path": "${canary}`, { TCF_PORT: String(NO_SERVER) });
    expect(bad).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('install --print prints the settings for both hooks and writes nothing', async () => {
    const run = await runHookCli(['hook', 'install', '--print'], '');
    expect(run.status).toBe(0);
    const settings = JSON.parse(run.stdout) as { hooks: Record<string, Array<{ hooks: Array<{ type: string; command: string }> }>> };
    expect(run.stdout).toBe(hookSettingsSnippet());
    expect(Object.keys(settings.hooks)).toEqual(['Stop', 'SubagentStop']);
    expect(settings.hooks.Stop![0]!.hooks[0]!.command).toMatch(/bin\.mjs" hook stop$/);
    expect(settings.hooks.SubagentStop![0]!.hooks[0]!.command).toMatch(/bin\.mjs" hook subagent-stop$/);
    expect(run.stderr).toContain('nothing was written');
  });
});
