import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** This tool's version, from package.json. */
export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
}
