import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir } from './shared-material';

export interface Truth {
  canary: string;
  findings: Array<{ file: string; code: string; lines: number[] }>;
  cells: Array<{ day: string; version: string; model: string; assistant_messages: number; tool_use_turns: number; stop_known_messages: number }>;
  totals: { assistant_messages: number; tool_use_turns: number; stop_known_messages: number; by_code: Record<string, number> };
}

/** Generates a corpus with ../shared/bench/gen-corpus-v1.mjs (the previous model, until the suites follow gen-corpus.mjs) into a fresh temporary folder. */
export function generateCorpus(args: string[]): { dir: string; projects: string; truth: Truth } {
  const dir = mkdtempSync(join(tmpdir(), 'tcf-corpus-'));
  const r = spawnSync(process.execPath, [join(sharedDir, 'bench/gen-corpus.mjs'), '--out', dir, '--quiet', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gen-corpus failed: ${r.stderr}`);
  return { dir, projects: join(dir, 'projects'), truth: JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as Truth };
}
