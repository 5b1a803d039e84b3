import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 28's corpus, built without ../shared: 97 Claude Code versions (2.1.91 and 2.1.130–2.1.225)
 * over 180 days, two sessions per version of 30 clean tool-use turns each, except four
 * unparseable calls (`__unparsedToolInput`, claude-sonnet-5) in 2.1.211, 2.1.215 (two, one
 * session) and 2.1.220, and one `{}` Read call refused for a missing `file_path` in 2.1.91. Ten clean
 * sessions run on claude-haiku-4-5-20251001, the others on claude-opus-4-8.
 */
export const CLAIM_TRUTH = {
  versions: 97,
  unparseable: { versions: ['2.1.211', '2.1.215', '2.1.220'], findings: 4, sessions: 3 },
  emptyInput: { versions: ['2.1.91'], findings: 1 },
  turnsPerSession: 30,
} as const;

/** The longest model id in the corpus (issue 29: it was clipped to "-haiku-4-5-20251001"). */
export const LONG_MODEL = 'claude-haiku-4-5-20251001';

export const CLAIM_VERSIONS = ['2.1.91', ...Array.from({ length: 96 }, (_, i) => `2.1.${130 + i}`)];

const dayOf = (offset: number) => new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

/** Writes the corpus under `dir` and returns the folder to index. */
export function writeClaimCorpus(dir: string): string {
  const root = join(dir, 'projects');
  const project = join(root, 'proj');
  mkdirSync(project, { recursive: true });
  const bad = new Map<string, number>([
    ['2.1.211:0', 1],
    ['2.1.215:1', 2],
    ['2.1.220:0', 1],
  ]);
  CLAIM_VERSIONS.forEach((version, v) => {
    for (let s = 0; s < 2; s++) {
      const day = dayOf(Math.min(179, Math.floor((v * 180) / CLAIM_VERSIONS.length) + s));
      const session = `s-${version}-${s}`;
      const unparseable = bad.get(`${version}:${s}`) ?? 0;
      // A few clean sessions on a model with a long dated id: the Models chart must show its label whole.
      const model = unparseable ? 'claude-sonnet-5' : s === 1 && v >= 10 && v < 20 ? LONG_MODEL : 'claude-opus-4-8';
      const rows: object[] = [];
      let n = 0;
      const base = () => {
        n++;
        const t = `${day}T10:${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000Z`;
        return { sessionId: session, version, uuid: `${session}-${n}`, timestamp: t, isSidechain: false, entrypoint: 'cli', cwd: '/work' };
      };
      const call = (i: number, name: string, input: object, result: { error?: string }) => {
        const id = `toolu_${session}_${i}`;
        rows.push({
          ...base(),
          type: 'assistant',
          message: {
            id: `msg_${session}_${i}`,
            type: 'message',
            role: 'assistant',
            model,
            content: [{ type: 'tool_use', id, name, input }],
            stop_reason: 'tool_use',
            usage: { input_tokens: 10, output_tokens: 20 },
          },
        });
        rows.push({
          ...base(),
          type: 'user',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: id, content: result.error ?? 'ok', ...(result.error ? { is_error: true } : {}) }],
          },
        });
      };
      rows.push({ ...base(), type: 'user', message: { role: 'user', content: 'go' } });
      for (let i = 0; i < CLAIM_TRUTH.turnsPerSession; i++) {
        if (i < unparseable) {
          const raw = '{"file_path": "/work/notes.md", "limit": 2';
          call(
            i,
            'Read',
            { __unparsedToolInput: { raw, len: raw.length } },
            {
              error:
                '<tool_use_error>InputValidationError: Read was called with input that could not be parsed as JSON. Retry with valid JSON.</tool_use_error>',
            },
          );
        } else if (version === '2.1.91' && s === 0 && i === 0) {
          call(
            i,
            'Read',
            {},
            {
              error:
                '<tool_use_error>InputValidationError: Read failed due to the following issue:\nThe required parameter `file_path` is missing</tool_use_error>',
            },
          );
        } else call(i, 'Bash', { command: 'ls' }, {});
      }
      rows.push({
        ...base(),
        type: 'assistant',
        message: { id: `msg_${session}_end`, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' },
      });
      writeFileSync(join(project, `${session}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    }
  });
  return root;
}
