import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/dialects.js';

describe('the activity stream in the OpenAPI document', () => {
  const t = useTestApp('sqlite');

  it('documents both forms, the query, the event shape and 410 cursor_expired', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/ext/v1/openapi.json' })).json();
    const events = doc.paths['/api/ext/v1/events'];
    expect(Object.keys(events)).toEqual(['get']);
    const operation = events.get;
    expect(operation).toMatchObject({ operationId: 'streamEvents', tags: ['Activity stream'] });
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'after',
      'boardId',
      'limit',
      'wait',
    ]);
    const wait = operation.parameters.find((p: { name: string }) => p.name === 'wait');
    expect(wait.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 30 });
    const ok = operation.responses['200'].content;
    expect(Object.keys(ok).sort()).toEqual(['application/json', 'text/event-stream']);
    const page = ok['application/json'].schema;
    expect(Object.keys(page.properties).sort()).toEqual(['cursor', 'data']);
    const event = page.properties.data.items;
    expect(Object.keys(event.properties).sort()).toEqual(
      ['actor', 'cursor', 'data', 'id', 'origin', 'timestamp', 'type'].sort(),
    );
    expect(event.properties.type.enum).toEqual(
      expect.arrayContaining(['task.created', 'task.assigned', 'asset.created']),
    );
    expect(event.properties.type.enum).not.toContain('ping');
    expect(JSON.stringify(event.properties.actor)).toContain('person');
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '410', '429']),
    );
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain('Activity stream');
  });
});
