import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { insertActivity } from '../../src/db/repositories/activities.js';
import { settleRecentActivities } from '../../src/db/repositories/recent-activities.js';
import { inTransaction } from '../../src/db/transaction.js';
import type { Actor } from '../../src/domain/actor.js';
import type { BoardStream, LiveEvent } from '../../src/live/board-events.js';
import { CHANGE_CHANNEL } from '../../src/live/change-feed.js';
import type { Runtime } from '../../src/runtime.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import { testRuntime } from '../support/runtime.js';
import { waitUntil } from '../support/wait.js';

const API = '/api/ext/v1';
const PERSON: Actor = { kind: 'user', origin: 'ui', userId: 'usr_ada', name: 'Ada', role: 'member' };

/** A stream's receiving end, as a browser tab would hold it. */
class Tab {
  readonly events: LiveEvent[] = [];
  stream: BoardStream | null = null;
  receive = (event: LiveEvent) => {
    this.events.push(event);
  };
  ids(): number[] {
    return this.events.filter((e) => e.type !== 'reset').map((e) => e.id);
  }
  async next(what: string, match: (event: LiveEvent) => boolean, timeoutMs = 20_000): Promise<LiveEvent> {
    return waitUntil(what, async () => this.events.find(match), timeoutMs, 10);
  }
}

describeEachDialect('live board stream', (dialect) => {
  const t = useTestApp(dialect);
  let key: string;
  const tabs: Tab[] = [];

  beforeAll(async () => {
    key = (await t.createKey('all', 'Build bot')).key;
  });
  afterAll(() => {
    for (const tab of tabs) tab.stream?.close();
  });

  const call = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.request(key, method, `${API}${url}`, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : (res.json().data as { id: string });
  };

  async function board() {
    const created = await call('POST', '/boards', { name: 'Live' });
    const boardId = created?.id as string;
    const lane = await call('POST', `/boards/${boardId}/lanes`, { name: 'Todo' });
    return { boardId, laneId: lane?.id as string };
  }

  async function openTab(boardId: string, after: number | null, runtime: Runtime = t.runtime): Promise<Tab> {
    const tab = new Tab();
    tabs.push(tab);
    tab.stream = await runtime.services.boardEvents.open(PERSON, boardId, after, tab.receive);
    return tab;
  }

  it('delivers a change made through the external API as it commits, with the card', async () => {
    const { boardId, laneId } = await board();
    const view = await t.services.boardView.getView(PERSON, boardId);
    const tab = await openTab(boardId, view.activityId);
    // PostgreSQL re-sends the commit window before the position (ids commit out of order there).
    expect(tab.events.filter((e) => e.id > view.activityId)).toEqual([]);
    const task = await call('POST', `/boards/${boardId}/tasks`, { title: 'Ship', laneId });
    const event = await tab.next('task.created', (e) => e.type === 'task.created');
    expect(event.data).toMatchObject({
      type: 'task.created',
      taskId: task?.id,
      actor: { kind: 'api_key', name: 'Build bot' },
      origin: 'api',
      card: { id: task?.id, title: 'Ship', laneId, position: 0, todos: { done: 0, total: 0 } },
    });
    await call('POST', `/boards/${boardId}/tasks/${task?.id}/comments`, { body: 'hi', authorName: 'CI' });
    const comment = await tab.next('comment.created', (e) => e.type === 'comment.created');
    expect(comment.data).toMatchObject({ card: { commentCount: 1 } });
    await call('PATCH', `/boards/${boardId}/lanes/${laneId}`, { name: 'Doing' });
    const lane = await tab.next('lane.updated', (e) => e.type === 'lane.updated');
    expect(lane.data).toMatchObject({ lanes: [{ id: laneId, name: 'Doing', position: 0 }] });
    // In id order, each once.
    const ids = tab.ids();
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
  });

  it('a reconnect with the last id received loses nothing', async () => {
    const { boardId, laneId } = await board();
    const first = await openTab(boardId, (await t.services.boardView.getView(PERSON, boardId)).activityId);
    const task = await call('POST', `/boards/${boardId}/tasks`, { title: 'A', laneId });
    await first.next('the first change', (e) => e.type === 'task.created');
    first.stream?.close();
    const lastSeen = first.ids().at(-1) as number;
    // Changes while no tab is connected.
    await call('PATCH', `/boards/${boardId}/tasks/${task?.id}`, { priority: 3 });
    await call('POST', `/boards/${boardId}/tasks`, { title: 'B', laneId });
    const missed = (await t.services.activities.listForBoard(PERSON, boardId, { after: lastSeen })).data;
    expect(missed).toHaveLength(2);
    const again = await openTab(boardId, lastSeen);
    expect(again.ids().filter((id) => id > lastSeen)).toEqual(missed.map((a) => a.id).reverse());
    const updated = again.events.find((e) => e.type === 'task.updated');
    expect(updated?.data).toMatchObject({ card: { priority: 3 } });
  });

  it('sends reset for a position it cannot resume from', async () => {
    const { boardId } = await board();
    const other = await board();
    const latest = (await t.services.boardView.getView(PERSON, boardId)).activityId;
    const otherId = (await t.services.boardView.getView(PERSON, other.boardId)).activityId;
    for (const after of [latest + 1000, otherId]) {
      const tab = await openTab(boardId, after);
      expect(tab.events).toEqual([{ id: latest, type: 'reset', data: { activityId: latest } }]);
      tab.stream?.close();
    }
    // A board's whole history from its creation is a valid position (0).
    const fromStart = await openTab(boardId, 0);
    expect(fromStart.events.map((e) => e.type)).toEqual(['board.created', 'lane.created']);
  });

  it('sends reset when the position was removed by retention', async () => {
    const { boardId, laneId } = await board();
    const old = (await t.services.boardView.getView(PERSON, boardId)).activityId;
    await call('POST', `/boards/${boardId}/tasks`, { title: 'Later', laneId });
    await settleRecentActivities(t.db.database.kysely);
    await t.db.database.kysely.deleteFrom('activities').where('id', '<=', old).execute();
    const tab = await openTab(boardId, old);
    expect(tab.events.map((e) => e.type)).toEqual(['reset']);
    const zero = await openTab(boardId, 0);
    expect(zero.events.map((e) => e.type)).toEqual(['reset']);
    // After the reset the stream carries on.
    await call('POST', `/boards/${boardId}/tasks`, { title: 'Next', laneId });
    await tab.next('task.created after reset', (e) => e.type === 'task.created');
  });

  it('refuses a board that does not exist', async () => {
    await expect(t.services.boardEvents.open(PERSON, 'brd_nope', null, () => {})).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  describe.skipIf(dialect !== 'postgres')('PostgreSQL', () => {
    it('a change through another instance reaches a stream on this one', async () => {
      const { boardId, laneId } = await board();
      const second = openDatabase({ databaseUrl: t.db.databaseUrl, dataDir: os.tmpdir(), poolSize: 2 });
      const other = await testRuntime(second);
      try {
        const tab = await openTab(boardId, (await t.services.boardView.getView(PERSON, boardId)).activityId);
        const task = await other.services.tasks.createTask(PERSON, boardId, { title: 'Elsewhere', laneId });
        const event = await tab.next('the other instance’s change', (e) => e.type === 'task.created');
        expect(event.data).toMatchObject({ taskId: task.id, origin: 'ui', card: { title: 'Elsewhere' } });
      } finally {
        await other.close();
        await second.close();
      }
    });

    it('an activity that commits after a larger id still arrives, live and after a reconnect', async () => {
      const { boardId, laneId } = await board();
      const start = (await t.services.boardView.getView(PERSON, boardId)).activityId;
      const live = await openTab(boardId, start);
      const dropped = await openTab(boardId, start);
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let slowId = 0;
      // A transaction takes the smaller id and stays open while another change commits. (Two commit
      // statements that insert activities at the same moment can commit in either order.)
      const slow = inTransaction(t.db.database, async (tx) => {
        slowId = await insertActivity(tx.db, {
          board_id: boardId,
          task_id: null,
          type: 'lane.updated',
          actor_kind: 'user',
          actor_id: 'usr_ada',
          actor_name: 'Ada',
          origin: 'ui',
          data: JSON.stringify({ lane_id: laneId, name: 'Todo', position: 0 }),
          created_at: new Date().toISOString(),
        });
        tx.notifyAfterCommit(CHANGE_CHANNEL, `${slowId} ${slowId} ${boardId}`);
        await gate;
      });
      await waitUntil('the slow id', async () => (slowId > 0 ? slowId : undefined));
      await call('POST', `/boards/${boardId}/tasks`, { title: 'Fast', laneId });
      const fast = await dropped.next('the fast change', (e) => e.type === 'task.created');
      expect(fast.id).toBeGreaterThan(slowId);
      // One tab drops with the larger id as its last; then the smaller one commits.
      dropped.stream?.close();
      release();
      await slow;
      await live.next('the late commit, live', (e) => e.id === slowId);
      const resumed = await openTab(boardId, fast.id);
      expect(resumed.ids()).toContain(slowId);
    });
  });
});
