import { type Actor, boardPermission, type Permission } from './actor.js';
import { forbidden } from './errors.js';

/**
 * The single permission check of the domain. A missing grant is `forbidden` whether or not the board
 * exists, so keys cannot probe for other boards' ids.
 */
export function requireBoardPermission(actor: Actor, boardId: string, needed: Permission): void {
  const held = boardPermission(actor, boardId);
  if (held === null) throw forbidden();
  if (needed === 'edit' && held !== 'edit') {
    throw forbidden('This API key has read-only access to that board.');
  }
}
