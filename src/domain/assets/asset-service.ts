import { Readable } from 'node:stream';
import {
  deleteAsset,
  findAsset,
  insertAsset,
  listAssets,
  readAssetChunk,
} from '../../db/repositories/assets.js';
import { lockTaskRow } from '../../db/repositories/task-locks.js';
import { taskExists } from '../../db/repositories/tasks.js';
import type { AssetRow, Executor } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import { type Actor, authorSource } from '../actor.js';
import { invalid, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { inTransaction } from '../transaction.js';
import { type StagedContent, stageContent } from './asset-content.js';
import { type Asset, checkFilename, normaliseContentType, toAsset } from './asset-rules.js';

export type { Asset } from './asset-rules.js';

export const DEFAULT_ASSET_MAX_BYTES = 10 * 1024 * 1024;

export interface AssetServiceOptions {
  /** Largest file accepted, in bytes (LANEBOARD_ASSET_MAX_BYTES). */
  maxBytes?: number;
}

export interface NewAsset {
  filename: string;
  contentType: string | undefined;
  source?: string | undefined;
  content: StagedContent;
}

/** An asset ready to be downloaded: its metadata, and its bytes read chunk by chunk on demand. */
export interface AssetDownload {
  asset: Asset;
  open(): Readable;
}

export class AssetService {
  readonly maxBytes: number;

  constructor(
    private readonly deps: ServiceDeps,
    options: AssetServiceOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_ASSET_MAX_BYTES;
  }

  /**
   * Checks, before an upload's body is read, that the actor may upload to the task and that the task
   * exists; createAsset checks both again inside its transaction.
   */
  async checkUpload(actor: Actor, boardId: string, taskId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await requireTask(this.deps.database.kysely, boardId, taskId);
  }

  /** Reads an upload's bytes within the size limit (see stageContent). */
  stage(source: AsyncIterable<Uint8Array>): Promise<StagedContent> {
    return stageContent(source, this.maxBytes);
  }

  async createAsset(actor: Actor, boardId: string, taskId: string, input: NewAsset): Promise<Asset> {
    requireBoardPermission(actor, boardId, 'edit');
    const filename = checkFilename(input.filename);
    if (input.source !== undefined && input.source !== 'api' && input.source !== 'agent') {
      throw invalid('source', 'must be one of "api", "agent".');
    }
    const source = authorSource(actor, input.source);
    const { content } = input;
    return inTransaction(this.deps.database, async (tx) => {
      // The lock keeps the task from being deleted before its asset is inserted.
      if (!(await lockTaskRow(tx, boardId, taskId))) throw notFound('Task');
      const row: AssetRow = {
        id: newId('ast'),
        task_id: taskId,
        board_id: boardId,
        filename,
        content_type: normaliseContentType(input.contentType),
        size: content.size,
        sha256: content.sha256,
        source,
        created_at: isoNow(this.deps.clock),
      };
      await insertAsset(tx.db, row, content.chunks);
      await this.deps.activities.record(tx, actor, {
        type: 'asset.created',
        boardId,
        taskId,
        data: {
          task_id: taskId,
          asset: { id: row.id, filename, contentType: row.content_type, size: row.size },
        },
      });
      return toAsset(row);
    });
  }

  /** The task's assets, oldest first. */
  async listAssets(actor: Actor, boardId: string, taskId: string): Promise<Asset[]> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    await requireTask(db, boardId, taskId);
    return (await listAssets(db, taskId)).map(toAsset);
  }

  async getAsset(actor: Actor, boardId: string, taskId: string, assetId: string): Promise<Asset> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    await requireTask(db, boardId, taskId);
    const row = await findAsset(db, taskId, assetId);
    if (!row) throw notFound('Asset');
    return toAsset(row);
  }

  /**
   * The asset and a stream of its bytes that reads one chunk at a time, so a download holds one chunk
   * in memory whatever the file's size. An asset deleted mid-download ends the stream with an error
   * (the client sees a cut-off response, never another file's bytes).
   */
  async openAssetContent(
    actor: Actor,
    boardId: string,
    taskId: string,
    assetId: string,
  ): Promise<AssetDownload> {
    const asset = await this.getAsset(actor, boardId, taskId, assetId);
    const db = this.deps.database.kysely;
    return { asset, open: () => Readable.from(readChunks(db, asset)) };
  }

  async deleteAsset(actor: Actor, boardId: string, taskId: string, assetId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await inTransaction(this.deps.database, async (tx) => {
      await requireTask(tx.db, boardId, taskId);
      if (!(await findAsset(tx.db, taskId, assetId))) throw notFound('Asset');
      await deleteAsset(tx.db, assetId);
      await this.deps.activities.record(tx, actor, {
        type: 'asset.deleted',
        boardId,
        taskId,
        data: { task_id: taskId, asset_id: assetId },
      });
    });
  }
}

async function* readChunks(db: Executor, asset: Asset): AsyncGenerator<Buffer> {
  let sent = 0;
  for (let seq = 0; sent < asset.size; seq++) {
    const chunk = await readAssetChunk(db, asset.id, seq);
    if (!chunk) throw new Error(`asset ${asset.id} ended at byte ${sent} of ${asset.size}`);
    sent += chunk.byteLength;
    yield chunk;
  }
}

async function requireTask(db: Executor, boardId: string, taskId: string): Promise<void> {
  if (!(await taskExists(db, boardId, taskId))) throw notFound('Task');
}
