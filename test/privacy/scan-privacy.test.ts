import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newCanary, writeCanaryTranscripts } from '../support/canary-transcripts';
import { runCli } from '../support/run-cli';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-privacy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The names of the folders under the root, which hold the canary by design (relative names are printed). */
const outsideRoot = (output: string) =>
  output
    .replaceAll(/-home-CANARY[0-9A-F]{12}-project/g, '<project>')
    .replaceAll(/session-CANARY[0-9A-F]{12}/g, '<session>')
    .replaceAll(/agent-CANARY[0-9A-F]{12}/g, '<agent>');

describe('scan never prints payload', () => {
  const canary = newCanary();
  const root = writeCanaryTranscripts(tmp, canary);

  it.each([[['--json']], [[]], [['--json', '--salvage']], [['--salvage']]])(
    'with options %j: findings and errors are reported, the canary and absolute paths are not',
    (options) => {
      // The project folder's name holds the canary too; scanning from inside it shows that names relative to the root are the only names printed.
      // Wide enough that no name or cell is cut: everything the line can say is said.
      const run = runCli(['scan', ...options, root], { env: { COLUMNS: '200' } });
      expect(run.status).toBe(2);
      const output = run.stdout + run.stderr;
      expect(output).toContain('missing_tool_use_block');
      expect(output).toContain('empty_tool_input_with_error_result');
      expect(output).toContain('duplicate_key');
      expect(output).toContain('invalid_utf8');
      expect(output).toContain('malformed_json');
      expect(output).toContain('invalid_structure');
      expect(output).toContain('unparseable_tool_input');
      expect(output).toContain('malformed_tool_use_exhausted');
      expect(output).toContain('concatenated_rows');
      expect(outsideRoot(output)).not.toContain(canary);
      expect(output).not.toContain(tmp);
    },
  );

  it('index and report (every row, salvaged or not) print codes, counts and relative names only', () => {
    const db = join(tmp, 'index.db');
    const outputs = [
      runCli(['index', root, '--db', db], { env: { COLUMNS: '200' } }),
      runCli(['report', '--all', '--db', db], { env: { COLUMNS: '200' } }),
      runCli(['index', root, '--db', db, '--salvage'], { env: { COLUMNS: '200' } }),
      runCli(['report', '--db', db], { env: { COLUMNS: '200' } }),
    ].map((r) => r.stdout + r.stderr);
    expect(outputs[0]).toContain('concatenated_rows, line');
    expect(outputs[1]).toContain('Files refused by code:');
    expect(outputs[2]).toMatch(/salvaged: [1-9]/);
    expect(outputs[3]).toMatch(/[1-9] of them salvaged/);
    for (const output of outputs) {
      expect(outsideRoot(output)).not.toContain(canary);
      expect(output).not.toContain(tmp);
    }
  });

  it('prints nothing of a missing input path', () => {
    const run = runCli(['scan', join(tmp, `missing-${canary}`)]);
    expect(run.status).toBe(2);
    expect(run.stdout + run.stderr).not.toContain(canary);
  });
});
