import { findBoard } from '../../db/repositories/boards.js';
import {
  deleteTagColor,
  findTagColor,
  listTagColors,
  upsertTagColor,
} from '../../db/repositories/tag-colors.js';
import { isoNow } from '../../lib/time.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { inTransaction } from '../transaction.js';
import { derivedTagColor, type TagColorName, tagColor, tagName } from './tag-color-rules.js';

export interface TagColorChoice {
  tag: string;
  /** The colour the tag shows now (chosen, or derived from its name). */
  color: TagColorName;
  /** False when the board chose nothing for the tag (it shows its derived colour). */
  chosen: boolean;
}

/**
 * Tag colours chosen per board (issue 27). Anyone who may edit the board may choose; readers see them
 * with the board (BoardService.getBoard, BoardViewService). Only deliberate choices are stored.
 */
export class TagColorService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(actor: Actor, boardId: string): Promise<Array<{ tag: string; color: string }>> {
    requireBoardPermission(actor, boardId, 'read');
    const db = this.deps.database.kysely;
    if (!(await findBoard(db, boardId))) throw notFound('Board');
    return listTagColors(db, boardId);
  }

  /**
   * Chooses the tag's colour on the board; null, or the tag's derived colour, clears the choice.
   * Records `tag.color_changed` (data `{tag, color}`, color null when cleared) only when what the
   * tag shows or whether it was chosen changes, so open boards update and the board's history says who.
   */
  async setColor(
    actor: Actor,
    boardId: string,
    input: { tag: string; color: string | null },
  ): Promise<TagColorChoice> {
    requireBoardPermission(actor, boardId, 'edit');
    const tag = tagName(input.tag);
    const asked = tagColor(input.color);
    const derived = derivedTagColor(tag);
    const stored = asked === derived ? null : asked;
    return inTransaction(this.deps.database, async (tx) => {
      if (!(await findBoard(tx.db, boardId))) throw notFound('Board');
      const before = await findTagColor(tx.db, boardId, tag);
      const result = { tag, color: stored ?? derived, chosen: stored !== null };
      if (before === stored) return result;
      if (stored === null) await deleteTagColor(tx.db, boardId, tag);
      else {
        await upsertTagColor(tx.db, {
          board_id: boardId,
          tag,
          color: stored,
          updated_at: isoNow(this.deps.clock),
        });
      }
      await this.deps.activities.record(tx, actor, {
        type: 'tag.color_changed',
        boardId,
        data: { tag, color: stored },
      });
      return result;
    });
  }
}
