import { Type } from '@sinclair/typebox';
import { Id, StringEnum } from './common.js';

/** GitHub's eight reactions, in the order comment lists show their counts. */
export const REACTION_CONTENTS = [
  '+1',
  '-1',
  'laugh',
  'confused',
  'heart',
  'hooray',
  'rocket',
  'eyes',
] as const;

export type ReactionContent = (typeof REACTION_CONTENTS)[number];

export const ReactionContentSchema = StringEnum(REACTION_CONTENTS, {
  description: "One of GitHub's eight reactions.",
});

export const ReactionCounts = Type.Array(
  Type.Object({
    content: ReactionContentSchema,
    count: Type.Integer({ minimum: 1 }),
    mine: Type.Optional(
      Type.Boolean({
        description: "Web UI only (/api/ui): whether the signed-in person's reaction is counted.",
      }),
    ),
  }),
  {
    description:
      'Reaction counts in the order `+1`, `-1`, `laugh`, `confused`, `heart`, `hooray`, `rocket`, `eyes`; only contents with a count (`[]` when none).',
  },
);

export const Reaction = Type.Object(
  {
    commentId: Type.String(),
    content: ReactionContentSchema,
    count: Type.Integer({
      minimum: 1,
      description: "Reactions of this content on the comment, the caller's included.",
    }),
    createdAt: Type.String({ format: 'date-time', description: 'When the caller reacted.' }),
  },
  {
    examples: [
      { commentId: 'cmt_Lm4Xc9QvBn', content: 'rocket', count: 3, createdAt: '2026-11-21T10:05:12.345Z' },
    ],
  },
);

export const ReactionParams = Type.Object({
  boardId: Id('Board id'),
  taskId: Id('Task id'),
  commentId: Id('Comment id'),
  content: ReactionContentSchema,
});
