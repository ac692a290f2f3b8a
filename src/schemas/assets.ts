import { Type } from '@sinclair/typebox';
import { AuthorSource, Id, Timestamp } from './common.js';

export const Asset = Type.Object(
  {
    id: Type.String({ description: 'Asset id (`ast_...`).' }),
    taskId: Type.String(),
    filename: Type.String({ description: "The uploaded part's file name." }),
    contentType: Type.String({
      description: "The uploaded part's media type (without parameters), or `application/octet-stream`.",
    }),
    size: Type.Integer({ minimum: 0, description: 'Bytes.' }),
    sha256: Type.String({ description: "SHA-256 of the bytes, lowercase hex; the download's ETag." }),
    source: Type.Union(AuthorSource.anyOf, {
      description: '`api` or `agent` as sent (default `api`); `user` for uploads in the web UI.',
    }),
    createdAt: Timestamp,
  },
  {
    examples: [
      {
        id: 'ast_Ew2Rt6YuIo',
        taskId: 'task_Hq3Zr8TbVw',
        filename: 'trace.log',
        contentType: 'text/plain',
        size: 18432,
        sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
        source: 'api',
        createdAt: '2026-11-21T10:05:12.345Z',
      },
    ],
  },
);

export const TaskAssetsParams = Type.Object({ boardId: Id('Board id'), taskId: Id('Task id') });

export const AssetParams = Type.Object({
  boardId: Id('Board id'),
  taskId: Id('Task id'),
  assetId: Id('Asset id'),
});

/** Documents the multipart upload; the route reads the parts itself, streaming (no body validation). */
export const AssetUploadBody = {
  description:
    'One part named `file` (its filename and content type are kept; an empty file is allowed) and an optional text field `source` (`api` or `agent`).',
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        examples: [{ file: '(the bytes of trace.log)', source: 'agent' }],
        properties: {
          file: { type: 'string', format: 'binary' },
          source: { type: 'string', enum: ['api', 'agent'], default: 'api' },
        },
      },
    },
  },
} as const;
