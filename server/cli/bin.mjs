#!/usr/bin/env node
// The installed command (`tool-call-forensics`, `tcf`). In a checkout, where the TypeScript sources
// are, it is the launcher (server/cli/launch.mjs: bundles the sources when they changed); in the
// installed package, which ships no sources, it runs the bundle `npm pack` built (dist/cli, by
// server/cli/prepack.mjs), so the installed command needs neither esbuild nor TypeScript.
// Plain JavaScript on purpose: it runs before anything could compile TypeScript.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fromSources = existsSync(join(root, 'server', 'cli', 'main.ts'));
await import(pathToFileURL(fromSources ? join(root, 'server', 'cli', 'launch.mjs') : join(root, 'dist', 'cli', 'main.mjs')).href);
