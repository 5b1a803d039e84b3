import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCodeTranscript } from '../../../server/scan/agents/opencode';
import { exportDocument } from '../../../server/scan/agents/read-document';
import { fixturesRoot } from '../../support/detector-fixtures';

/**
 * OpenCode's times are epoch milliseconds (`time.created`): the adapter keeps them as numbers, makes the file's first
 * and last timestamps once, and each message's day from a per-day cache. Both must be what Date says of each time,
 * at day, month, year and range boundaries, and an implausible time must give none.
 */
const fixture = JSON.parse(readFileSync(join(fixturesRoot, 'agents/opencode-invalid-call.jsonl'), 'utf8'));
const DAY = 86_400_000;
const plausible = (ms: unknown): ms is number => typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= Date.UTC(2000, 0, 1) && ms < Date.UTC(2100, 0, 1);

/** The fixture's session with its assistant messages at `times` in turn (the root and other messages without a time). */
function sessionAt(times: unknown[]) {
  const value = structuredClone(fixture);
  delete value.info.time;
  const assistant = value.messages.find((m: { info: { role: string } }) => m.info.role === 'assistant');
  value.messages = times.map((t, i) => ({ ...structuredClone(assistant), info: { ...assistant.info, id: `msg_${i}`, time: { created: t } } }));
  const built = exportDocument(value);
  if (typeof built === 'string') throw new Error(built);
  const read = openCodeTranscript(built.document);
  if (read.status !== 'ok') throw new Error('not read');
  return read.transcript;
}

describe("OpenCode's message times", () => {
  it('give each message the UTC day Date gives, and the file its first and last timestamps', () => {
    const edges = [Date.UTC(2000, 0, 1), Date.UTC(2024, 1, 29), Date.UTC(2024, 2, 1), Date.UTC(2025, 11, 31), Date.UTC(2099, 11, 31)];
    const times: unknown[] = edges.flatMap((t) => [t - 1, t, t + 1, t + DAY - 1]);
    times.push(Date.UTC(2100, 0, 1), 1.5, -1, '1700000000000', null, Date.UTC(2026, 5, 3, 12));
    const transcript = sessionAt(times);
    expect(transcript.messages.map((m) => m.day)).toEqual(times.map((t) => (plausible(t) ? new Date(t).toISOString().slice(0, 10) : null)));
    const kept = times.filter(plausible);
    expect(transcript.firstTimestamp).toBe(new Date(Math.min(...kept)).toISOString());
    expect(transcript.lastTimestamp).toBe(new Date(Math.max(...kept)).toISOString());
    // The day before 2000 is out of range: no day, and not the first timestamp.
    expect(transcript.messages[0]!.day).toBeNull();
    expect(transcript.firstTimestamp).toBe('2000-01-01T00:00:00.000Z');
  });

  it('give no timestamps when no time is plausible', () => {
    const transcript = sessionAt([null, 'soon', 4102444800000]);
    expect([transcript.firstTimestamp, transcript.lastTimestamp]).toEqual([null, null]);
    expect(transcript.messages.map((m) => m.day)).toEqual([null, null, null]);
  });
});
