import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PeopleService } from '../../domain/people/people-service.js';
import { toUser } from '../../domain/people/people-views.js';
import type { SessionService, SignedIn } from '../../domain/people/session-service.js';
import { Data, NoContent } from '../../schemas/common.js';
import { InviteLookup, SetupState, UserAnswer } from '../../schemas/people.js';
import { clearSessionCookie, personOf, setSessionCookie } from './ui-session.js';

const NewPersonBody = Type.Object(
  { email: Type.String(), name: Type.String(), password: Type.String() },
  { additionalProperties: false },
);
const SignInBody = Type.Object(
  { email: Type.String(), password: Type.String() },
  { additionalProperties: false },
);
const TokenParams = Type.Object({ token: Type.String() });
const SIGNED_IN = { 200: UserAnswer, 201: UserAnswer };
const NO_CONTENT = { 204: NoContent };

/** Setup, sign-in and sign-out, invite links, and the signed-in person's own profile. */
export const accountRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionService;
  people: PeopleService;
}> = async (app, { sessions, people }) => {
  const signedIn = (request: FastifyRequest, reply: FastifyReply, result: SignedIn, status: number) => {
    setSessionCookie(request, reply, result.sessionId, sessions.sessionTtlMs);
    return reply.status(status).send({ data: result.user });
  };

  app.get(
    '/setup',
    { config: { public: true }, schema: { response: { 200: Data(SetupState) } } },
    async () => ({
      data: { needed: await sessions.setupNeeded() },
    }),
  );

  app.post(
    '/setup',
    { config: { public: true }, schema: { body: NewPersonBody, response: SIGNED_IN } },
    async (request, reply) => signedIn(request, reply, await sessions.setup(request.body), 201),
  );

  app.post(
    '/session',
    { config: { public: true }, schema: { body: SignInBody, response: SIGNED_IN } },
    async (request, reply) => {
      const { email, password } = request.body;
      return signedIn(request, reply, await sessions.signIn(email, password, request.ip), 200);
    },
  );

  app.get('/session', { schema: { response: { 200: UserAnswer } } }, async (request) => ({
    data: toUser(personOf(request)),
  }));

  app.delete(
    '/session',
    { config: { public: true }, schema: { response: NO_CONTENT } },
    async (request, reply) => {
      if (request.uiSessionId) await sessions.signOut(request.uiSessionId);
      clearSessionCookie(request, reply);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/invites/:token',
    { config: { public: true }, schema: { params: TokenParams, response: { 200: Data(InviteLookup) } } },
    async (request) => ({
      data: await people.lookupInvite(request.params.token),
    }),
  );

  app.post(
    '/invites/:token/accept',
    { config: { public: true }, schema: { params: TokenParams, body: NewPersonBody, response: SIGNED_IN } },
    async (request, reply) =>
      signedIn(request, reply, await people.acceptInvite(request.params.token, request.body), 201),
  );

  app.get('/me', { schema: { response: { 200: UserAnswer } } }, async (request) => ({
    data: toUser(personOf(request)),
  }));

  app.patch(
    '/me',
    {
      schema: {
        body: Type.Object({ name: Type.String() }, { additionalProperties: false }),
        response: { 200: UserAnswer },
      },
    },
    async (request) => ({ data: await people.changeOwnName(actorOfUi(request), request.body.name) }),
  );

  app.post(
    '/me/password',
    {
      schema: {
        body: Type.Object(
          { currentPassword: Type.String(), newPassword: Type.String() },
          { additionalProperties: false },
        ),
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const { currentPassword, newPassword } = request.body;
      const result = await people.changeOwnPassword(actorOfUi(request), currentPassword, newPassword);
      setSessionCookie(request, reply, result.sessionId, sessions.sessionTtlMs);
      return reply.status(204).send(null);
    },
  );
};

export function actorOfUi(request: FastifyRequest) {
  personOf(request);
  if (!request.actor) throw new Error('signed-in request without an actor');
  return request.actor;
}
