import { describe, expect, it } from 'vitest';
import { agentKeyedRows, agentLabel, agentVersion } from '../../web/src/lib/agents';
import type { KeyedRow } from '../../web/src/lib/keyed-rows';

const row = (key: string | null): KeyedRow => ({
  key,
  assistant_messages: 1,
  tool_use_turns: 1,
  stop_known_messages: 1,
  capture_messages: 0,
  codes: [],
});

describe('the agent on the page (issue 34)', () => {
  it('names agents as people know them, and a file no reader recognised as –', () => {
    expect(agentLabel('codex')).toBe('Codex CLI');
    expect(agentLabel('claude-code')).toBe('Claude Code');
    expect(agentLabel(null)).toBe('–');
  });

  it('a version reads `agent version` only where rows can hold several agents', () => {
    expect(agentVersion('codex', '0.146.0', true)).toBe('codex 0.146.0');
    expect(agentVersion('codex', '0.146.0', false)).toBe('0.146.0');
    expect(agentVersion('opencode', null, true)).toBe('opencode unknown');
  });

  it("per-agent rows become one list, each key naming its agent, in the agents' order", () => {
    const rows = agentKeyedRows([
      { agent: 'claude-code', rows: [row('2.1.146'), row(null)] },
      { agent: 'codex', rows: [row('0.146.0')] },
    ]);
    expect(rows.map((r) => r.key)).toEqual(['claude-code 2.1.146', 'claude-code unknown', 'codex 0.146.0']);
  });
});
