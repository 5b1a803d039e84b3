import { describe, expect, it } from 'vitest';
import { rowMetadata, toolLabel } from '../../server/scan/row-metadata';
import { newCanary } from '../support/canary-transcripts';

const c = newCanary();

describe('row-metadata: the one allowlist for rows around a finding', () => {
  it('lets out no free-form value, whatever field the canary is in', () => {
    const rows: unknown[] = [
      {
        type: 'assistant',
        isSidechain: true,
        cwd: `/home/${c}`,
        sessionId: c,
        uuid: c,
        timestamp: `${c}`,
        requestId: c,
        message: {
          id: c,
          role: c,
          model: c,
          stop_reason: c,
          usage: { output_tokens: c },
          content: [
            { type: 'text', text: c },
            { type: 'thinking', thinking: c, signature: c },
            { type: 'tool_use', id: c, name: `mcp__${c}__x`, input: { [c]: c } },
            { type: 'tool_use', id: c, name: c, input: {} },
            { type: c, [c]: c },
          ],
        },
      },
      { type: c, subtype: c, data: { type: c }, attachment: { type: c } },
      { type: 'progress', data: { type: c, command: c } },
      { type: 'attachment', attachment: { type: c, content: c } },
      { type: 'system', subtype: c, content: c },
      { type: 'user', isMeta: true, message: { role: 'user', content: c } },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: c, is_error: true, content: c }] }, toolUseResult: c },
      c,
      [c],
    ];
    for (const row of rows) expect(JSON.stringify(rowMetadata(row, 7, 0))).not.toContain(c);
  });

  it('names built-in tools only', () => {
    expect(['Bash', 'Read', 'Task', 'mcp__github__create_issue', 'MyTool', 'bash', 7].map(toolLabel)).toEqual([
      'Bash',
      'Read',
      'Task',
      'mcp',
      'other',
      'other',
      'other',
    ]);
  });

  it('reports stop reason, tokens, max_tokens and seconds since the previous row', () => {
    const m = rowMetadata(
      {
        type: 'assistant',
        timestamp: '2026-05-29T10:00:03.500Z',
        message: {
          role: 'assistant',
          stop_reason: 'max_tokens',
          usage: { output_tokens: 32000 },
          content: [{ type: 'tool_use', name: 'Write', input: { a: 1 } }],
        },
      },
      4,
      Date.parse('2026-05-29T10:00:00.000Z'),
    );
    expect(m).toMatchObject({ line: 4, stop_reason: 'max_tokens', at_max_tokens: true, output_tokens: 32000, seconds_since_previous: 3.5 });
    expect(m.tool_calls).toEqual([{ tool: 'Write', empty_input: false }]);
  });
});
