import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { errorBody } from '../../shared/api-errors';
import type { App } from './types';

const TOKEN_META = '<meta name="tcf-token" content="">';

/**
 * The built page: its assets under /assets/, and index.html (with this launch's token) for every other GET that is
 * not the API, so a deep link opens the page; anything else is our 404.
 */
export async function servePage(app: App, webRoot: string | null, token: string): Promise<void> {
  const indexHtml =
    webRoot && existsSync(join(webRoot, 'index.html'))
      ? readFileSync(join(webRoot, 'index.html'), 'utf8').replace(TOKEN_META, `<meta name="tcf-token" content="${token}">`)
      : null;
  if (webRoot && indexHtml) {
    await app.register(fastifyStatic, { root: join(webRoot, 'assets'), prefix: '/assets/', index: false, wildcard: true });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api/') && indexHtml !== null;
    if (wantsPage) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(indexHtml);
    return reply.status(404).send(errorBody('not_found', 'no such endpoint'));
  });
}
