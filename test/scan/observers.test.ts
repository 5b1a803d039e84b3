import { describe, expect, it } from 'vitest';
import { CaptureBuilder } from '../../server/scan/build-capture';
import { TranscriptBuilder } from '../../server/scan/build-transcript';
import type { CaptureObserver, TranscriptObserver } from '../../server/scan/observers';

const assistant = (id: string, content: unknown, stop: string | null = null) => ({ type: 'assistant', message: { id, content, stop_reason: stop } });
const user = (content: unknown, extra = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra });

describe('observers: the hooks a detector keeps its own facts through', () => {
  it('the transcript builder shows every accepted row once, in order, to the right hook, after folding it', () => {
    const seen: string[] = [];
    const observer: TranscriptObserver = {
      assistant: (blocks, message, _row, line) => seen.push(`a${line}:${message.index}:${message.lines.join(',')}:${blocks.map((b) => b.type).join('+')}`),
      user: (content, _row, line) => seen.push(`u${line}:${typeof content === 'string' ? 'text' : content.map((b) => b.type).join('+')}`),
      other: (row, line) => seen.push(`o${line}:${String(row.type)}`),
    };
    const b = new TranscriptBuilder([observer]);
    const rows = [
      user('hi'),
      assistant('m1', [{ type: 'thinking', thinking: 't', signature: 's' }]),
      { type: 'system', subtype: 'turn_duration' },
      assistant('m1', [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }], 'tool_use'),
      user([{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]),
      { type: 'brand-new-row-type' },
    ];
    rows.forEach((r, i) => {
      expect(b.addRow(r, i + 1)).toBe('ok');
    });
    expect(seen).toEqual(['u1:text', 'a2:0:2:thinking', 'o3:system', 'a4:0:2,4:tool_use', 'u5:tool_result', 'o6:brand-new-row-type']);
  });

  it('a row the builder refuses reaches no observer', () => {
    const seen: number[] = [];
    const b = new TranscriptBuilder([{ assistant: (_b, _m, _r, line) => seen.push(line), user: (_c, _r, line) => seen.push(line) }]);
    expect(b.addRow(assistant('m1', [{ text: 'no type' }]), 1)).toBe('invalid_structure');
    expect(b.addRow(user([{ type: 'tool_result', tool_use_id: 7 }]), 2)).toBe('invalid_structure');
    expect(b.addRow(assistant('m2', 'not an array'), 3)).toBe('invalid_structure');
    expect(seen).toEqual([]);
  });

  it('the capture builder shows stream-json rows (not stream events) and each tool input once parsed', () => {
    const rows: string[] = [];
    const inputs: unknown[] = [];
    const observer: CaptureObserver = { row: (row, line) => rows.push(`${line}:${String(row.type)}`), toolInput: (_b, input) => inputs.push(input) };
    const b = new CaptureBuilder('stream-json', [observer]);
    const ev = (event: unknown) => ({ type: 'stream_event', event });
    const script = [
      { type: 'system', subtype: 'init', claude_code_version: '2.1.215' },
      ev({ type: 'message_start', message: { id: 'm', model: 'claude-opus-4-8' } }),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'Bash', input: {} } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '1}' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'u', name: 'Bash', input: {} } }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'v', name: 'Bash', input: {} } }),
      ev({ type: 'content_block_stop', index: 2 }),
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 't', input: { a: 1 } }] } },
      { type: 'result', terminal_reason: 'completed' },
    ];
    script.forEach((r, i) => {
      expect(b.addRow(r, i + 1)).toBe('ok');
    });
    expect(rows).toEqual(['1:system', '12:assistant', '13:result']);
    // parsed, unparseable (undefined, and the block says so), no delta at all (undefined)
    expect(inputs).toEqual([{ a: 1 }, undefined, undefined]);
    expect(b.build().messages[0]!.blocks.map((x) => x.unparseable)).toEqual([false, true, false]);
  });
});
