import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AgentService } from '../../domain/agents/agent-service.js';
import { Member } from '../../schemas/agents.js';
import { READ_ERRORS } from '../../schemas/errors.js';
import { actorOf } from '../plugins/authentication.js';

const MemberQuery = Type.Object({
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name (case-insensitive).' }),
  ),
});

const MemberList = Type.Object(
  { data: Type.Array(Member) },
  {
    examples: [
      {
        data: [
          { id: 'agt_Q8mV2nX4pL', type: 'agent', name: 'Claude' },
          { id: 'usr_K3pL9sT2wQ', type: 'person', name: 'Grace Hopper' },
        ],
      },
    ],
  },
);

const Caller = Type.Object({
  key: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  member: Type.Union([Member, Type.Null()], {
    description: 'The agent the key belongs to, else the person who made it; null for a key of nobody.',
  }),
});

const CallerAnswer = Type.Object(
  { data: Caller },
  {
    examples: [
      {
        data: {
          key: { id: 'key_7Hn2Qw9LmP', name: 'Claude on the build box' },
          member: { id: 'agt_Q8mV2nX4pL', type: 'agent', name: 'Claude' },
        },
      },
    ],
  },
);

/**
 * Who can be assigned (people and agents, by name) and who the caller is: an integration or agent names
 * an assignee without a person having to look its id up in the web UI.
 */
export const memberRoutes: FastifyPluginAsyncTypebox<{ agents: AgentService }> = async (app, { agents }) => {
  const tags = ['Members'];

  app.get(
    '/members',
    {
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'List members',
        description:
          'The active people and agents, by name: everyone a task can be assigned to. Any valid key may list them (names and ids only).',
        querystring: MemberQuery,
        response: { 200: MemberList, ...READ_ERRORS },
      },
    },
    async (request) => {
      const filter = request.query.name === undefined ? {} : { name: request.query.name };
      return { data: await agents.listMembers(actorOf(request), filter) };
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags,
        operationId: 'whoAmI',
        summary: 'The calling key and its member',
        description: 'The key and the member it acts as (what `assignee=me` and claiming stand for).',
        response: { 200: CallerAnswer, ...READ_ERRORS },
      },
    },
    async (request) => ({ data: agents.whoAmI(actorOf(request)) }),
  );
};
