import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './project-root';

/** This tool's version, from package.json. */
export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
