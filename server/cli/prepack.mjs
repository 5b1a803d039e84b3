// `npm pack` / `npm publish` run this first (package.json "prepack"): the package ships the page and the
// CLI prebuilt, so installing it needs only the runtime dependencies (no Vite, React, esbuild or
// TypeScript on the user's machine). Builds web/dist (production) and dist/cli (the CLI's chunks and the
// index's worker, as server/cli/launch.mjs builds them in a checkout).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCliBundle } from '../build/build-tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'dist', 'cli');
rmSync(out, { recursive: true, force: true });
await buildCliBundle(root, out);

process.env.NODE_ENV = 'production'; // never React's development build
const { build } = await import('vite');
await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
