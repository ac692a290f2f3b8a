import type { Role } from '../../db/schema.js';
import type { Actor } from '../actor.js';
import { DomainError, forbidden, invalid } from '../errors.js';

export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];

export function parseRole(value: string, field = 'role'): Role {
  if ((ROLES as readonly string[]).includes(value)) return value as Role;
  throw invalid(field, 'must be one of owner, admin, member.');
}

/** Managing people: owners and admins in the web UI, and the operator at the console. */
export function requirePeopleManager(actor: Actor): void {
  if (actor.kind === 'system') return;
  if (actor.kind === 'user' && (actor.role === 'owner' || actor.role === 'admin')) return;
  throw forbidden('Managing people needs the owner or admin role.');
}

/** Giving, taking or inviting to the owner role, and deactivating an owner, are for owners only. */
export function requireOwnerFor(actor: Actor, what: string): void {
  if (actor.kind === 'system') return;
  if (actor.kind === 'user' && actor.role === 'owner') return;
  throw forbidden(`Only an owner can ${what}.`);
}

export function lastOwnerConflict(what: string): DomainError {
  return new DomainError(
    'conflict',
    `The last active owner cannot be ${what}: make someone else an owner first.`,
  );
}

/** The signed-in person, or forbidden for actors that are not people. */
export function requireUser(actor: Actor): Extract<Actor, { kind: 'user' }> {
  if (actor.kind === 'user') return actor;
  throw forbidden('Only a signed-in person can do this.');
}
