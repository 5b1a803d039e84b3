import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.TCF_API ?? 'http://127.0.0.1:4319';

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1000 },
  server: {
    port: 5173,
    strictPort: true,
    // The API refuses foreign Hosts and Origins: present the API's own, as the built page would.
    proxy: { '/api': { target: api, changeOrigin: true, headers: { origin: api } } },
  },
});
