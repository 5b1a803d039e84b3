import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import { basename, join } from 'node:path';

export interface TranscriptEntry {
  /** Absolute (or as-given) path used to open the file; never printed. */
  path: string;
  /** Name shown to users: relative to its input, '/'-separated. */
  name: string;
}

export interface WalkProblem {
  name: string;
  code: 'unreadable';
}

export interface WalkResult {
  files: TranscriptEntry[];
  problems: WalkProblem[];
  symlinksSkipped: number;
}

/** Raised for an input the user named that cannot be used at all. Its message names no path. */
export class InputError extends Error {}

/** Transcripts (`.jsonl`) and stream captures (`.jsonl` stream-json, `.ndjson`, raw `.sse` logs). */
export const SCANNED_EXTENSIONS = ['.jsonl', '.ndjson', '.sse'] as const;
const scanned = (name: string) => SCANNED_EXTENSIONS.some((ext) => name.endsWith(ext));

/**
 * Lists the transcript and capture files under a directory, recursively, in a stable order. Symbolic
 * links, to files or folders, are counted and never followed; folders that cannot be read
 * are reported, never skipped in silence.
 */
export function walkDirectory(dir: string, prefix: string, out: WalkResult): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    out.problems.push({ name: prefix || '.', code: 'unreadable' });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) out.symlinksSkipped++;
    else if (entry.isDirectory()) walkDirectory(path, name, out);
    else if (entry.isFile() && scanned(entry.name)) out.files.push({ path, name });
  }
}

/** Names for several inputs: each input's base name, with -2, -3… where two are equal. */
function inputLabels(inputs: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return inputs.map((input) => {
    const base = basename(input.replace(/[\\/]+$/, '')) || 'input';
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/**
 * Resolves explicit inputs (files or folders) into transcript files. With one input,
 * names are relative to it (a file input: its base name); with several, each name is
 * prefixed by its input's base name.
 */
export function walkInputs(inputs: readonly string[]): WalkResult {
  const out: WalkResult = { files: [], problems: [], symlinksSkipped: 0 };
  const labels = inputLabels(inputs);
  inputs.forEach((input, i) => {
    const position = `input ${i + 1} of ${inputs.length}`;
    let stat: Stats;
    try {
      stat = lstatSync(input);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      throw new InputError(`${position} ${missing ? 'does not exist' : 'cannot be read'}`);
    }
    if (stat.isSymbolicLink()) throw new InputError(`${position} is a symbolic link; links are never followed, give the real path`);
    const label = inputs.length === 1 ? '' : labels[i]!;
    if (stat.isDirectory()) {
      const before = out.problems.length;
      walkDirectory(input, label, out);
      if (out.problems.length > before && out.problems[before]!.name === (label || '.')) {
        throw new InputError(`${position} cannot be read`);
      }
    } else if (stat.isFile()) {
      out.files.push({ path: input, name: label ? `${label}/${basename(input)}` : basename(input) });
    } else {
      throw new InputError(`${position} is neither a file nor a folder`);
    }
  });
  return out;
}
