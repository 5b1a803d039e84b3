import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tinyAssistantRow } from '../support/tiny-transcript';
import { cliRun, serverRun } from './stress-server';

const tmp = mkdtempSync(join(tmpdir(), 'tcf-stress-server-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The benchmark's server mode on a tiny corpus (not its figures: those are `npm run bench:stress`'s), so it cannot rot unnoticed.
describe('bench:stress, server mode, on 40 tiny files', () => {
  it('indexes through the real server and the CLI, and reports health latencies, peak RSS and the WAL', async () => {
    const corpus = join(tmp, 'tiny');
    for (let i = 0; i < 40; i++) {
      const dir = join(corpus, `-home-user-src-project-${i % 4}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `s${i}.jsonl`), `${tinyAssistantRow(`msg_${i}`)}\n`);
    }
    const server = await serverRun(corpus, join(tmp, 'server.db'), { watch: false, idleSeconds: 1 });
    expect(server).toMatchObject({ state: 'done', files: 40, walMb: 0 });
    expect(server.healthCount).toBeGreaterThan(0);
    expect(server.healthMaxMs).toBeGreaterThanOrEqual(server.healthP99Ms);
    expect(server.peakRssMb).toBeGreaterThan(0);
    expect(server.dbMb).toBeGreaterThan(0);
    const cli = cliRun(corpus, join(tmp, 'cli.db'));
    expect(cli.peakRssMb).toBeGreaterThan(0);
    expect(cli.seconds).toBeGreaterThan(0);
  }, 180_000);
});
