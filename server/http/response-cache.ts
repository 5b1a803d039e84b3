import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../store/database';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's 200 answers are kept per URL by responseCache (only for answers that depend on the index alone). */
    cache?: boolean;
  }
}

function prepareVersion(db: Db) {
  return db.prepare<[], { v: number; c: number }>('SELECT (SELECT data_version FROM pragma_data_version) AS v, total_changes() AS c');
}

/**
 * The index is read-mostly: figures change only when an index run or a root change commits.
 * Serialized GET responses are kept per URL and tagged with the database's version — SQLite's
 * data_version (moves when another connection, such as a CLI `index`, commits) and this
 * connection's total_changes() (moves with our own writes) — so a cached answer is never stale.
 * A route opts in with `config: { cache: true }`; nothing else is kept.
 */
export function responseCache(db: Db | (() => Db), options: { maxEntries?: number } = {}) {
  const max = options.maxEntries ?? 500;
  const entries = new Map<string, { version: string; payload: Buffer; type: string }>();
  // A read-only server may reopen its index (a followed snapshot): answers kept from another connection are dropped.
  const current = typeof db === 'function' ? db : () => db;
  let bound: Db | null = null;
  let generation = 0;
  let versionStatement: ReturnType<typeof prepareVersion> | null = null;
  const version = () => {
    if (current() !== bound) {
      bound = current();
      versionStatement = prepareVersion(bound);
      // Two connections' versions are not comparable (a snapshot's never moves): the generation tells them apart.
      generation++;
      entries.clear();
    }
    const { v, c } = versionStatement!.get()!;
    return `${generation}:${v}:${c}`;
  };
  const applies = (request: FastifyRequest) => request.method === 'GET' && request.routeOptions.config?.cache === true;

  return {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!applies(request)) return;
      const hit = entries.get(request.url);
      if (hit && hit.version === version()) {
        entries.delete(request.url); // refresh its place in the LRU order
        entries.set(request.url, hit);
        return reply.header('content-type', hit.type).header('x-cache', 'hit').send(hit.payload);
      }
    },
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!applies(request) || reply.statusCode !== 200 || typeof payload !== 'string' || reply.getHeader('x-cache') === 'hit') return payload;
      // Kept as bytes: a hit is then sent without encoding the text again (the daily timeline is ~140 KB).
      const bytes = Buffer.from(payload);
      // The type it was sent with (JSON, or the evidence report's Markdown).
      const type = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      entries.set(request.url, { version: version(), payload: bytes, type });
      if (entries.size > max) entries.delete(entries.keys().next().value!);
      return bytes;
    },
  };
}
