import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyMessage, classifySessionEnd } from '../../server/detect/session-end';
import { scanFile } from '../../server/scan/scan-file';
import { SESSION_ENDS, type SessionEnd } from '../../shared/session-ends';
import { messageOf, transcriptOf } from '../support/model-builders';
import { sessionText } from '../support/session-transcripts';

const dir = mkdtempSync(join(tmpdir(), 'tcf-ends-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function classifyText(text: string): SessionEnd | null {
  const path = join(dir, `t-${Math.random()}.jsonl`);
  writeFileSync(path, text);
  const scan = scanFile(path);
  if (scan.status !== 'ok') throw new Error(`did not scan: ${scan.status}`);
  return classifySessionEnd(scan.transcript)?.end ?? null;
}

describe('classifySessionEnd on whole transcripts', () => {
  it.each(SESSION_ENDS.map((e) => [e]))('a session ending in %s is classed so', (end) => {
    expect(classifyText(sessionText(end))).toBe(end);
  });

  it('gives no class to a file without assistant messages', () => {
    expect(classifyText('{"type":"user","message":{"role":"user","content":"hi"}}\n')).toBeNull();
  });
});

describe('classifySessionEnd rules', () => {
  it('judges the main thread: a subagent message written later in a main file does not decide', () => {
    const main = messageOf({ lines: [3], stopReason: 'tool_use', blockTypes: ['text'] });
    const sub = messageOf({ lines: [5], stopReason: 'end_turn', blockTypes: ['text'], sidechain: true });
    expect(classifySessionEnd(transcriptOf([main, sub]))?.end).toBe('lost_call');
  });

  it('judges every message of a subagent file', () => {
    const sub = messageOf({ lines: [5], stopReason: 'end_turn', blockTypes: ['thinking'], sidechain: true });
    expect(classifySessionEnd({ ...transcriptOf([sub]), sidechain: true })?.end).toBe('said_nothing');
  });

  it('an unanswered retry nudge after the last message is a lost call; one answered by a later message is not', () => {
    const first = messageOf({ lines: [3], stopReason: 'end_turn', blockTypes: ['text'], leak: { opener: null } });
    const nudged = { ...transcriptOf([first]), nudges: [{ line: 4, wording: 0, sidechain: false }] };
    expect(classifySessionEnd(nudged)?.end).toBe('lost_call');
    const retried = messageOf({
      index: 1,
      messageId: 'r',
      lines: [5],
      stopReason: 'tool_use',
      toolUses: [{ id: 't', emptyInput: false, line: 5, name: 'x', unparsed: null }],
    });
    expect(classifySessionEnd({ ...nudged, messages: [first, retried] })?.end).toBe('tool_call');
  });

  it('an exhausted retry (harness row) is a lost call, another harness row an API error', () => {
    const m = messageOf({ lines: [3], stopReason: 'end_turn' });
    const exhausted = messageOf({ messageId: 's', lines: [6], synthetic: true, retryExhausted: true });
    expect(classifySessionEnd(transcriptOf([m, exhausted]))?.end).toBe('lost_call');
    expect(classifySessionEnd(transcriptOf([m, { ...exhausted, retryExhausted: false }]))?.end).toBe('api_error');
  });

  it('an interrupt before the last message does not decide', () => {
    const m = messageOf({ lines: [8], stopReason: 'end_turn', blockTypes: ['text'] });
    expect(classifySessionEnd({ ...transcriptOf([m]), interrupts: [5] })?.end).toBe('text_answer');
    expect(classifySessionEnd({ ...transcriptOf([m]), interrupts: [9] })?.end).toBe('interrupted');
  });

  it.each<[string, Parameters<typeof messageOf>[0], SessionEnd]>([
    [
      'a cut at max_tokens, even mid-call',
      { stopReason: 'max_tokens', blockTypes: ['tool_use'], toolUses: [{ id: 't', emptyInput: false, line: 1, name: 'x', unparsed: null }] },
      'max_tokens',
    ],
    ['a context-window stop', { stopReason: 'model_context_window_exceeded' }, 'max_tokens'],
    ['a server tool call', { stopReason: 'tool_use', blockTypes: ['server_tool_use'] }, 'tool_call'],
    ['a call with an unknown stop reason', { stopReason: null, toolUses: [{ id: 't', emptyInput: false, line: 1, name: 'x', unparsed: null }] }, 'tool_call'],
    ['leaked markup in an end_turn text', { stopReason: 'end_turn', leak: { opener: 1 } }, 'lost_call'],
    ['an unknown stop with thinking only', { stopReason: null, blockTypes: ['thinking'] }, 'unknown'],
    ['an empty end_turn', { stopReason: 'end_turn', blockTypes: [] }, 'said_nothing'],
    ['a stop_sequence with text', { stopReason: 'stop_sequence', blockTypes: ['text'] }, 'text_answer'],
  ])('classifyMessage: %s', (_label, over, end) => {
    expect(classifyMessage(messageOf(over))).toBe(end);
  });
});
