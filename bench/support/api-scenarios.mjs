// The API benchmark's data and requests, which metrics-overhead.mjs measures too: a board of 100 tasks
// in 4 lanes to read, and a board with a lane to create tasks in.

/**
 * Seeds through `api(method, url, body)` (resolving with the answer's data); `taskFields` go into every
 * seeded task. Resolves with the ids scenariosOf takes.
 */
export async function seedBoards(api, taskFields = {}) {
  const board = await api('POST', '/boards', { name: 'Bench' });
  const lanes = [];
  for (const name of ['Todo', 'Doing', 'Review', 'Done'])
    lanes.push(await api('POST', `/boards/${board.id}/lanes`, { name }));
  let task;
  for (let i = 0; i < 100; i++) {
    task = await api('POST', `/boards/${board.id}/tasks`, {
      title: `Task ${i}`,
      laneId: lanes[i % 4].id,
      ...taskFields,
    });
  }
  const writeBoard = await api('POST', '/boards', { name: 'Writes' });
  const writeLane = await api('POST', `/boards/${writeBoard.id}/lanes`, { name: 'Inbox' });
  return { board, task, writeBoard, writeLane };
}

/** The scenarios on seedBoards' data: list the 100 tasks, one task's detail, create a task. */
export function scenariosOf({ board, task, writeBoard, writeLane }) {
  return [
    { name: 'list tasks (100)', method: 'GET', path: `/api/ext/v1/boards/${board.id}/tasks` },
    { name: 'task detail', method: 'GET', path: `/api/ext/v1/boards/${board.id}/tasks/${task.id}` },
    {
      name: 'create task',
      method: 'POST',
      path: `/api/ext/v1/boards/${writeBoard.id}/tasks`,
      body: JSON.stringify({ title: 'New', laneId: writeLane.id }),
    },
  ];
}
