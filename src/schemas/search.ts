import { Type } from '@sinclair/typebox';
import { Id, Nullable, StringEnum } from './common.js';

export const SEARCH_RESULT_KINDS = ['task', 'comment', 'todo', 'turn'] as const;
export const MAX_SEARCH_QUERY = 200;
export const DEFAULT_SEARCH_PAGE = 20;
export const MAX_SEARCH_PAGE = 50;

export const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: MAX_SEARCH_QUERY,
    description:
      'Words that must all match (the last one also as a prefix), `"quoted phrases"`, `-excluded` words.',
    examples: ['deploy "staging server" -flaky'],
  }),
  boardId: Type.Optional(Id('Only this board (one the key can read; else 403)')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_PAGE, default: DEFAULT_SEARCH_PAGE })),
  cursor: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'The `cursor` of the previous page, sent with the same `q` and filters.',
    }),
  ),
  kind: Type.Optional(
    Type.String({
      pattern: '^(task|comment|todo|turn)(,(task|comment|todo|turn))*$',
      description: 'Only these kinds, comma-separated (e.g. `task,comment`).',
    }),
  ),
  assignee: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only texts of tasks assigned to this member (`usr_...`, `agt_...`) or `me`.',
    }),
  ),
  includeArchived: Type.Optional(
    Type.Boolean({ description: '`true` also searches archived tasks and their texts.' }),
  ),
});

export const SearchResult = Type.Object({
  kind: StringEnum(SEARCH_RESULT_KINDS, {
    description: 'What matched: `task` (title, description or a tag), `comment`, `todo` or `turn`.',
  }),
  boardId: Type.String(),
  taskId: Type.String(),
  shortId: Type.String(),
  title: Type.String({ description: "The task's title." }),
  itemId: Nullable(
    Type.String({
      description:
        'The id of the comment, todo or turn that matched (`cmt_...`, `todo_...`, `turn_...`); null for `task`.',
    }),
  ),
  snippet: Type.String({
    description:
      'Plain text around the match (not HTML); each matched word between `[[` and `]]`, which occur only as marks.',
  }),
});

export const SearchPage = Type.Object(
  {
    data: Type.Array(SearchResult),
    cursor: Nullable(Type.String({ description: 'Opaque; null when no more results.' })),
  },
  {
    examples: [
      {
        data: [
          {
            kind: 'comment',
            boardId: 'brd_01JD2M6T9N4Q8W3E5R7Y1U0I2O',
            taskId: 'task_01JD2M7B3C5D7F9G1H3J5K7L9M',
            shortId: 'k7f2q',
            title: 'Fix login form',
            itemId: 'cmt_01JD2M8C4D6E8G0H2J4K6L8N0P',
            snippet: 'Reproduced on [[staging]]; the [[deploy]] button misbehaves when the session expires…',
          },
        ],
        cursor: 'eyJ2IjoxLCJxIjoiNGZzUTdYdDBqUXBNd1JmTV9ZZ0ZCZyIsIm8iOjIwfQ',
      },
    ],
  },
);
