import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { LIMITS } from './limits.js';
import { TagColorEntry } from './tag-colors.js';
import { RequiredText } from './text.js';

export const Permission = Type.Union([Type.Literal('read'), Type.Literal('edit')]);

export const BoardSummary = Type.Object(
  { id: Type.String(), name: Type.String(), permission: Permission },
  { examples: [{ id: 'brd_4tq8Zk2mWf', name: 'Platform', permission: 'edit' }] },
);
export const Board = Type.Object(
  { id: Type.String(), name: Type.String(), createdAt: Timestamp },
  { examples: [{ id: 'brd_4tq8Zk2mWf', name: 'Platform', createdAt: '2026-11-21T10:00:00.000Z' }] },
);
export const BoardDetail = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    lanes: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), taskCount: Type.Integer() })),
    tagColors: Type.Array(TagColorEntry, {
      description:
        "The tag colours chosen in the board's web UI, by tag. A tag not listed shows a colour derived from its name.",
    }),
  },
  {
    examples: [
      {
        id: 'brd_4tq8Zk2mWf',
        name: 'Platform',
        lanes: [
          { id: 'lane_9xQe2LmT', name: 'Todo', taskCount: 3 },
          { id: 'lane_Vb7Rk1Pz', name: 'Done', taskCount: 12 },
        ],
        tagColors: [{ tag: 'bug', color: 'red' }],
      },
    ],
  },
);

export const CreateBoardBody = Type.Object(
  { name: RequiredText(LIMITS.boardName, { description: 'Trimmed; 1..200 characters.' }) },
  { additionalProperties: false, examples: [{ name: 'Platform' }] },
);
