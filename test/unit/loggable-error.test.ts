import { describe, expect, it } from 'vitest';
import { loggableError } from '../../src/lib/loggable-error.js';

describe('loggableError', () => {
  it('keeps type, code and message but drops the stack and driver fields that may hold SQL or values', () => {
    const error = Object.assign(
      new Error('duplicate key value violates unique constraint "tasks_short_id_key"'),
      {
        code: '23505',
        query: 'insert into "tasks" ("id", "title") values ($1, $2)',
        parameters: ['task_1', 'secret title'],
        detail: 'Key (short_id)=(abc) already exists.',
      },
    );
    const logged = loggableError(error);
    expect(logged).toEqual({
      type: 'Error',
      code: '23505',
      message: 'duplicate key value violates unique constraint "tasks_short_id_key"',
    });
    const text = JSON.stringify(logged);
    expect(text).not.toContain('insert into');
    expect(text).not.toContain('at ');
    expect(text).not.toContain('secret title');
  });

  it('masks API keys and webhook secrets quoted in a message, and bounds its length', () => {
    const logged = loggableError(new Error(`bad key ak_abcDEF123 and whsec_c2VjcmV0 ${'x'.repeat(1000)}`));
    expect(logged.message).toContain('ak_[redacted]');
    expect(logged.message).toContain('whsec_[redacted]');
    expect(logged.message).not.toContain('abcDEF123');
    expect(logged.message.length).toBeLessThanOrEqual(301);
  });

  it('describes thrown non-errors', () => {
    expect(loggableError('boom')).toEqual({ type: 'string', message: 'boom' });
  });
});
