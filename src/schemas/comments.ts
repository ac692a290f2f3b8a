import { Type } from '@sinclair/typebox';
import { AuthorSource, Id, Timestamp } from './common.js';
import { LIMITS } from './limits.js';
import { ReactionCounts } from './reactions.js';
import { RequiredText } from './text.js';

export const Comment = Type.Object(
  {
    id: Type.String(),
    body: Type.String(),
    authorName: Type.String(),
    authorSource: Type.Union(AuthorSource.anyOf, {
      description: '`user` (written in the web UI), `api` or `agent`.',
    }),
    source: Type.Union(AuthorSource.anyOf, { description: 'The same value as `authorSource`.' }),
    createdAt: Timestamp,
    reactions: ReactionCounts,
  },
  {
    examples: [
      {
        id: 'cmt_Lm4Xc9QvBn',
        body: 'Reproduced on staging; fix in #42.',
        authorName: 'Claude',
        authorSource: 'agent',
        source: 'agent',
        createdAt: '2026-11-21T10:05:12.345Z',
        reactions: [{ content: '+1', count: 2 }],
      },
    ],
  },
);

export const CommentParams = Type.Object({
  boardId: Id('Board id'),
  taskId: Id('Task id'),
  commentId: Id('Comment id'),
});

export const CreateCommentBody = Type.Object(
  {
    body: RequiredText(LIMITS.commentBody, { description: 'Markdown, trimmed; 1..50 000 characters.' }),
    authorName: RequiredText(LIMITS.authorName, { description: 'Who wrote it, trimmed; 1..200 characters.' }),
    source: Type.Optional(
      Type.Union([Type.Literal('api'), Type.Literal('agent')], {
        description: 'Defaults to `api`; agents send `agent`.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ body: 'Reproduced on staging; fix in #42.', authorName: 'Claude', source: 'agent' }],
  },
);
