/**
 * `npm run dev`: the API server (demo database unless --db is given after `--`) on 4319 and
 * Vite's dev server with hot reload on 5173, whose /api proxy presents the API's own origin.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createServer } from 'vite';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const api = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/cli/main.ts'), 'serve', '--no-build', ...(args.length ? args : ['--demo'])], {
  stdio: 'inherit',
});
const vite = await createServer({ configFile: join(root, 'vite.config.ts') });
await vite.listen();
vite.printUrls();
const stop = () => {
  api.kill();
  void vite.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
