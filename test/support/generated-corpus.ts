import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir } from './shared-material';

/** ../shared/bench/gen-corpus.mjs's truth.json (its header says what each field means). */
export interface Truth {
  canary: string;
  /** Every injected failure; `lines` empty where the generator does not give them (repeated_empty_tool_call). */
  findings: Array<{ file: string; code: string; lines: number[]; kind?: string }>;
  cells: Array<{ day: string; version: string; model: string; assistant_messages: number; tool_use_turns: number; stop_known_messages: number }>;
  /** Files damaged on purpose: fail closed by default, counted nowhere. */
  damaged_files: Array<{ file: string; line: number; code: 'concatenated_rows' | 'malformed_json' }>;
  totals: {
    files: number;
    bytes: number;
    sessions: number;
    assistant_messages: number;
    tool_use_turns: number;
    stop_known_messages: number;
    damaged_files: number;
    by_code: Record<string, number>;
    /** Refusals and shapes that are never findings: written by the generator, counted here. */
    lookalikes: { noSuchTool: number; schemaLate: number; sibling: number; resultFirst: number; openAtEnd: number };
  };
}

/** Generates a corpus with ../shared/bench/gen-corpus.mjs (the realistic model) into a fresh temporary folder. */
export function generateCorpus(args: string[]): { dir: string; projects: string; truth: Truth } {
  const dir = mkdtempSync(join(tmpdir(), 'tcf-corpus-'));
  const r = spawnSync(process.execPath, [join(sharedDir, 'bench/gen-corpus.mjs'), '--out', dir, '--quiet', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gen-corpus failed: ${r.stderr}`);
  return { dir, projects: join(dir, 'projects'), truth: JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as Truth };
}
