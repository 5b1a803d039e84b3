import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copilotEvents, geminiJson, geminiJsonl, piSession, writeAgentHomes } from '../support/agent-layouts';
import { testApp } from '../support/api-app';
import { newCanary } from '../support/canary-transcripts';
import { expectAnswersFree, expectIndexFree } from '../support/privacy-checks';
import { runCli } from '../support/run-cli';

/**
 * Copilot CLI, Pi and Gemini CLI (issue 34 points 4–5): a canary in every payload field of each
 * format (test/support/agent-layouts.ts: text, thinking, arguments, results, errors, ids, cwd,
 * hook input/output, summaries, custom and MCP tool names), in metadata fields whose values fail
 * their patterns (versions, models, effort, stop reasons, event and message type names), and on the
 * bad line of damaged files, never reaches scan's outputs, the index, the API or report.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-agents2-priv-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Files whose metadata fields hold the canary (so every one fails its pattern), and damaged files with it on the bad line. */
function writeOddities(dir: string, c: string): void {
  mkdirSync(dir, { recursive: true });
  const put = (name: string, text: string) => writeFileSync(join(dir, name), text);
  const lines = (text: string) => text.split('\n');
  const copilot = lines(copilotEvents(c)).map((l) =>
    l
      .replace('"copilotVersion":"1.0.64"', `"copilotVersion":"v ${c}"`)
      .replace('"newModel":"claude-sonnet-4.6","reasoningEffort":"medium"', `"newModel":"${c} x","reasoningEffort":"${c}"`)
      .replace('"type":"brand.new_event"', `"type":"${c}.event"`),
  );
  put('copilot-odd.jsonl', copilot.join('\n'));
  const pi = lines(piSession(c)).map((l) =>
    l
      .replace('"thinkingLevel":"high"', `"thinkingLevel":"${c}"`)
      .replace('"stopReason":"aborted"', `"stopReason":"${c}"`)
      .replace('"model":"gpt-5-mini"', `"model":"${c} model"`)
      .replace('"type":"label"', `"type":"${c}"`),
  );
  put('pi-odd.jsonl', pi.join('\n'));
  put('gemini-odd.json', geminiJson(c).replace('"type": "warning"', `"type": "${c}"`).replace('"model": "gemini-3.1-pro-preview"', `"model": "${c} m"`));
  // Damaged: the canary on the line that fails.
  put('copilot-torn.jsonl', [...copilot.slice(0, 7), copilot[7]!.slice(0, 200)].join('\n') + '\n');
  put('pi-bad.jsonl', [...pi.slice(0, 4), JSON.stringify({ type: 'message', message: { role: 'assistant', content: c } })].join('\n') + '\n');
  put('gemini-bad.jsonl', [...lines(geminiJsonl(c)).slice(0, 3), JSON.stringify({ id: c, type: 'gemini', toolCalls: [{ id: c, args: c }] })].join('\n') + '\n');
  put('gemini-text.jsonl', `## USER ${c}\n\nprompt ${c}\n`);
}

describe('Copilot CLI, Pi and Gemini CLI: nothing of a payload field leaves the scanner', () => {
  it('scan --json and the table: counts, codes and pattern-checked names only', () => {
    const canary = newCanary();
    // The home folder is named after the canary: an absolute path in any output would show it.
    const home = writeAgentHomes(join(tmp, `home-${canary}`), canary);
    writeOddities(join(home.home, 'odd'), canary);
    const inputs = [home.copilotFolder, home.piFolder, home.geminiFolder, join(home.home, 'odd')];
    const json = runCli(['scan', '--json', ...inputs]);
    expect(json.status).toBe(2);
    const report = JSON.parse(json.stdout);
    expect(report.summary.files_scanned).toBe(12);
    expect(report.summary.files_passed_over).toBe(1);
    expect(report.errors.map((e: { code: string }) => e.code).sort()).toEqual([
      'gemini_text_only',
      'gemini_text_only',
      'invalid_structure',
      'invalid_structure',
      'malformed_json',
    ]);
    // The odd metadata was read, and dropped: no version, model or effort from a field that fails its pattern.
    expect(report.diagnostics.find((d: { file: string }) => d.file === 'odd/copilot-odd.jsonl').unknown_row_types).toEqual({ other: 1 });
    expect(report.diagnostics.find((d: { file: string }) => d.file === 'odd/pi-odd.jsonl').unknown_row_types).toEqual({ other: 1 });
    const table = runCli(['scan', ...inputs]);
    for (const out of [json.stdout + json.stderr, table.stdout + table.stderr]) {
      expect(out).not.toContain(canary);
      expect(out).not.toContain(tmp);
    }
  });

  it('the index (database and WAL), the API and report', async () => {
    const canary = newCanary();
    const home = writeAgentHomes(join(tmp, 'index-home'), canary);
    writeOddities(join(home.home, 'odd'), canary);
    const t = await testApp([home.copilotFolder, home.piFolder, home.geminiFolder, join(home.home, 'odd')]);
    try {
      const files = t.db.prepare('SELECT status, assistant_messages FROM files').all() as Array<{ status: string; assistant_messages: number }>;
      expect(files.filter((f) => f.status === 'ok').length).toBe(7);
      expect(files.reduce((n, f) => n + f.assistant_messages, 0)).toBeGreaterThan(0);
      const models = t.db.prepare('SELECT DISTINCT model FROM cells ORDER BY model').pluck().all() as string[];
      expect(models).toEqual(expect.arrayContaining(['claude-opus-4.8', 'gemini-3-flash-preview', 'gpt-5-mini']));
      await expectAnswersFree(
        t,
        [
          '/api/files',
          '/api/summary',
          '/api/diagnostics',
          '/api/versions',
          '/api/models',
          '/api/timeline',
          '/api/findings',
          '/api/efforts',
          '/api/turn-ends?dimension=model',
          '/api/session-ends',
          '/api/version-models',
          '/api/export',
        ],
        canary,
      );
      const { dbPath, bytes } = expectIndexFree(t, canary);
      expect(bytes.includes(Buffer.from('gemini_text_only'))).toBe(true);
      const report = runCli(['report', '--db', dbPath]);
      expect(report.stdout + report.stderr).not.toContain(canary);
    } finally {
      await t.close();
    }
  });
});
