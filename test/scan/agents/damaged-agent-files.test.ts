import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../../../server/detect/analyse-file';
import { fixturesRoot } from '../../support/detector-fixtures';

/** Issue 34: a damaged Codex or OpenCode file fails closed with a code and a line, and gives no finding and no count. */
const tmp = mkdtempSync(join(tmpdir(), 'tcf-agentdmg-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const agents = join(fixturesRoot, 'agents');
const codexLines = () => readFileSync(join(agents, 'codex-orphan-mid-session.jsonl'), 'utf8').split('\n');
const openCode = () => readFileSync(join(agents, 'opencode-invalid-call.jsonl'), 'utf8');

function failure(name: string, body: string) {
  const path = join(tmp, name);
  writeFileSync(path, body);
  const a = analyseFile(path);
  return a.status === 'failed' ? { code: a.failure.code, line: a.failure.line } : { status: a.status };
}

describe('damaged Codex rollouts', () => {
  const edit = (line: number, text: string) =>
    codexLines()
      .map((l, i) => (i === line - 1 ? text : l))
      .join('\n');
  it('a row without a payload object, a call without call_id, an output without call_id, a message without role: invalid_structure at its line', () => {
    expect(failure('c1.jsonl', edit(4, JSON.stringify({ timestamp: 't', type: 'response_item', payload: 'x' })))).toEqual({
      code: 'invalid_structure',
      line: 4,
    });
    expect(failure('c2.jsonl', edit(6, JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'function_call', name: 'shell' } })))).toEqual({
      code: 'invalid_structure',
      line: 6,
    });
    expect(failure('c3.jsonl', edit(8, JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'function_call_output' } })))).toEqual({
      code: 'invalid_structure',
      line: 8,
    });
    expect(failure('c4.jsonl', edit(3, JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'message', content: [] } })))).toEqual({
      code: 'invalid_structure',
      line: 3,
    });
  });
  it('a torn row, a duplicate key, a row that is not an object: their codes at their lines', () => {
    expect(failure('c5.jsonl', edit(7, '{"timestamp":"t","type":"response_item","payload":{"type":"funct'))).toEqual({ code: 'malformed_json', line: 7 });
    expect(failure('c6.jsonl', edit(7, '{"timestamp":"t","type":"event_msg","type":"event_msg","payload":{}}'))).toEqual({ code: 'duplicate_key', line: 7 });
    expect(failure('c7.jsonl', edit(9, '[1,2]'))).toEqual({ code: 'invalid_structure', line: 9 });
  });
});

describe('damaged OpenCode exports', () => {
  it('a document cut short (a copy taken mid-write) fails at its first line, never read in part', () => {
    const text = openCode();
    expect(failure('o1.jsonl', text.slice(0, Math.floor(text.length / 2)))).toEqual({ code: 'malformed_json', line: 1 });
  });
  it('a duplicate key anywhere fails the document', () => {
    const text = openCode().replace('"slug": "calm-fox",', '"slug": "calm-fox",\n    "slug": "calm-fox",');
    expect(failure('o2.jsonl', text)).toMatchObject({ code: 'duplicate_key' });
  });
  it('a tool part without callID or state, a message without parts: invalid_structure at its opening brace', () => {
    const doc = JSON.parse(openCode());
    const toolAt = doc.messages[1].parts.findIndex((p: { type: string }) => p.type === 'tool');
    delete doc.messages[1].parts[toolAt].callID;
    const text = JSON.stringify(doc, null, 2) + '\n';
    const lines = text.split('\n');
    const id = doc.messages[1].parts[toolAt].id;
    const at = lines.findIndex((l) => l.includes(`"id": "${id}"`));
    let brace = at;
    while (lines[brace]!.trim() !== '{') brace--;
    expect(failure('o3.jsonl', text)).toEqual({ code: 'invalid_structure', line: brace + 1 });

    const noParts = JSON.parse(openCode());
    delete noParts.messages[2].parts;
    const text2 = JSON.stringify(noParts, null, 2) + '\n';
    const line = text2.split('\n').findIndex((l) => l.includes(`"id": "${noParts.messages[2].info.id}"`));
    let b = line;
    // The message's own brace: the `{` above its `"info": {`.
    while (!text2.split('\n')[b]!.includes('"info"')) b--;
    expect(failure('o4.jsonl', text2)).toEqual({ code: 'invalid_structure', line: b });
  });
  it('an OpenCode-shaped document whose messages is not a list is not claimed: unknown_format at line 1', () => {
    const doc = JSON.parse(openCode());
    doc.messages = {};
    expect(failure('o5.jsonl', JSON.stringify(doc, null, 2))).toEqual({ code: 'unknown_format', line: 1 });
  });
});
