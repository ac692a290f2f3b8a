import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';

/** Text limits of an agent (after trimming): the contract's name limit, and a short description. */
export const AGENT_LIMITS = { name: 200, description: 2_000 } as const;

export const Agent = Type.Object({
  id: Type.String({ description: '`agt_...`' }),
  name: Type.String(),
  description: Type.String(),
  active: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** The web UI's answer to deactivating an agent: the agent, and how many of its keys were revoked. */
export const DeactivatedAgent = Type.Object({ ...Agent.properties, keysRevoked: Type.Integer() });

export const CreateAgentBody = Type.Object(
  {
    name: Type.String({ description: 'Trimmed; 1..200 characters.' }),
    description: Type.Optional(Type.String({ description: 'Trimmed; at most 2 000 characters.' })),
  },
  { additionalProperties: false },
);

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Trimmed; 1..200 characters.' })),
    description: Type.Optional(Type.String({ description: 'Trimmed; at most 2 000 characters.' })),
  },
  { additionalProperties: false },
);

/** A member of the workspace as tasks show it: a person or an agent. */
export const Member = Type.Object({
  id: Type.String({ description: '`usr_...` for a person, `agt_...` for an agent.' }),
  type: Type.Union([Type.Literal('person'), Type.Literal('agent')]),
  name: Type.String(),
});

export const AssigneeParams = Type.Object({
  boardId: Type.String({ minLength: 1, maxLength: 100, description: 'Board id' }),
  taskId: Type.String({ minLength: 1, maxLength: 100, description: 'Task id' }),
  memberId: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The person (`usr_...`) or agent (`agt_...`) to assign.',
  }),
});

/** A task's assignees after a change. */
export const TaskAssignees = Type.Object(
  {
    id: Type.String({ description: 'The task.' }),
    assignees: Type.Array(Member, { maxItems: 10 }),
  },
  {
    examples: [
      {
        id: 'task_Hq3Zr8TbVw',
        assignees: [{ id: 'agt_0mf3k2x9aQ7Lw', type: 'agent', name: 'Claude runner' }],
      },
    ],
  },
);

export const ClaimNextBody = Type.Object(
  {
    laneId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The lane to take the next task from.',
    }),
    moveToLaneId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'A lane of this board to append the claimed task to, in the same transaction.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ laneId: 'lane_9xQe2LmT', moveToLaneId: 'lane_Vb7Rk1Pz' }] },
);
