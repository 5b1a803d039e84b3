/**
 * The agents whose transcripts are read (issue 34), each decided from a file's content by its
 * adapter (server/scan/agents/), never from a path or a label another tool wrote. `agent` is a
 * dimension like version and model: versions are per agent (`codex 0.146.0` never mixes with
 * `claude-code 2.1.146`).
 */
export const AGENTS = ['claude-code', 'codex', 'opencode', 'copilot-cli', 'pi', 'gemini-cli'] as const;

export type Agent = (typeof AGENTS)[number];

export const AGENT_LABELS: Record<Agent, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  opencode: 'OpenCode',
  'copilot-cli': 'Copilot CLI',
  pi: 'Pi',
  'gemini-cli': 'Gemini CLI',
};

export function isAgent(value: unknown): value is Agent {
  return typeof value === 'string' && (AGENTS as readonly string[]).includes(value);
}
