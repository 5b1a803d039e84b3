import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { analyseFile } from '../../server/detect/analyse-file';
import type { RowsAdapter } from '../../server/scan/agents/adapter';
import { copilotCliAdapter } from '../../server/scan/agents/copilot-cli';
import { geminiCliRowsAdapter, readGeminiDocument } from '../../server/scan/agents/gemini-cli';
import { piAdapter } from '../../server/scan/agents/pi';
import { readJsonDocument } from '../../server/scan/agents/read-document';
import { scanFile } from '../../server/scan/scan-file';
import { describeWithShared, sharedDir } from '../support/shared-material';

/**
 * The real Copilot CLI, Pi and Gemini CLI sessions of ../shared/corpus/agents against expect.json
 * (counted by the reference counter, tools/agents_count.py, independently of this code): agent,
 * version, models in order of first appearance, model messages, tool calls, tool results, days,
 * no finding, and the counts kept beside the model equal to its diagnostics. Entire's compact
 * copies are refused whatever agent they name.
 */
interface Expected {
  agent: string;
  format: string;
  version: string | null;
  models: string[];
  model_messages: number;
  tool_calls: number;
  tool_results: number;
  days: string[];
  findings: unknown[];
  diagnostics: Record<string, number>;
  refused?: string;
}

const ADAPTERS: Record<string, RowsAdapter> = { 'copilot-cli': copilotCliAdapter, pi: piAdapter, 'gemini-cli': geminiCliRowsAdapter };
/** The diagnostics expect.json counts that these adapters keep too, under the same names. */
const KEPT = ['tool_errors', 'denied', 'cancelled', 'hook_errors', 'aborted', 'error_stops', 'compaction'];

/** The counts an adapter keeps beside the model, from the file (row by row, or the Gemini document). */
function eventsOf(path: string, agent: string): Record<string, number> {
  const first = readFileSync(path, 'utf8').split('\n', 1)[0]!;
  let isRows = true;
  try {
    JSON.parse(first);
  } catch {
    isRows = false;
  }
  if (!isRows) {
    const doc = readJsonDocument(path);
    if (doc.status !== 'ok') throw new Error(`${path}: not a document`);
    const read = readGeminiDocument(doc.document);
    return read.status === 'ok' ? (read.events ?? {}) : {};
  }
  const reader = ADAPTERS[agent]!.start({ observers: [] }) as ReturnType<RowsAdapter['start']> & { events: Record<string, number> };
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((l, i) => {
    if (l.trim() !== '') reader.addRow(JSON.parse(l), i + 1);
  });
  reader.finish({ lineCount: lines.length, endsWithNewline: true, salvaged: [] });
  return reader.events;
}

describeWithShared('Copilot CLI, Pi and Gemini CLI: the real sessions of ../shared/corpus/agents (expect.json)', () => {
  const corpus = join(sharedDir, 'corpus', 'agents');
  const expected = JSON.parse(readFileSync(join(corpus, 'expect.json'), 'utf8')).files as Record<string, Expected>;
  const mine = Object.entries(expected).filter(([, e]) => e.format in ADAPTERS);
  const compact = Object.entries(expected).filter(([, e]) => e.format === 'entire-compact');

  it('holds the files this suite is about', () => {
    expect(mine.map(([, e]) => e.agent).sort()).toEqual([...Array(4).fill('copilot-cli'), ...Array(6).fill('gemini-cli'), ...Array(4).fill('pi')]);
    expect(compact.length).toBe(2);
  });

  it.each(mine)('%s', (file, e) => {
    const path = join(corpus, file);
    const scan = scanFile(path);
    if (scan.status !== 'ok') throw new Error(`${file}: ${JSON.stringify(scan)}`);
    const t = scan.transcript;
    expect({ agent: scan.agent, version: scan.version }).toEqual({ agent: e.agent, version: e.version });
    expect([...new Set(t.messages.map((m) => m.model).filter((m) => m !== null))]).toEqual(e.models);
    expect({
      model_messages: t.messages.length,
      tool_calls: t.messages.reduce((n, m) => n + m.toolUses.length, 0),
      tool_results: t.toolResults.length,
    }).toEqual({ model_messages: e.model_messages, tool_calls: e.tool_calls, tool_results: e.tool_results });
    const days = new Set(e.days);
    for (const m of t.messages) expect(days.has(m.day!), `${file}: message day ${m.day}`).toBe(true);
    for (const at of [t.firstTimestamp, t.lastTimestamp]) expect(days.has(at!.slice(0, 10)), `${file}: ${at}`).toBe(true);
    const events = eventsOf(path, e.agent);
    const kept = Object.fromEntries(KEPT.filter((k) => (events[k] ?? 0) > 0).map((k) => [k, events[k]]));
    expect(kept).toEqual(Object.fromEntries(Object.entries(e.diagnostics).filter(([k]) => KEPT.includes(k))));
    expect(e.findings).toEqual([]);
    const analysis = analyseFile(path);
    expect(analysis).toMatchObject({ status: 'ok', findings: [] });
  });

  it.each(compact)("%s: Entire's compact copy, refused", (file) => {
    expect(scanFile(join(corpus, file))).toMatchObject({ status: 'failed', failure: { code: 'entire_compact_transcript', line: 1 } });
  });
});
