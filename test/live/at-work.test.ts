import { expect, it } from 'vitest';
import { type Actor, CLI_OPERATOR, type KeyActor, throughMcp } from '../../src/domain/actor.js';
import { RecordingEvents } from '../integration/recording-events.js';
import { ManualClock } from '../support/clock.js';
import { describeEachDialect, useTestApp } from '../support/dialects.js';
import type { TestApp } from '../support/test-app.js';

const PERSON: Actor = { kind: 'user', origin: 'ui', userId: 'usr_ada', name: 'Ada', role: 'member' };
const TEN_MINUTES = 10 * 60 * 1000;

async function keyActor(t: TestApp, name: string, agentId?: string): Promise<KeyActor> {
  const created = await t.services.apiKeys.createKey(CLI_OPERATOR, {
    name,
    allBoards: true,
    grants: [],
    ...(agentId ? { agentId } : {}),
  });
  return (await t.services.apiKeys.authenticate(created.key)) as KeyActor;
}

const turn = (sourceId: string, capturedAt: string) => ({
  source: 'claude' as const,
  sourceId,
  role: 'assistant' as const,
  content: 'Working on it.',
  capturedAt,
});

/** The card's "at work" mark (issue 26): who, for how long, from which changes. */
describeEachDialect('the "at work" mark', (dialect) => {
  const clock = new ManualClock(Date.parse('2026-11-27T12:00:00.000Z'));
  const events = new RecordingEvents();
  const t = useTestApp(dialect, { clock, events });

  it('names the agents that acted or pushed turns in the last 10 minutes, newest first, then lapses', async () => {
    const s = t.services;
    const claude = await s.agents.createAgent(CLI_OPERATOR, { name: 'Claude' });
    const copilot = await s.agents.createAgent(CLI_OPERATOR, { name: 'Copilot agent' });
    const CLAUDE = await keyActor(t, 'claude-key', claude.id);
    const COPILOT = await keyActor(t, 'copilot-key', copilot.id);
    const SCRIPT = await keyActor(t, 'CI script');
    const board = await s.boards.createBoard(PERSON, { name: 'Work' });
    const lane = await s.lanes.createLane(PERSON, board.id, { name: 'Doing' });
    const task = (title: string) => s.tasks.createTask(PERSON, board.id, { title, laneId: lane.id });
    const [both, turns, script, mcp, person] = await Promise.all(
      ['Both', 'Turns', 'Script', 'MCP', 'Person'].map(task),
    );
    const started = clock.ms;
    await s.tasks.updateTask(CLAUDE, board.id, both!.id, { priority: 1 });
    clock.advance(60_000);
    await s.comments.createComment(COPILOT, board.id, both!.id, {
      body: 'Me too.',
      authorName: 'Copilot agent',
    });
    // Turns pushed with a key of nobody are named after the tool they came from.
    await s.turns.recordTurns(SCRIPT, board.id, turns!.id, [turn('t1', new Date(started).toISOString())]);
    await s.tasks.updateTask(SCRIPT, board.id, script!.id, { priority: 2 });
    await s.tasks.updateTask(throughMcp(SCRIPT), board.id, mcp!.id, { priority: 2 });
    await s.tasks.updateTask(PERSON, board.id, person!.id, { priority: 2 });

    const cards = async () =>
      new Map((await s.boardView.getView(PERSON, board.id)).tasks.map((card) => [card.title, card]));
    const at = (ms: number) => new Date(ms + TEN_MINUTES).toISOString();
    let view = await cards();
    expect(view.get('Both')).toMatchObject({
      agentActive: true,
      atWork: [
        { name: 'Copilot agent', until: at(started + 60_000) },
        { name: 'Claude', until: at(started) },
      ],
    });
    expect(view.get('Turns')?.atWork).toEqual([{ name: 'Claude Code', until: at(started + 60_000) }]);
    expect(view.get('MCP')?.atWork).toEqual([{ name: 'CI script', until: at(started + 60_000) }]);
    // A key of nobody through the external API, and a person, are not agents at work.
    expect(view.get('Script')).toMatchObject({ agentActive: false, atWork: [] });
    expect(view.get('Person')).toMatchObject({ agentActive: false, atWork: [] });

    // Ten minutes after Claude's change only Copilot's later comment still counts.
    clock.ms = started + TEN_MINUTES + 1;
    view = await cards();
    expect(view.get('Both')?.atWork.map((a) => a.name)).toEqual(['Copilot agent']);
    clock.ms = started + 60_000 + TEN_MINUTES + 1;
    view = await cards();
    expect([...view.values()].filter((card) => card.agentActive)).toEqual([]);

    // A batch of turns all already stored records nothing: the mark does not come back.
    await s.turns.recordTurns(SCRIPT, board.id, turns!.id, [turn('t1', new Date(started).toISOString())]);
    expect((await cards()).get('Turns')?.atWork).toEqual([]);
  });

  it('records captured turns as an activity of the pusher that no webhook receives', async () => {
    const s = t.services;
    const agent = await s.agents.createAgent(CLI_OPERATOR, { name: 'Claude' });
    const AGENT = await keyActor(t, 'agent-key', agent.id);
    const board = await s.boards.createBoard(PERSON, { name: 'Turns' });
    const lane = await s.lanes.createLane(PERSON, board.id, { name: 'Doing' });
    const task = await s.tasks.createTask(PERSON, board.id, { title: 'Capture', laneId: lane.id });
    const now = new Date(clock.ms).toISOString();
    events.take();
    await s.turns.recordTurns(AGENT, board.id, task.id, [turn('a', now), turn('b', now)]);
    // The agent's key works through the external API (its changes fire webhooks), yet turns fire none.
    expect(events.take()).toEqual([]);
    await s.tasks.updateTask(AGENT, board.id, task.id, { priority: 1 });
    expect(events.take().map((e) => e.type)).toEqual(['task.updated']);
    const history = await s.activities.listForTask(PERSON, board.id, task.id, { limit: 5 });
    expect(history.data[1]).toMatchObject({
      type: 'turns.captured',
      actor: { kind: 'agent', id: agent.id, name: 'Claude' },
      data: { task_id: task.id, source: 'claude', count: 2 },
    });
    const card = (await s.boardView.getView(PERSON, board.id)).tasks[0];
    expect(card?.atWork.map((a) => a.name)).toEqual(['Claude']);
  });
});
