import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Db } from '../store/database';
import { type ForgetCounts, type ForgetSelection, forgetFiles, forgetPreview, selectsSomething } from '../store/forget';
import { UsageError } from './usage-error';

export interface ForgetOptions {
  gone?: boolean;
  before?: string;
  folder?: string;
  file?: string;
  yes?: boolean;
}

/** The folder a `--folder` names: its id (as the Folders page and `--folder` filters show it) or its path. */
function folderIdOf(db: Db, value: string): number {
  const row = /^[0-9]+$/.test(value)
    ? db.prepare<[number], { id: number }>('SELECT id FROM roots WHERE id = ?').get(Number(value))
    : db.prepare<[string], { id: number }>('SELECT id FROM roots WHERE path = ?').get(resolve(value));
  if (!row) throw new UsageError('--folder: no such folder in this index (give its number from the Folders page, or its path)');
  return row.id;
}

/** The selection the flags name; a usage error when they name nothing or a day that is not one. */
export function selectionOf(db: Db, options: ForgetOptions): ForgetSelection {
  if (options.before !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(options.before) || Number.isNaN(Date.parse(`${options.before}T00:00:00Z`)))) {
    throw new UsageError('--before: give a day, YYYY-MM-DD');
  }
  const sel: ForgetSelection = {
    ...(options.gone ? { gone: true } : {}),
    ...(options.before !== undefined ? { before: options.before } : {}),
    ...(options.folder !== undefined ? { folderId: folderIdOf(db, options.folder) } : {}),
    ...(options.file !== undefined ? { file: options.file } : {}),
  };
  if (!selectsSomething(sel)) throw new UsageError('name what to forget: --gone, --before DAY, --folder N|PATH and/or --file REL');
  return sel;
}

/** Counts only, never a name. */
export function formatForgetCounts(c: ForgetCounts, acted: boolean): string {
  const what = `${c.files} file${c.files === 1 ? '' : 's'} (${c.files_gone} no longer on disk), ${c.findings} finding${c.findings === 1 ? '' : 's'}, ${c.assistant_messages} assistant message${c.assistant_messages === 1 ? '' : 's'}`;
  if (!acted) return `would forget ${what}; nothing was changed: run again with --yes to forget them\n`;
  return `forgot ${what}${c.folders ? `; ${c.folders} removed folder${c.folders === 1 ? '' : 's'} left empty went too` : ''}\n`;
}

/** `forget`: a dry run by default; with `yes`, removes the selection (waiting for a running index run). */
export async function runForget(dbPath: string, given: boolean, options: ForgetOptions, open: (path: string) => Db): Promise<string> {
  if (!existsSync(dbPath)) throw new UsageError(`${given ? '--db' : 'the default index (see --help)'}: no such index database`);
  const db = open(dbPath);
  try {
    const sel = selectionOf(db, options);
    if (!options.yes) return formatForgetCounts(forgetPreview(db, sel), false);
    return formatForgetCounts(await forgetFiles(db, sel, { wait: true }), true);
  } finally {
    db.close();
  }
}
