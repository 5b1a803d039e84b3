import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseForIndex } from '../../server/index/analyse-for-index';
import { type WalkResult, walkDirectory } from '../../server/scan/walk-inputs';
import { script } from './support/spawn';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-race-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const row = (model: string) =>
  `${JSON.stringify({ type: 'assistant', timestamp: '2026-05-01T10:00:00.000Z', message: { id: `m-${model}`, role: 'assistant', model, content: [{ type: 'text', text: 'x' }], stop_reason: 'end_turn' } })}\n`;

describe('a folder swapped for a symbolic link while the walk and the reads run', () => {
  it('never lists or reads a file outside the root (bounded: 400 walks against a swap loop)', async () => {
    const root = join(tmp, 'root');
    const outside = join(tmp, 'outside');
    mkdirSync(join(root, 'sub', 'deeper'), { recursive: true });
    mkdirSync(join(outside, 'deeper'), { recursive: true });
    for (const [dir, model] of [
      [join(root, 'sub'), 'inside-model'],
      [join(root, 'sub', 'deeper'), 'inside-model'],
      [outside, 'outside-model'],
      [join(outside, 'deeper'), 'outside-model'],
    ] as const) {
      writeFileSync(join(dir, 'x.jsonl'), row(model));
    }
    writeFileSync(join(outside, 'outside-only.jsonl'), row('outside-model'));

    const swapper = script('swap-loop.ts', [join(root, 'sub'), outside], 'pipe');
    let read = 0;
    let sawLink = 0;
    const models = new Set<string>();
    const names = new Set<string>();
    try {
      await swapper.waitFor('swapping');
      for (let i = 0; i < 400; i++) {
        const walk: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
        walkDirectory(root, '', walk);
        if (walk.symlinksSkipped > 0) sawLink++;
        for (const f of walk.files) {
          names.add(f.name);
          const a = analyseForIndex(f.path);
          if (a.status === 'ok') {
            read++;
            for (const c of a.messages.cells) models.add(c.model ?? '');
          }
        }
      }
    } finally {
      swapper.proc.stdin!.end();
      await swapper.exit;
    }
    // The race was live: the walk met the link, and files were read.
    expect(sawLink).toBeGreaterThan(0);
    expect(read).toBeGreaterThan(0);
    expect([...models]).toEqual(['inside-model']);
    expect([...names].filter((n) => n.includes('outside-only'))).toEqual([]);
  }, 120_000);
});
