import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { LiveUpdate } from '../../shared/live-update';
import type { ReadOnlyReason } from '../../shared/read-only';
import type { IndexRunner } from '../index/index-runner';
import type { Db } from '../store/database';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What every route plugin gets: the database to ask and the one index runner. */
export interface RouteContext {
  db: Db;
  indexRuns: IndexRunner;
  demo: boolean;
  toolVersion: string;
  /** The index was opened read-only, and why (null: writable); state changes are refused by one hook (read-only-guard.ts). */
  readOnly: ReadOnlyReason | null;
  /** The folder watcher's updates (server/live's typed emitter), or null when no folder is watched. */
  live: LiveFeed | null;
}

/** What a route hears of the folder watcher: its `update` event (server/live/watcher-events.ts declares them all). */
export interface LiveFeed {
  on(event: 'update', listener: (update: LiveUpdate) => void): unknown;
  off(event: 'update', listener: (update: LiveUpdate) => void): unknown;
}
