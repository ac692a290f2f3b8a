import { type TSchema, Type } from '@sinclair/typebox';

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable, snake_case error code.' }),
      message: Type.String({ description: 'What went wrong, for people.' }),
    }),
  },
  { $id: 'ErrorResponse', description: 'Every error has this shape.' },
);

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' });

export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

export const BoardParams = Type.Object({ boardId: Id('Board id') });

/** `{data: schema}`, the success envelope of every body-carrying response. */
export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema });

export const NoContent = Type.Null({ description: 'No body.' });

/** The error responses a route behind authentication can give; routes add their own statuses. */
export const AUTH_ERRORS = {
  400: Type.Ref('ErrorResponse'),
  401: Type.Ref('ErrorResponse'),
  403: Type.Ref('ErrorResponse'),
  404: Type.Ref('ErrorResponse'),
  429: Type.Ref('ErrorResponse'),
} as const;
