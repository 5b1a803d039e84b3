import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyDetector } from '../../server/detect/detector';
import { startDetectors } from '../../server/detect/run-detectors';
import { scanFile } from '../../server/scan/scan-file';

const root = join(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'tcf-example-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the worked example in server/detect/README.md', () => {
  it('is a detector that runs as written: its collector sees the rows, its rule finds the call', async () => {
    const readme = readFileSync(join(root, 'server/detect/README.md'), 'utf8');
    const block = /```ts\n\/\/ server\/detect\/oversized-tool-result\.ts\n([\s\S]*?)```/.exec(readme);
    expect(block, 'the example block').not.toBeNull();
    // Same imports, resolved from where the file would live.
    const source = block![1]!.replaceAll(/from '\.\.?\/([^']+)'/g, (_m, p: string) => {
      const base = p.startsWith('scan/') ? join(root, 'server', p) : join(root, 'server/detect', p);
      return `from '${pathToFileURL(base).href}.ts'`;
    });
    const file = join(tmp, 'oversized-tool-result.ts');
    writeFileSync(file, source);
    const { oversizedToolResult } = (await import(pathToFileURL(file).href)) as { oversizedToolResult: AnyDetector };

    const row = (o: object) => JSON.stringify({ timestamp: '2026-06-02T10:00:00.000Z', version: '2.1.160', ...o });
    const transcript = join(tmp, 'session.jsonl');
    writeFileSync(
      transcript,
      [
        row({ type: 'user', message: { role: 'user', content: 'read it' } }),
        row({
          type: 'assistant',
          message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }], stop_reason: 'tool_use' },
        }),
        row({
          type: 'user',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '[Tool result too large to keep] 2 MB' }] },
        }),
        row({
          type: 'assistant',
          message: { id: 'm2', content: [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'cat log' } }], stop_reason: 'tool_use' },
        }),
        row({
          type: 'user',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'log: [Tool result too large to keep]' }] },
        }),
      ].join('\n') + '\n',
    );
    const run = startDetectors('transcript', [oversizedToolResult]);
    const scan = scanFile(transcript, { observers: run.observers });
    if (scan.status !== 'ok') throw new Error('did not scan');
    expect(run.detect(scan.transcript).map((f) => [f.code, f.sourceLines])).toEqual([['oversized_tool_result', [2, 3]]]);
  });
});
