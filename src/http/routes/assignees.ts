import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TaskService } from '../../domain/tasks/task-service.js';
import { AssigneeParams, ClaimNextBody, TaskAssignees } from '../../schemas/agents.js';
import { BoardParams, Data, NoContent, TaskParams } from '../../schemas/common.js';
import { WRITE_ERRORS } from '../../schemas/errors.js';
import { Task } from '../../schemas/tasks.js';
import { actorOf } from '../plugins/authentication.js';

/**
 * Assigning people and agents to tasks, and claiming (registered by the task routes, so the web UI has
 * them too, with the signed-in person as the claimer).
 */
export const assigneeRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService }> = async (app, { tasks }) => {
  const tags = ['Tasks'];

  app.put(
    '/boards/:boardId/tasks/:taskId/assignees/:memberId',
    {
      schema: {
        tags,
        operationId: 'assignTask',
        summary: 'Assign a person or agent',
        description:
          'Assigns the member (`usr_...` or `agt_...`) to the task: 201 when newly assigned, 200 when it already was (idempotent; nothing fires). An unknown or deactivated member, or an 11th assignee → 400. Needs `edit`. Fires `task.assigned`.',
        params: AssigneeParams,
        response: { 200: Data(TaskAssignees), 201: Data(TaskAssignees), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, memberId } = request.params;
      const { created, ...view } = await tasks.assignees.assign(actorOf(request), boardId, taskId, memberId);
      return reply.status(created ? 201 : 200).send({ data: view });
    },
  );

  app.delete(
    '/boards/:boardId/tasks/:taskId/assignees/:memberId',
    {
      schema: {
        tags,
        operationId: 'unassignTask',
        summary: 'Unassign a person or agent',
        description:
          'Removes the member from the task (404 when not assigned). Needs `edit`. Fires `task.unassigned`.',
        params: AssigneeParams,
        response: { 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { boardId, taskId, memberId } = request.params;
      await tasks.assignees.unassign(actorOf(request), boardId, taskId, memberId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/boards/:boardId/tasks/:taskId/claim',
    {
      schema: {
        tags,
        operationId: 'claimTask',
        summary: 'Claim a task',
        description:
          "Assigns the caller — the key's agent, else the key's person — when the task has no assignee, and returns the task (200; also when the caller already holds it). When someone else holds it: 409 `conflict` naming them. A key that belongs to nobody cannot claim (400). Needs `edit`. Fires `task.assigned`.",
        params: TaskParams,
        response: { 200: Data(Task), ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const { boardId, taskId } = request.params;
      return { data: await tasks.claims.claim(actorOf(request), boardId, taskId) };
    },
  );

  app.post(
    '/boards/:boardId/claim-next',
    {
      schema: {
        tags,
        operationId: 'claimNextTask',
        summary: 'Claim the next task of a lane',
        description:
          'Takes the first unassigned, non-archived task of `laneId` by position, assigns the caller and, with `moveToLaneId`, appends it to that lane, in one transaction: 200 with the task, or 204 when none is left. However many callers race, no task is handed to two. A key that belongs to nobody cannot claim (400). Needs `edit`. Fires `task.assigned` (and `task.moved`).',
        params: BoardParams,
        body: ClaimNextBody,
        response: { 200: Data(Task), 204: NoContent, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const task = await tasks.claims.claimNext(actorOf(request), request.params.boardId, request.body);
      return task === null ? reply.status(204).send(null) : { data: task };
    },
  );
};
