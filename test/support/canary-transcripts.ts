import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fresh canary per run, so no test can pass by knowing it in advance. */
export function newCanary(): string {
  return 'CANARY' + randomBytes(6).toString('hex').toUpperCase();
}

/**
 * Writes transcripts that plant `canary` in every payload field Claude Code writes (text,
 * thinking, signatures, tool names, inputs, results, ids, cwd, branch, prompts, summaries,
 * attachments, model and version strings that fail their patterns, block type names), with
 * failures the detectors must find, plus files that fail to scan with the canary on the bad line.
 * Returns the folder to scan. With canaryInNames (the default) the folders are named after the
 * canary too, so an absolute path in any output shows up; the index's own privacy test turns
 * that off, since a root's path is kept (only) in the local database.
 */
export function writeCanaryTranscripts(parent: string, canary: string, options: { canaryInNames?: boolean } = {}): string {
  const inNames = options.canaryInNames ?? true;
  const name = inNames ? canary : 'x';
  const root = join(parent, `outside-${name}`, 'root');
  const project = join(root, `-home-${name}-project`);
  mkdirSync(join(project, `session-${name}`, 'subagents'), { recursive: true });
  const c = canary;
  const env = (extra: object) => ({
    parentUuid: `parent-${c}`,
    isSidechain: false,
    userType: `external-${c}`,
    cwd: `/home/${c}/work`,
    sessionId: `session-${c}`,
    version: '2.1.40',
    gitBranch: `branch-${c}`,
    slug: `slug-${c}`,
    uuid: `uuid-${c}-${Math.random()}`,
    timestamp: '2026-05-29T10:00:00.000Z',
    promptId: `prompt-${c}`,
    entrypoint: `cli-${c}`,
    ...extra,
  });
  const assistant = (id: string, content: unknown[], stop: string | null, extra: object = {}) =>
    env({
      type: 'assistant',
      requestId: `req_${c}`,
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-8',
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 2, service_tier: `tier-${c}` },
      },
      ...extra,
    });
  const rows = [
    { type: 'summary', summary: `summary ${c}`, leafUuid: `leaf-${c}` },
    env({ type: 'user', message: { role: 'user', content: `prompt text ${c}` } }),
    env({
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: `user block ${c}` },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: `${c}AAAA` } },
        ],
      },
    }),
    assistant(`msg_${c}_1`, [{ type: 'thinking', thinking: `thinking ${c}`, signature: `sig-${c}` }], 'tool_use'),
    assistant(`msg_${c}_1`, [{ type: 'text', text: `visible text ${c}` }], 'tool_use'),
    assistant(`msg_${c}_2`, [{ type: 'tool_use', id: `toolu_${c}`, name: `mcp__${c}__tool`, input: {}, caller: { type: `direct-${c}` } }], 'tool_use'),
    env({
      type: 'user',
      toolUseResult: `Error: ${c}`,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${c}`, is_error: true, content: `<tool_use_error>${c} missing</tool_use_error>` }],
      },
    }),
    assistant(`msg_${c}_3`, [{ type: 'tool_use', id: `toolu2_${c}`, name: 'Bash', input: { command: `echo ${c}`, [`key_${c}`]: c } }], 'tool_use'),
    env({
      type: 'user',
      toolUseResult: { stdout: c, stderr: c },
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu2_${c}`, content: [{ type: 'text', text: `result ${c}` }] }] },
    }),
    assistant(
      `msg_${c}_4`,
      [
        { type: `CustomBlock${c}`, data: c },
        { type: 'text', text: c },
      ],
      'end_turn',
    ),
    env({
      type: 'assistant',
      requestId: `req2_${c}`,
      message: {
        id: `msg_${c}_5`,
        type: 'message',
        role: 'assistant',
        model: `model ${c}`,
        content: [{ type: 'text', text: c }],
        stop_reason: 'tool_use',
        usage: {},
      },
      version: `version-${c}`,
    }),
    env({ type: 'system', subtype: 'stop_hook_summary', content: `system ${c}`, hookInfos: [{ command: c }] }),
    env({ type: 'attachment', attachment: { type: 'hook_additional_context', content: c } }),
    { type: 'file-history-snapshot', messageId: `snap-${c}`, snapshot: { trackedFileBackups: { [`/home/${c}`]: {} }, timestamp: '2026-05-29T10:00:00Z' } },
    { type: `unknown-${c}`, [c]: c },
  ];
  writeFileSync(join(project, `session-${name}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(
    join(project, `session-${name}`, 'subagents', `agent-${name}.jsonl`),
    JSON.stringify(
      env({
        type: 'assistant',
        isSidechain: true,
        agentId: c,
        message: { id: `msg_${c}_9`, role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: c }], stop_reason: 'tool_use' },
      }),
    ) + '\n',
  );
  // Timestamps that are not ISO-8601 date-times (the canary in, around or instead of one): the
  // file is fine, and its first/last row times must come out null, never the text.
  writeFileSync(
    join(project, 'timestamps.jsonl'),
    [
      { type: 'summary', summary: 's', timestamp: `2026-05-29T10:00:00Z ${c}` },
      { type: 'summary', summary: 's', timestamp: `${c}2026-05-29T10:00:00Z` },
      { type: 'summary', summary: 's', timestamp: c.repeat(1000) },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  // Files that fail, each with the canary on or around the failing line.
  writeFileSync(join(project, 'malformed.jsonl'), `{"type":"user","message":{"content":"${c}"}}\n{"type":"assistant","text":"${c}\n`);
  writeFileSync(join(project, 'duplicate.jsonl'), `{"type":"summary","${c}":1,"${c}":2}\n`);
  writeFileSync(join(project, 'structure.jsonl'), JSON.stringify({ type: 'assistant', message: { id: c, content: c } }) + '\n');
  writeFileSync(join(project, 'utf8.jsonl'), Buffer.concat([Buffer.from(`{"type":"summary","summary":"${c}`), Buffer.from([0xff]), Buffer.from('"}\n')]));
  return root;
}
