import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Db } from '../store/database';
import type { ScanRunner } from '../store/scan-runner';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What every route plugin gets: the database to ask and the one scan runner. */
export interface RouteContext {
  db: Db;
  scans: ScanRunner;
  demo: boolean;
  toolVersion: string;
}
