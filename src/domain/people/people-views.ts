import type { Role, UserRow } from '../../db/schema.js';

/** A person as stored (the session plugin keeps the signed-in one on the request). */
export type Person = UserRow;

import type { Actor } from '../actor.js';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    active: row.active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The actor a signed-in person acts as: their own role, and their name for what they write. */
export function userActor(row: UserRow): Extract<Actor, { kind: 'user' }> {
  return { kind: 'user', origin: 'ui', userId: row.id, name: row.name, role: row.role };
}

/** Emails are kept as typed and compared lower-cased. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
