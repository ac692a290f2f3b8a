import { createHash, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../support/dialects.js';
import { filePart, upload } from './asset-fixtures.js';
import { createBoard, createTask, expectError, useTaskApp } from './task-fixtures.js';

const MAX = 600 * 1024;
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describeEachDialect('assets', (dialect) => {
  // A small limit, so the size tests need no 10 MiB bodies; it still spans several 256 KiB chunks.
  const { t, events, clock, freshTask } = useTaskApp(dialect, { assetMaxBytes: MAX });

  async function countRows(table: 'assets' | 'asset_chunks'): Promise<number> {
    const row = await t.db.database.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('uploads, lists oldest first, shows and downloads a file byte for byte', async () => {
    const { fx, task, url } = await freshTask('assets');
    const bytes = randomBytes(MAX); // exactly the limit, three chunks
    const first = await upload(t, fx.key, url, [filePart('photo.png', bytes, 'image/png')]);
    expect(first.statusCode, first.body).toBe(201);
    const created = first.json().data;
    expect(created).toEqual({
      id: expect.stringMatching(/^ast_/),
      taskId: task.id,
      filename: 'photo.png',
      contentType: 'image/png',
      size: MAX,
      sha256: sha256(bytes),
      source: 'api',
      createdAt: new Date(clock.ms).toISOString(),
    });
    const second = await upload(t, fx.key, url, [
      { name: 'source', value: 'agent' },
      filePart('notes.txt', 'hello'),
    ]);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().data).toMatchObject({ source: 'agent', size: 5, contentType: 'text/plain' });

    const list = await t.request(fx.key, 'GET', url);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([created, second.json().data]);
    const one = await t.request(fx.key, 'GET', `${url}/${created.id}`);
    expect(one.json().data).toEqual(created);

    const download = await t.request(fx.key, 'GET', `${url}/${created.id}/content`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(MAX),
      etag: `"${sha256(bytes)}"`,
      'content-disposition': 'attachment; filename="photo.png"; filename*=UTF-8\'\'photo.png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
    });

    expect(events.take()).toEqual([
      {
        type: 'asset.created',
        boardId: fx.boardId,
        data: {
          task_id: task.id,
          asset: { id: created.id, filename: 'photo.png', contentType: 'image/png', size: MAX },
        },
      },
      {
        type: 'asset.created',
        boardId: fx.boardId,
        data: {
          task_id: task.id,
          asset: { id: second.json().data.id, filename: 'notes.txt', contentType: 'text/plain', size: 5 },
        },
      },
    ]);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { fx, url } = await freshTask('assets');
    const asset = (await upload(t, fx.key, url, [filePart('a.txt', 'abc')])).json().data;
    const res = await t.app.inject({
      method: 'GET',
      url: `${url}/${asset.id}/content`,
      headers: { authorization: `Bearer ${fx.key}`, 'if-none-match': `"${asset.sha256}"` },
    });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    const other = await t.app.inject({
      method: 'GET',
      url: `${url}/${asset.id}/content`,
      headers: { authorization: `Bearer ${fx.key}`, 'if-none-match': '"something-else"' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe('abc');
  });

  it('accepts an empty file and serves it with octet-stream when the part had no usable type', async () => {
    const { fx, url } = await freshTask('assets');
    const res = await upload(t, fx.key, url, [filePart('empty.bin', Buffer.alloc(0), 'not a type')]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      size: 0,
      sha256: sha256(''),
      contentType: 'application/octet-stream',
    });
    const download = await t.request(fx.key, 'GET', `${url}/${res.json().data.id}/content`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe('0');
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.rawPayload.length).toBe(0);
  });

  it('keeps a non-ASCII file name and sends it safely in Content-Disposition', async () => {
    const { fx, url } = await freshTask('assets');
    const res = await upload(t, fx.key, url, [filePart('résumé 100%.txt', 'x')]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.filename).toBe('résumé 100%.txt');
    const download = await t.request(fx.key, 'GET', `${url}/${res.json().data.id}/content`);
    expect(download.headers['content-disposition']).toBe(
      'attachment; filename="r_sum_ 100_.txt"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9%20100%25.txt',
    );
  });

  it('refuses a file one byte over the limit with 413 and stores nothing', async () => {
    const { fx, url } = await freshTask('assets');
    const before = { assets: await countRows('assets'), chunks: await countRows('asset_chunks') };
    const res = await upload(t, fx.key, url, [filePart('big.bin', randomBytes(MAX + 1))]);
    expectError(res, 413, 'payload_too_large', `${MAX} bytes`);
    expect((await t.request(fx.key, 'GET', url)).json().data).toEqual([]);
    expect({ assets: await countRows('assets'), chunks: await countRows('asset_chunks') }).toEqual(before);
    expect(events.take()).toEqual([]);
  });

  it('deletes an asset (204) with its bytes; then it is 404 everywhere', async () => {
    const { fx, task, url } = await freshTask('assets');
    const asset = (await upload(t, fx.key, url, [filePart('a.bin', randomBytes(300 * 1024))])).json().data;
    events.take();
    const chunksBefore = await countRows('asset_chunks');
    const res = await t.request(fx.key, 'DELETE', `${url}/${asset.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await countRows('asset_chunks')).toBe(chunksBefore - 2);
    expectError(await t.request(fx.key, 'GET', `${url}/${asset.id}`), 404, 'not_found', 'Asset');
    expectError(await t.request(fx.key, 'GET', `${url}/${asset.id}/content`), 404, 'not_found');
    expectError(await t.request(fx.key, 'DELETE', `${url}/${asset.id}`), 404, 'not_found');
    expect(events.take()).toEqual([
      { type: 'asset.deleted', boardId: fx.boardId, data: { task_id: task.id, asset_id: asset.id } },
    ]);
  });

  it('removes the assets of a deleted task, lane and board', async () => {
    const fx = await createBoard(t, ['One', 'Two']);
    const [laneOne, laneTwo] = fx.laneIds as [string, string];
    const taskA = await createTask(t, fx, { laneId: laneOne });
    const taskB = await createTask(t, fx, { laneId: laneOne });
    const taskC = await createTask(t, fx, { laneId: laneTwo });
    const ids: string[] = [];
    for (const task of [taskA, taskB, taskC]) {
      const res = await upload(t, fx.key, `${fx.url}/tasks/${task.id}/assets`, [
        filePart('f.bin', randomBytes(1000)),
      ]);
      ids.push(res.json().data.id);
    }
    const stored = async () =>
      (
        await t.db.database.kysely
          .selectFrom('asset_chunks')
          .select('asset_id')
          .where('asset_id', 'in', ids)
          .execute()
      )
        .map((r) => r.asset_id)
        .sort();
    expect(await stored()).toEqual([...ids].sort());
    expect((await t.request(fx.key, 'DELETE', `${fx.url}/tasks/${taskA.id}`)).statusCode).toBe(204);
    expect(await stored()).toEqual([ids[1], ids[2]].sort());
    expect((await t.request(fx.key, 'DELETE', `${fx.url}/lanes/${laneTwo}`)).statusCode).toBe(204);
    expect(await stored()).toEqual([ids[1]]);
    expect((await t.request(fx.key, 'DELETE', fx.url)).statusCode).toBe(204);
    expect(await stored()).toEqual([]);
    const metadata = await t.db.database.kysely
      .selectFrom('assets')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    expect(metadata).toEqual([]);
  });
});
