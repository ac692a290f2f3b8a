import { expect, it } from 'vitest';
import { type Actor, CLI_OPERATOR } from '../../src/domain/actor.js';
import { describeEachDialect } from '../support/dialects.js';
import { waitUntil } from '../support/wait.js';
import { API, sample, TOKEN, useMetricsApp } from './metrics-fixture.js';

const PERSON: Actor = { kind: 'user', origin: 'ui', userId: 'usr_ada', name: 'Ada', role: 'member' };
const PASSWORD = 'correct horse battery';

describeEachDialect('GET /metrics: live board streams', (dialect) => {
  const t = useMetricsApp(dialect, { token: TOKEN });
  const openStreams = async () => sample(await t.metrics(), 'laneboard_live_streams_open') as number;

  it('counts the streams open in this process', async () => {
    const board = (await t.api('POST', `${API}/boards`, { name: 'Watched' })).json().data.id as string;
    const base = await openStreams();
    const streams = [
      await t.runtime.services.boardEvents.open(PERSON, board, null, () => {}),
      await t.runtime.services.boardEvents.open(PERSON, board, null, () => {}),
    ];
    expect(await openStreams()).toBe(base + 2);
    for (const stream of streams) stream.close();
    expect(await openStreams()).toBe(base);
  });

  it('counts a stream over HTTP while it is open, and leaves it out of the request durations', async () => {
    const board = (await t.api('POST', `${API}/boards`, { name: 'Deleted while watched' })).json().data
      .id as string;
    const email = `ada-${dialect}@example.com`;
    await t.runtime.services.people.createPerson(CLI_OPERATOR, {
      email,
      name: 'Ada',
      password: PASSWORD,
      role: 'owner',
    });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/ui/session',
      headers: { origin: 'http://localhost:80' },
      payload: { email, password: PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const session = signIn.cookies.find((cookie) => cookie.name === 'lb_session')?.value as string;
    const base = await openStreams();

    const stream = t.app.inject({
      method: 'GET',
      url: `/api/ui/boards/${board}/events`,
      headers: { cookie: `lb_session=${session}` },
    });
    await waitUntil('the stream to open', async () =>
      (await openStreams()) === base + 1 ? true : undefined,
    );
    // The board's deletion ends its streams.
    expect((await t.api('DELETE', `${API}/boards/${board}`)).statusCode).toBe(204);
    const res = await stream;
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.body).toContain('event: board.deleted');

    const text = await t.metrics();
    expect(sample(text, 'laneboard_live_streams_open')).toBe(base);
    expect(text).toContain('route="/api/ui/session"');
    expect(text).not.toContain('/api/ui/boards/:boardId/events');
  });
});
