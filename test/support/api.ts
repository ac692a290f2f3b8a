import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** The external API's prefix. */
export const API = '/api/ext/v1';

/**
 * Asserts an error answer: its status and `error.code` (and that the message mentions `mentions`, when
 * given); returns the message.
 */
export function expectError(
  res: Pick<LightMyRequestResponse, 'statusCode' | 'body' | 'json'>,
  status: number,
  code: string,
  mentions?: string,
): string {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { error?: { code?: string; message?: string } };
  expect(body.error?.code, res.body).toBe(code);
  const message = body.error?.message ?? '';
  if (mentions !== undefined) expect(message).toContain(mentions);
  return message;
}
