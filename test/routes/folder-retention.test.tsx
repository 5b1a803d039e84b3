import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RETENTION } from '../../shared/agent-retention';
import type { Folder } from '../../shared/api-schemas';
import { CleanupNote, RetentionLine } from '../../web/src/features/folders/RetentionNote';
import { type TestApp, testApp } from '../support/api-app';
import { fixturesRoot } from '../support/detector-fixtures';

/**
 * Issue 38 point 3: the cleanup note knows each agent's own deletion rule and says it per folder, by the agents
 * its files belong to: Claude Code's cleanupPeriodDays and Gemini CLI's general.sessionRetention (30 days by
 * default), none for Codex CLI, OpenCode, Copilot CLI and Pi. GET /api/folders carries it; the Folders page
 * shows a line per folder and the note for the agents of the folders near that age.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-retention-'));
let t: TestApp;
const native = join(fixturesRoot, 'agents-native');
// A Gemini CLI home whose chat was last written 40 days ago: near (past) the 30-day default.
const gemini = join(tmp, '.gemini', 'tmp');
// A Claude Code folder whose transcript is fresh: the note is not needed yet.
const claude = join(tmp, 'claude');

beforeAll(async () => {
  mkdirSync(join(gemini, 'project', 'chats'), { recursive: true });
  const chat = join(gemini, 'project', 'chats', 'session-a.json');
  copyFileSync(join(native, 'gemini', 'tmp', 'project', 'chats', 'session-2026-06-01T10-00-0b7f4c1e.json'), chat);
  const old = new Date(Date.now() - 40 * 86_400_000);
  utimesSync(chat, old, old);
  mkdirSync(claude, { recursive: true });
  copyFileSync(join(fixturesRoot, 'detectors', 'orphan_tool_use', 'negative-compaction-with-progress.jsonl'), join(claude, 'a.jsonl'));
  t = await testApp([native, gemini, claude, join(fixturesRoot, 'agents')]);
});
afterAll(async () => {
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const rule = (agent: keyof typeof AGENT_RETENTION, files: number) => ({
  agent,
  files,
  setting: AGENT_RETENTION[agent]?.setting ?? null,
  default_days: AGENT_RETENTION[agent]?.default_days ?? null,
  since: AGENT_RETENTION[agent]?.since ?? null,
});

describe('GET /api/folders: each folder with its agents and their own deletion rules', () => {
  it('names each agent of a folder with its files and rule, and raises the note only where an agent deletes by default near that age', async () => {
    const r = await t.get('/api/folders');
    expect(r.status).toBe(200);
    const rows = r.json.rows as Folder[];
    expect(rows.map((f) => [f.retention, f.cleanup_note])).toEqual([
      [[rule('codex', 1), rule('opencode', 2), rule('copilot-cli', 1), rule('pi', 1), rule('gemini-cli', 2)], false],
      [[rule('gemini-cli', 1)], true],
      [[rule('claude-code', 1)], false],
      [[rule('codex', 4), rule('opencode', 2)], false],
    ]);
    expect(rows[1]!.retention[0]).toEqual({ agent: 'gemini-cli', files: 1, setting: 'general.sessionRetention', default_days: 30, since: '0.33.0' });
    expect(rows[2]!.retention[0]).toMatchObject({ setting: 'cleanupPeriodDays', default_days: 30, since: null });
  });

  it('the rules: Claude Code and Gemini CLI delete after 30 days by default, the others have no rule', () => {
    expect(Object.entries(AGENT_RETENTION).map(([a, r]) => [a, r?.default_days ?? null])).toEqual([
      ['claude-code', 30],
      ['gemini-cli', 30],
      ['codex', null],
      ['opencode', null],
      ['copilot-cli', null],
      ['pi', null],
    ]);
  });
});

describe('the Folders page says it', () => {
  it('a line per folder names each agent and its rule; the note speaks of Gemini CLI for the Gemini folder only', async () => {
    const rows = (await t.get('/api/folders')).json.rows as Folder[];
    const line = renderToStaticMarkup(<RetentionLine folder={rows[0]!} />);
    expect(line).toContain(`data-testid="retention-${rows[0]!.id}"`);
    expect(line).toContain('Codex CLI: keeps its sessions (no automatic deletion found)');
    expect(line).toContain('Gemini CLI: deletes sessions older than <code>general.sessionRetention</code> (30 days by default since v0.33.0)');
    expect(renderToStaticMarkup(<RetentionLine folder={rows[2]!} />)).toContain(
      'Claude Code: deletes sessions older than <code>cleanupPeriodDays</code> (30 days by default)',
    );
    const note = renderToStaticMarkup(<CleanupNote folders={rows} />);
    expect(note).toContain('data-testid="cleanup-note-gemini-cli"');
    expect(note).not.toContain('cleanup-note-claude-code');
    // A Claude Code folder flagged: its own paragraph; no folder flagged: no note.
    const claudeFlagged = rows.map((f) => ({ ...f, cleanup_note: f.id === rows[2]!.id }));
    expect(renderToStaticMarkup(<CleanupNote folders={claudeFlagged} />)).toContain('cleanupPeriodDays</code> — 30 days by default');
    expect(renderToStaticMarkup(<CleanupNote folders={rows.map((f) => ({ ...f, cleanup_note: false }))} />)).toBe('');
  });
});
