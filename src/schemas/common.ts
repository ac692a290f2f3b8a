import { type TSchema, Type } from '@sinclair/typebox';

/**
 * Schemas shared by every feature: the error shape, timestamps, ids and envelopes. This module (all of
 * `src/schemas/`) imports no framework and nothing else of the project, so the HTTP routes, the OpenAPI
 * document, the MCP tools and the web UI's API can all use the same objects.
 */

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' });

export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const BoardParams = Type.Object({ boardId: Id('Board id') });
export const TaskParams = Type.Object({ boardId: Id('Board id'), taskId: Id('Task id') });

/** `{data: schema}`, the success envelope of every body-carrying response. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

export const NoContent = Type.Null({ description: 'No body.' });

/** Who wrote a comment or todo: `user` (web UI), `api` or `agent`. */
export const AuthorSource = Type.Union([Type.Literal('user'), Type.Literal('api'), Type.Literal('agent')]);

/** A string enum as a plain JSON Schema `enum` (what generators turn into a union type). */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
