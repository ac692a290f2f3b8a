import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SearchKind, SearchService } from '../../domain/search/search-service.js';
import { READ_ERRORS } from '../../schemas/errors.js';
import { SearchPage, SearchQuery } from '../../schemas/search.js';
import { actorOf } from '../plugins/authentication.js';

/** `GET /search`: the external API's, and (mounted with the person as actor) the web UI's. */
export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (app, { search }) => {
  app.get(
    '/search',
    {
      schema: {
        tags: ['Search'],
        operationId: 'search',
        summary: 'Search tasks, comments, todos and turns',
        description:
          'Full-text search over the boards the key can read, best match first. Every word must match (the last one also as a prefix); `"quoted phrases"` match in order; `-word` excludes. Title, description and tag matches are `kind: "task"`. Page with the returned `cursor` (same `q` and filters; at most the first 1 000 results). Needs `read`.',
        querystring: SearchQuery,
        response: { 200: SearchPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const { kind, ...query } = request.query;
      return search.search(actorOf(request), {
        ...query,
        ...(kind === undefined ? {} : { kinds: kind.split(',') as SearchKind[] }),
      });
    },
  );
};
