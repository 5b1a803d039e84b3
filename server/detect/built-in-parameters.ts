/**
 * Parameter names of Claude Code's built-in tools, fixed here: the only names a finding may
 * report as the missing parameter of a refused call (never for an MCP or unknown tool, whose
 * parameter names are the user's own words).
 */
export const BUILT_IN_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  Agent: ['description', 'prompt', 'subagent_type', 'model'],
  AskUserQuestion: ['questions'],
  Bash: ['command', 'description', 'timeout', 'run_in_background'],
  BashOutput: ['bash_id', 'filter'],
  Edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
  ExitPlanMode: ['plan'],
  Glob: ['pattern', 'path'],
  Grep: ['pattern', 'path', 'glob', 'type', 'output_mode'],
  KillBash: ['shell_id'],
  KillShell: ['shell_id'],
  LS: ['path', 'ignore'],
  MultiEdit: ['file_path', 'edits'],
  NotebookEdit: ['notebook_path', 'new_source', 'cell_id', 'cell_type', 'edit_mode'],
  NotebookRead: ['notebook_path'],
  Read: ['file_path', 'offset', 'limit', 'pages'],
  SendMessage: ['to', 'message'],
  Skill: ['skill', 'command'],
  SlashCommand: ['command'],
  Task: ['description', 'prompt', 'subagent_type'],
  TaskCreate: ['subject', 'description'],
  TaskGet: ['taskId'],
  TaskOutput: ['task_id'],
  TaskStop: ['task_id'],
  TaskUpdate: ['taskId'],
  TodoWrite: ['todos'],
  ToolSearch: ['query'],
  WebFetch: ['url', 'prompt'],
  WebSearch: ['query'],
  Write: ['file_path', 'content'],
};

/** The missing parameter's name when the tool is built-in and the name is one of its own; else null. */
export function builtInParameter(tool: string, parameter: string | null | undefined): string | null {
  if (!parameter || !Object.hasOwn(BUILT_IN_PARAMETERS, tool)) return null;
  return BUILT_IN_PARAMETERS[tool]!.includes(parameter) ? parameter : null;
}
