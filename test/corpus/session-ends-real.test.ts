import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { diagnoseTranscript } from '../../server/cli/hook-command';
import { classifySessionEnd } from '../../server/detect/session-end';
import { scanFile } from '../../server/scan/scan-file';
import { SESSION_ENDS } from '../../shared/session-ends';
import { describeWithShared, sharedDir } from '../support/shared-material';

function transcripts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return transcripts(path);
    return name.endsWith('.jsonl') ? [path] : [];
  });
}

describeWithShared('how real sessions end (corpus/real and corpus/public)', () => {
  const files = ['corpus/real', 'corpus/public'].flatMap((d) => transcripts(join(sharedDir, d)));
  const verdicts = files.flatMap((path) => {
    const scan = scanFile(path);
    if (scan.status !== 'ok') return [];
    const verdict = classifySessionEnd(scan.transcript);
    return verdict ? [{ file: relative(sharedDir, path), end: verdict.end, hook: diagnoseTranscript(path) }] : [];
  });

  it('classes every real session that has an assistant message, into the known classes', () => {
    expect(verdicts.length).toBeGreaterThan(100);
    for (const v of verdicts) expect(SESSION_ENDS).toContain(v.end);
    // Real sessions end in several ways, not one class for everything.
    expect(new Set(verdicts.map((v) => v.end)).size).toBeGreaterThanOrEqual(4);
  });

  it('the Stop hook speaks on a lost call only when a detector names it, and on nothing that ended well', () => {
    for (const v of verdicts) {
      if (v.end === 'lost_call') expect(v.hook?.code, v.file).toBeTruthy();
      if (['tool_call', 'text_answer', 'interrupted', 'api_error', 'unknown'].includes(v.end)) expect(v.hook, v.file).toBeNull();
    }
  });
});
