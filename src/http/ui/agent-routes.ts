import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AgentService } from '../../domain/agents/agent-service.js';
import type { KeyConsole } from '../../domain/people/key-console.js';
import { Agent, CreateAgentBody, DeactivatedAgent, Member, UpdateAgentBody } from '../../schemas/agents.js';
import { Data } from '../../schemas/common.js';
import { ApiKey, CreatedApiKey } from '../../schemas/settings.js';
import { actorOfUi } from './account-routes.js';

const IdParams = Type.Object({ id: Type.String() });
const KeyBody = Type.Object(
  {
    name: Type.String(),
    allBoards: Type.Boolean(),
    grants: Type.Array(
      Type.Object(
        {
          boardId: Type.String(),
          permission: Type.Union([Type.Literal('read'), Type.Literal('edit')]),
        },
        { additionalProperties: false },
      ),
      { maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);

/**
 * Settings › Agents (owners and admins; the rules are AgentService's): the agents, and each agent's
 * keys. Revealing and revoking a key are Settings › API Keys' routes (`/keys/:id/...`), for any key.
 */
export const agentRoutes: FastifyPluginAsyncTypebox<{
  agents: AgentService;
  keyConsole: KeyConsole;
}> = async (app, { agents, keyConsole }) => {
  // The member picker (every person): active people and agents, by name.
  app.get('/members', { schema: { response: { 200: Data(Type.Array(Member)) } } }, async (request) => ({
    data: await agents.listMembers(actorOfUi(request)),
  }));

  const agentAnswer = { 200: Data(Agent) };
  app.get('/agents', { schema: { response: { 200: Data(Type.Array(Agent)) } } }, async (request) => ({
    data: await agents.listAgents(actorOfUi(request)),
  }));

  app.post(
    '/agents',
    { schema: { body: CreateAgentBody, response: { 201: Data(Agent) } } },
    async (request, reply) =>
      reply.status(201).send({ data: await agents.createAgent(actorOfUi(request), request.body) }),
  );

  app.get('/agents/:id', { schema: { params: IdParams, response: agentAnswer } }, async (request) => ({
    data: await agents.getAgent(actorOfUi(request), request.params.id),
  }));

  app.patch(
    '/agents/:id',
    { schema: { params: IdParams, body: UpdateAgentBody, response: agentAnswer } },
    async (request) => ({
      data: await agents.updateAgent(actorOfUi(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/agents/:id/deactivate',
    { schema: { params: IdParams, response: { 200: Data(DeactivatedAgent) } } },
    async (request) => ({
      data: await agents.deactivateAgent(actorOfUi(request), request.params.id),
    }),
  );

  app.get(
    '/agents/:id/keys',
    { schema: { params: IdParams, response: { 200: Data(Type.Array(ApiKey)) } } },
    async (request) => ({ data: await keyConsole.listForAgent(actorOfUi(request), request.params.id) }),
  );

  app.post(
    '/agents/:id/keys',
    { schema: { params: IdParams, body: KeyBody, response: { 201: Data(CreatedApiKey) } } },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await keyConsole.createForAgent(actorOfUi(request), request.params.id, request.body) }),
  );
};
