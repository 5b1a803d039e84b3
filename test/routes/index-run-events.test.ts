import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../fixtures/demo-corpus';
import { startServer } from '../../server/app/serve';
import type { IndexRunState } from '../../shared/api-schemas';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-sse-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('GET /api/index-runs/events', () => {
  it('streams the state at once, then progress that advances to done', async () => {
    // Large enough (about 25 MB) that indexing spans many progress events.
    generateDemoCorpus({ out: tmp, seed: 8, sessions: 800, canary: 'SSECANARY' });
    const server = await startServer({ port: 0, db: join(tmp, 'sse.db'), webRoot: null, log: () => {} });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const added = await fetch(`${origin}/api/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ path: join(tmp, 'projects') }),
      });
      expect(added.status).toBe(201);
      const events = await fetch(`${origin}/api/index-runs/events`);
      expect(events.headers.get('content-type')).toContain('text/event-stream');
      const reader = events.body!.getReader();
      const states: IndexRunState[] = [];
      let buffer = '';
      const read = async () => {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += new TextDecoder().decode(value);
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          const chunk = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = chunk.split('\n').find((l) => l.startsWith('data: '));
          if (data) states.push(JSON.parse(data.slice(6)) as IndexRunState);
        }
      };
      await read();
      expect(states[0]!.state).toBe('idle');
      const started = await fetch(`${origin}/api/index-runs`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: '{}' });
      expect(started.status).toBe(202);
      while (states.at(-1)!.state !== 'done') await read();
      await reader.cancel();
      const indexing = states.filter((s) => s.state === 'running' && s.phase === 'indexing');
      const done = states.at(-1)!;
      expect(done.files_done).toBe(done.files_total);
      expect(done.files_total).toBeGreaterThan(800);
      expect(indexing.length).toBeGreaterThan(1);
      const progress = indexing.map((s) => s.files_done);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(new Set(progress).size).toBeGreaterThan(1);
    } finally {
      await server.close();
    }
  });
});
