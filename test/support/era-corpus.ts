import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesRoot } from './detector-fixtures';

/**
 * A tiny corpus with one transcript per stop-reason era (FORMAT.md §6), a harness-written
 * synthetic row and a stream capture, with its denominators counted by hand below.
 */
type Block = { type: 'text' | 'thinking' | 'tool_use'; id?: string };

interface Writer {
  rows: string[];
  assistant(messageId: string, blocks: Block[][], stops: Array<string | null>, extra?: Record<string, unknown>, model?: string): void;
  result(toolUseId: string): void;
}

function writer(version: string, day: string, session: string): Writer {
  const rows: string[] = [];
  let n = 0;
  const base = () => {
    n++;
    return { sessionId: session, version, uuid: `${session}-${n}`, timestamp: `${day}T10:00:${String(n).padStart(2, '0')}.000Z`, isSidechain: false };
  };
  const content = (b: Block) =>
    b.type === 'tool_use'
      ? { type: 'tool_use', id: b.id, name: 'Bash', input: { command: 'ls' } }
      : b.type === 'thinking'
        ? { type: 'thinking', thinking: '', signature: 'sig' }
        : { type: 'text', text: 'ok' };
  return {
    rows,
    // One row per entry of `blocks`, each with its own stop reason (null where the era writes none).
    assistant(messageId, blocks, stops, extra = {}, model = 'claude-opus-4-8') {
      blocks.forEach((row, i) => {
        rows.push(
          JSON.stringify({
            ...base(),
            type: 'assistant',
            ...extra,
            message: { id: messageId, type: 'message', role: 'assistant', model, content: row.map(content), stop_reason: stops[i] ?? null },
          }),
        );
      });
    },
    result(toolUseId) {
      rows.push(
        JSON.stringify({ ...base(), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'done' }] } }),
      );
    },
  };
}

/** Expected denominators per version (all on claude-opus-4-8 except the synthetic row). */
export const ERA_TRUTH = {
  // 2.1.12–2.1.52: stop_reason null on every row; tool-calling messages are tool-use turns all the same.
  '2.1.20': { assistant_messages: 3, tool_use_turns: 2, stop_known_messages: 0, capture_messages: 0, synthetic_messages: 1, missing: 0 },
  // 2.1.59–2.1.90: the stop reason on the last row only; a parallel-call message null on every row.
  '2.1.70': { assistant_messages: 3, tool_use_turns: 2, stop_known_messages: 2, capture_messages: 0, synthetic_messages: 0, missing: 0 },
  // 2.1.91+: on every row; one message stops for tool_use with no tool_use block (missing_tool_use_block).
  '2.1.100': { assistant_messages: 3, tool_use_turns: 2, stop_known_messages: 3, capture_messages: 0, synthetic_messages: 0, missing: 1 },
  // A stream-json capture: one message, stop reason tool_use from message_delta.
  '2.1.215': { assistant_messages: 1, tool_use_turns: 1, stop_known_messages: 1, capture_messages: 1, synthetic_messages: 0, missing: 0 },
} as const;

export function writeEraCorpus(dir: string): void {
  const project = join(dir, '-home-dev-era');
  mkdirSync(project, { recursive: true });

  const a = writer('2.1.20', '2026-05-01', 'sess-a');
  a.assistant('msg_a1', [[{ type: 'thinking' }], [{ type: 'tool_use', id: 'toolu_a1' }]], [null, null]);
  a.result('toolu_a1');
  a.assistant('msg_a2', [[{ type: 'text' }], [{ type: 'tool_use', id: 'toolu_a2' }]], [null, null]);
  a.result('toolu_a2');
  a.assistant('msg_a3', [[{ type: 'text' }]], [null]);
  // Harness-written: counted as synthetic only, in no denominator.
  a.assistant('msg_a4', [[{ type: 'text' }]], ['stop_sequence'], { isApiErrorMessage: true }, '<synthetic>');
  writeFileSync(join(project, 'era-null.jsonl'), `${a.rows.join('\n')}\n`);

  const b = writer('2.1.70', '2026-05-02', 'sess-b');
  b.assistant('msg_b1', [[{ type: 'text' }], [{ type: 'tool_use', id: 'toolu_b1' }]], [null, 'tool_use']);
  b.result('toolu_b1');
  b.assistant('msg_b2', [[{ type: 'thinking' }], [{ type: 'text' }]], [null, 'end_turn']);
  b.assistant('msg_b3', [[{ type: 'tool_use', id: 'toolu_b2' }], [{ type: 'tool_use', id: 'toolu_b3' }]], [null, null]);
  b.result('toolu_b2');
  b.result('toolu_b3');
  writeFileSync(join(project, 'era-last-row.jsonl'), `${b.rows.join('\n')}\n`);

  const c = writer('2.1.100', '2026-05-03', 'sess-c');
  c.assistant('msg_c1', [[{ type: 'thinking' }], [{ type: 'tool_use', id: 'toolu_c1' }]], ['tool_use', 'tool_use']);
  c.result('toolu_c1');
  c.assistant('msg_c2', [[{ type: 'text' }]], ['tool_use']);
  c.assistant('msg_c3', [[{ type: 'text' }]], ['end_turn']);
  writeFileSync(join(project, 'era-every-row.jsonl'), `${c.rows.join('\n')}\n`);

  copyFileSync(join(fixturesRoot, 'detectors/zero_delta_tool_use/positive-no-arguments.jsonl'), join(project, 'capture.jsonl'));
}
