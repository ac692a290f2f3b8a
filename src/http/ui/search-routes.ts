import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SearchService } from '../../domain/search/search-service.js';
import { searchRoutes } from '../routes/search.js';

/**
 * `GET /api/ui/search`: the external API's search route with the signed-in person as actor (every
 * board), so the web UI and integrations share one query path and one answer shape.
 */
export const uiSearchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (
  app,
  { search },
) => {
  await app.register(searchRoutes, { search });
};
