/**
 * The tables and columns of OpenCode's database (`opencode.db`, since v1.2.0) that issue 38 reads,
 * as OpenCode's drizzle schema declares them (anomalyco/opencode `src/session/session.sql.ts`):
 * `message` and `part` must have exactly these columns; `session` must have every required column
 * and no column outside the known list (its columns grew over OpenCode's versions). Any other shape
 * is refused `database_schema_unknown`, naming the table or column (server/scan/opencode-db.ts).
 */
export const OPENCODE_DB_SCHEMA = {
  session: {
    required: ['id', 'project_id', 'slug', 'directory', 'title', 'version', 'time_created', 'time_updated'],
    optional: [
      'workspace_id',
      'parent_id',
      'path',
      'share_url',
      'summary_additions',
      'summary_deletions',
      'summary_files',
      'summary_diffs',
      'cost',
      'tokens_input',
      'tokens_output',
      'tokens_reasoning',
      'tokens_cache_read',
      'tokens_cache_write',
      'revert',
      'permission',
      'goal',
      'agent',
      'model',
      'time_compacting',
      'time_archived',
    ],
  },
  message: { required: ['id', 'session_id', 'time_created', 'time_updated', 'data'], optional: [] },
  part: { required: ['id', 'message_id', 'session_id', 'time_created', 'time_updated', 'data'], optional: [] },
} as const;

export type OpenCodeTable = keyof typeof OPENCODE_DB_SCHEMA;
type ColumnOf<T extends OpenCodeTable> = (typeof OPENCODE_DB_SCHEMA)[T]['required'][number] | (typeof OPENCODE_DB_SCHEMA)[T]['optional'][number];

/**
 * The name of a table, or a table's column, that differs: `opencode_db_<table>` or `opencode_db_<table>__<column>`
 * (the index keeps a hint as `[a-z_]{1,40}`, migration 019).
 */
export type OpenCodeSchemaHint = { [T in OpenCodeTable]: `opencode_db_${T}` | `opencode_db_${T}__${ColumnOf<T>}` }[OpenCodeTable];

/** Every such name, with what it says (a fixed vocabulary: nothing read from the database is quoted). */
export const OPENCODE_SCHEMA_HINTS = Object.fromEntries(
  (Object.keys(OPENCODE_DB_SCHEMA) as OpenCodeTable[]).flatMap((table) => {
    const { required, optional } = OPENCODE_DB_SCHEMA[table];
    return [
      [`opencode_db_${table}`, `OpenCode database: table ${table} is missing or has a column not known here`],
      ...[...required, ...optional].map((c) => [`opencode_db_${table}__${c}`, `OpenCode database: column ${table}.${c} is missing or not of the known type`]),
    ];
  }),
) as Record<OpenCodeSchemaHint, string>;
