import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TaskService } from '../../domain/tasks/task-service.js';
import { AssigneeParams, TaskAssignees } from '../../schemas/agents.js';
import { Data, NoContent } from '../../schemas/common.js';
import { WRITE_ERRORS } from '../../schemas/errors.js';
import { actorOf } from '../plugins/authentication.js';

/** Assigning people and agents to tasks (registered by the task routes, so the web UI has them too). */
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
};
