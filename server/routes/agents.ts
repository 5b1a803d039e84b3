import { AgentsQuery, AgentsResponse } from '../../shared/api-schemas';
import type { App, RouteContext } from '../http/types';
import { getAgents } from '../query/get-agents';
import { folderIds } from './parse-filters';

/** GET /api/agents: per agent the folders hold, its files, versions, model messages, tool calls and findings (issue 34). */
export function agentRoutes(app: App, ctx: RouteContext): void {
  app.get('/api/agents', { schema: { querystring: AgentsQuery, response: { 200: AgentsResponse } }, config: { cache: true } }, async (request) =>
    getAgents(ctx.db, folderIds(request.query.folder)),
  );
}
