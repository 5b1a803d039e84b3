import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { analyseForIndex } from '../../server/index/analyse-for-index';
import { detectorFixtureTests, fixturesRoot } from '../support/detector-fixtures';

describe('malformed_tool_use_exhausted fixtures (stream-json result rows)', () => detectorFixtureTests('malformed_tool_use_exhausted'));

describe('terminal_reason of a capture', () => {
  const dir = join(fixturesRoot, 'detectors/malformed_tool_use_exhausted');
  it.each([
    ['positive-exhausted.ndjson', 'malformed_tool_use_exhausted'],
    ['negative-completed.ndjson', 'completed'],
    ['negative-no-terminal-reason.ndjson', null],
    ['negative-odd-terminal-reason.ndjson', null],
  ])('%s records %s (pattern-checked, never free text)', (file, reason) => {
    const a = analyseFile(join(dir, file), { forIndex: true });
    expect(a).toMatchObject({ status: 'ok', format: 'stream-json', terminalReason: reason });
    expect(JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('RAWCANARY7731');
  });
  it('links the finding to the run: the last model message and a hash of its session', () => {
    const a = analyseForIndex(join(dir, 'positive-exhausted.ndjson'));
    if (a.status !== 'ok') throw new Error('did not scan');
    expect(a.findings.map((f) => [f.code, f.model, f.version])).toEqual([['malformed_tool_use_exhausted', 'claude-opus-4-8', '2.1.215']]);
    expect(a.facts.sessionHash).toMatch(/^[0-9a-f]{16}$/);
  });
});
