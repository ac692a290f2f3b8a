import type { Actor } from '../actor.js';
import { forbidden } from '../errors.js';

/** Managing agents and their keys: owners and admins in the web UI, and the operator at the console. */
export function requireAgentManager(actor: Actor): void {
  if (actor.kind === 'system') return;
  if (actor.kind === 'user' && (actor.role === 'owner' || actor.role === 'admin')) return;
  throw forbidden('Managing agents needs the owner or admin role.');
}
