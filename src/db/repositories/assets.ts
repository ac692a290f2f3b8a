import type { AssetRow, Executor } from '../schema.js';

/** The task's assets, oldest first; ids sort in creation order, so they break same-millisecond ties. */
export async function listAssets(db: Executor, taskId: string): Promise<AssetRow[]> {
  return db
    .selectFrom('assets')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findAsset(
  db: Executor,
  taskId: string,
  assetId: string,
): Promise<AssetRow | undefined> {
  return db
    .selectFrom('assets')
    .selectAll()
    .where('id', '=', assetId)
    .where('task_id', '=', taskId)
    .executeTakeFirst();
}

/** Inserts the asset's row and then its chunks, in order, in the caller's transaction. */
export async function insertAsset(db: Executor, row: AssetRow, chunks: readonly Buffer[]): Promise<void> {
  await db.insertInto('assets').values(row).execute();
  for (const [seq, data] of chunks.entries()) {
    await db.insertInto('asset_chunks').values({ asset_id: row.id, seq, data }).execute();
  }
}

/** One chunk's bytes, or undefined past the last (or when the asset has gone meanwhile). */
export async function readAssetChunk(
  db: Executor,
  assetId: string,
  seq: number,
): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('asset_chunks')
    .select('data')
    .where('asset_id', '=', assetId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.data;
}

/** Deletes the asset; its chunks go with it (foreign-key cascade). */
export async function deleteAsset(db: Executor, assetId: string): Promise<void> {
  await db.deleteFrom('assets').where('id', '=', assetId).execute();
}
