import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import { detectorFixtureTests, fixturesRoot } from '../support/detector-fixtures';

describe('thinking_cut_at_max_tokens fixtures', () => detectorFixtureTests('thinking_cut_at_max_tokens'));

describe('thinking_cut_at_max_tokens: what is kept', () => {
  const dir = join(fixturesRoot, 'detectors/thinking_cut_at_max_tokens');
  const found = (file: string) => {
    const a = analyseFile(join(dir, file));
    if (a.status !== 'ok') throw new Error('did not scan');
    return a.findings.filter((f) => f.code === 'thinking_cut_at_max_tokens').map((f) => ({ details: f.details, signed: f.signedThinking }));
  };
  it('keeps the recorded output tokens and whether the thinking was signed', () => {
    expect(found('positive-cut-then-asked-again.jsonl')).toEqual([{ details: { output_tokens: 64000, stop_reason: 'max_tokens' }, signed: true }]);
    // Two rows: an unsigned thinking block and a redacted one; the last row's count is the message's.
    expect(found('positive-two-rows-redacted-ends-turn.jsonl')).toEqual([{ details: { output_tokens: 90, stop_reason: 'max_tokens' }, signed: false }]);
  });
});
