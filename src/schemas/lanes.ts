import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from './common.js';
import { LIMITS } from './limits.js';
import { RequiredText } from './text.js';

export const Lane = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    position: Type.Integer({ description: 'Runs 0..n-1 in board order.' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    examples: [
      {
        id: 'lane_9xQe2LmT',
        name: 'In progress',
        position: 1,
        createdAt: '2026-11-21T10:00:00.000Z',
        updatedAt: '2026-11-21T10:05:12.345Z',
      },
    ],
  },
);
export const LaneParams = Type.Object({ boardId: Id('Board id'), laneId: Id('Lane id') });

const LaneName = RequiredText(LIMITS.laneName, { description: 'Trimmed; 1..200 characters.' });

export const CreateLaneBody = Type.Object(
  { name: LaneName },
  { additionalProperties: false, examples: [{ name: 'In progress' }] },
);
export const UpdateLaneBody = Type.Object(
  {
    name: Type.Optional(LaneName),
    position: Type.Optional(Type.Integer({ minimum: 0, description: 'Past the end means last.' })),
  },
  { additionalProperties: false, examples: [{ name: 'Review', position: 2 }] },
);
