import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The checkout's folder (where package.json, fixtures/ and web/ live), found by walking up
 * from this module. It must not be a fixed `..`: the CLI also runs from a bundle under
 * node_modules/.cache (see server/cli/launch.mjs), where this module's folder is another one.
 */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'tool-call-forensics') return dir;
    if (dirname(dir) === dir) throw new Error('tool-call-forensics: cannot find the project folder above ' + start);
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);
