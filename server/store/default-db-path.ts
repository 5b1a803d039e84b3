import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the index lives unless `--db` says otherwise: $TCF_DB, else
 * $XDG_DATA_HOME/tool-call-forensics/index.db, else ~/.local/share/tool-call-forensics/index.db.
 */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TCF_DB) return env.TCF_DB;
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'tool-call-forensics', 'index.db');
}

/** The demo database, kept apart from a user's own index. */
export function demoDbPath(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'tool-call-forensics', 'demo.db');
}
