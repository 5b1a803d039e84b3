import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestApp } from './api-app';

/**
 * The checks every canary test makes of an index: the database's bytes (checkpointed, with its `-wal`) and the
 * API's answers hold the canary in neither its own case nor lower case (a slug or a file name may be lowered).
 */

/** Checkpoints the test app's index and returns its path and its bytes, `-wal` included. */
export function indexBytes(t: TestApp): { dbPath: string; bytes: Buffer } {
  t.db.pragma('wal_checkpoint(TRUNCATE)');
  const dbPath = join(t.dir, 'index.db');
  const bytes = Buffer.concat(['', '-wal'].filter((s) => existsSync(dbPath + s)).map((s) => readFileSync(dbPath + s)));
  return { dbPath, bytes };
}

/** Asserts that the index's bytes hold the canary in neither case, and returns them for further checks. */
export function expectIndexFree(t: TestApp, canary: string): { dbPath: string; bytes: Buffer } {
  const index = indexBytes(t);
  expect(index.bytes.includes(Buffer.from(canary))).toBe(false);
  expect(index.bytes.includes(Buffer.from(canary.toLowerCase()))).toBe(false);
  return index;
}

/** Asserts that each URL answers 200 with no trace of the canary in either case. */
export async function expectAnswersFree(t: TestApp, urls: string[], canary: string): Promise<void> {
  for (const url of urls) {
    const r = await t.get(url);
    expect(r.status, url).toBe(200);
    expect(r.body.toLowerCase(), url).not.toContain(canary.toLowerCase());
  }
}

/**
 * OpenCode's three tool parts that carry the canary in every field: the `invalid` rewrite of a call whose arguments
 * did not parse (a finding), an aborted MCP call with `{}` input and a call refused for invalid arguments
 * (diagnostics). Shared by the export, storage/ tree and database canary tests so each covers the same fields.
 */
export function openCodeCanaryToolParts(c: string): Array<Record<string, unknown>> {
  return [
    {
      type: 'tool',
      tool: 'invalid',
      callID: c,
      state: {
        status: 'completed',
        input: { tool: c, error: `${c} JSON parsing failed ${c}` },
        output: c,
        metadata: { [c]: c },
        title: c,
        time: { start: 1, end: 2 },
      },
    },
    {
      type: 'tool',
      tool: `${c}_mcp`,
      callID: c,
      state: { status: 'error', input: {}, error: `Tool execution aborted ${c}`, metadata: { [c]: c }, time: { start: 1, end: 2 } },
    },
    {
      type: 'tool',
      tool: c,
      callID: c,
      state: { status: 'error', input: { [c]: c }, error: `The ${c} tool was called with invalid arguments ${c}` },
    },
  ];
}
