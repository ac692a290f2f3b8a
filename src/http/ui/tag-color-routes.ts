import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { TagColorService } from '../../domain/boards/tag-color-service.js';
import { ChosenTagColor } from '../../schemas/board-view.js';
import { BoardParams, Data } from '../../schemas/common.js';
import { TagColorChoice } from '../../schemas/tag-colors.js';
import { actorOfUi } from './account-routes.js';

/*
 * Lengths are left to the domain (tag 1..50 after trimming, colour one of the palette), so a wrong value
 * gets the domain's message naming the field; the schema bounds only what is parsed.
 */
const TagColorBody = Type.Object(
  {
    tag: Type.String({ maxLength: 200 }),
    color: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
  },
  { additionalProperties: false },
);

/**
 * A board's tag colours (docs/ui-api.md, "Tag colours"): the list (also in the board view and the board
 * detail) and the choice of one tag's colour; `color: null` goes back to the tag's derived colour.
 */
export const tagColorRoutes: FastifyPluginAsyncTypebox<{ tagColors: TagColorService }> = async (
  app,
  { tagColors },
) => {
  app.get(
    '/boards/:boardId/tag-colors',
    { schema: { params: BoardParams, response: { 200: Data(Type.Array(ChosenTagColor)) } } },
    async (request) => ({
      data: await tagColors.list(actorOfUi(request), request.params.boardId),
    }),
  );

  app.put(
    '/boards/:boardId/tag-colors',
    { schema: { params: BoardParams, body: TagColorBody, response: { 200: Data(TagColorChoice) } } },
    async (request) => ({
      data: await tagColors.setColor(actorOfUi(request), request.params.boardId, request.body),
    }),
  );
};
