import { upsertGrant } from '../../db/repositories/api-keys.js';
import {
  deleteBoard,
  findBoard,
  insertBoard,
  listAllBoards,
  listBoardsGrantedTo,
  renameBoard,
} from '../../db/repositories/boards.js';
import { listLanesWithTaskCounts } from '../../db/repositories/lanes.js';
import { lockRow } from '../../db/repositories/locks.js';
import { listTagColors } from '../../db/repositories/tag-colors.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import { type Actor, grantingKeyId, type Permission } from '../actor.js';
import { notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction } from '../transaction.js';

export interface BoardSummary {
  id: string;
  name: string;
  permission: Permission;
}

export interface BoardDetail {
  id: string;
  name: string;
  lanes: Array<{ id: string; name: string; taskCount: number }>;
  /** The tag colours chosen on the board, by tag (others show their derived colour). */
  tagColors: Array<{ tag: string; color: string }>;
}

export interface Board {
  id: string;
  name: string;
  createdAt: string;
}

export class BoardService {
  constructor(private readonly deps: ServiceDeps) {}

  async listBoards(actor: Actor): Promise<BoardSummary[]> {
    const db = this.deps.database.kysely;
    if (actor.kind === 'api_key' && !actor.allBoards) {
      const rows = await listBoardsGrantedTo(db, actor.keyId);
      return rows.map((b) => ({ id: b.id, name: b.name, permission: b.permission }));
    }
    const rows = await listAllBoards(db);
    return rows.map((b) => ({ id: b.id, name: b.name, permission: 'edit' as const }));
  }

  /** Any actor may create a board; an API key that creates one is granted `edit` on it. */
  async createBoard(actor: Actor, input: { name: string }): Promise<Board> {
    const name = requiredText('name', input.name, LIMITS.boardName);
    const now = isoNow(this.deps.clock);
    const board = { id: newId('brd'), name, created_at: now, updated_at: now };
    await inTransaction(this.deps.database, async (tx) => {
      await insertBoard(tx.db, board);
      const keyId = grantingKeyId(actor);
      if (keyId) await upsertGrant(tx.db, keyId, board.id, 'edit', now);
      await this.deps.activities.record(tx, actor, {
        type: 'board.created',
        boardId: board.id,
        data: { board: { id: board.id, name } },
      });
    });
    // The key's new grant: its cached access must not miss it on this instance's next request.
    if (grantingKeyId(actor)) this.deps.database.keyChanges.changed();
    return { id: board.id, name, createdAt: now };
  }

  async getBoard(actor: Actor, boardId: string): Promise<BoardDetail> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    const board = await findBoard(db, boardId);
    if (!board) throw notFound('Board');
    const [lanes, tagColors] = await Promise.all([
      listLanesWithTaskCounts(db, boardId),
      listTagColors(db, boardId),
    ]);
    return { id: board.id, name: board.name, lanes, tagColors };
  }

  /**
   * Renames the board (the web UI's; the external API has no board update). Records `board.updated`,
   * which webhooks receive only through `["*"]`.
   */
  async renameBoard(actor: Actor, boardId: string, input: { name: string }): Promise<Board> {
    requireBoardPermission(actor, boardId, 'edit');
    const name = requiredText('name', input.name, LIMITS.boardName);
    return inTransaction(this.deps.database, async (tx) => {
      const board = await findBoard(tx.db, boardId);
      if (!board) throw notFound('Board');
      if (board.name === name) return { id: board.id, name, createdAt: board.created_at };
      await renameBoard(tx.db, boardId, name, isoNow(this.deps.clock));
      await this.deps.activities.record(tx, actor, {
        type: 'board.updated',
        boardId,
        data: { board: { id: boardId, name } },
      });
      return { id: board.id, name, createdAt: board.created_at };
    });
  }

  /** Deletes the board and everything in it. The event is recorded first, while grants still match it. */
  async deleteBoard(actor: Actor, boardId: string): Promise<void> {
    requireBoardPermission(actor, boardId, 'edit');
    await inTransaction(this.deps.database, async (tx) => {
      if (!(await lockRow(tx, 'boards', boardId))) throw notFound('Board');
      await this.deps.activities.record(tx, actor, { type: 'board.deleted', boardId, data: {} });
      await deleteBoard(tx.db, boardId);
    });
  }
}
