import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { LIMITS } from './limits.js';
import { RequiredText } from './text.js';

export const TURN_SOURCES = ['copilot', 'claude'] as const;
export const TURN_ROLES = ['user', 'assistant'] as const;
export const MAX_TURNS_PER_BATCH = 100;
export const DEFAULT_TURN_PAGE = 50;
export const MAX_TURN_PAGE = 200;

export const TurnSource = Type.Union(
  TURN_SOURCES.map((s) => Type.Literal(s)),
  { description: 'The capturing agent.' },
);
export const TurnRole = Type.Union(TURN_ROLES.map((r) => Type.Literal(r)));

const Watermark = Type.Object({ sourceId: Type.String(), capturedAt: Timestamp });
export const Watermarks = Type.Object(
  { copilot: Type.Optional(Watermark), claude: Type.Optional(Watermark) },
  {
    examples: [
      {
        claude: { sourceId: '3f6c1a2e-8d4b-4c1e-9a57-2b8e0d6f4a91', capturedAt: '2026-11-21T10:05:12.345Z' },
      },
    ],
    description:
      'Per source, the last captured turn: the greatest (capturedAt, sourceId). Sources without turns are absent.',
  },
);

export const Turn = Type.Object(
  {
    id: Type.String(),
    source: TurnSource,
    sourceId: Type.String(),
    role: TurnRole,
    content: Type.String(),
    toolUseOnly: Type.Boolean(),
    capturedAt: Timestamp,
  },
  {
    examples: [
      {
        id: 'turn_Zx1Cv4BnMa',
        source: 'claude',
        sourceId: '3f6c1a2e-8d4b-4c1e-9a57-2b8e0d6f4a91',
        role: 'assistant',
        content: 'The retry schedule is in src/webhooks/retry.ts.',
        toolUseOnly: false,
        capturedAt: '2026-11-21T10:05:12.345Z',
      },
    ],
  },
);

export const TurnInput = Type.Object(
  {
    source: TurnSource,
    sourceId: RequiredText(LIMITS.turnSourceId, {
      description: 'Identifier of the turn within its source, trimmed; 1..200 characters.',
    }),
    role: TurnRole,
    content: Type.String({
      maxLength: LIMITS.turnContent,
      description: 'Stored as sent; at most 1 MiB of UTF-8 (the schema can only bound characters).',
    }),
    capturedAt: Type.String({
      format: 'date-time',
      description: 'Stored as ISO 8601 UTC with milliseconds.',
    }),
    toolUseOnly: Type.Optional(Type.Boolean({ default: false })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        source: 'claude',
        sourceId: '3f6c1a2e-8d4b-4c1e-9a57-2b8e0d6f4a91',
        role: 'user',
        content: 'Where is the retry schedule?',
        capturedAt: '2026-11-21T10:00:00.000Z',
      },
    ],
  },
);

export const RecordTurnsBody = Type.Object(
  { turns: Type.Array(TurnInput, { minItems: 1, maxItems: MAX_TURNS_PER_BATCH }) },
  { additionalProperties: false },
);

export const RecordTurnsResponse = Type.Object({
  data: Type.Object({ inserted: Type.Integer({ description: 'Turns actually stored.' }) }),
  watermarks: Watermarks,
});

export const TurnListQuery = Type.Object({
  source: Type.Optional(TurnSource),
  after: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only turns captured strictly later.' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TURN_PAGE, default: DEFAULT_TURN_PAGE })),
  order: Type.Optional(
    Type.Union([Type.Literal('oldest'), Type.Literal('newest')], {
      default: 'oldest',
      description: '`newest` pages from the latest turn backwards (`after` still bounds it).',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'The `cursor` of the previous page, sent with the same filters.',
    }),
  ),
});

export const TurnPage = Type.Object({
  data: Type.Array(Turn),
  watermarks: Watermarks,
  cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Opaque; null when no more turns match.',
  }),
});

export const WatermarkResponse = Type.Object({ watermarks: Watermarks });
