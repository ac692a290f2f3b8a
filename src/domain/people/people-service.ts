import { createHash } from 'node:crypto';
import { activeKeyIdsOfOwner, markKeyRevoked } from '../../db/repositories/api-keys.js';
import {
  deleteInvite,
  findInviteByTokenHash,
  insertInvite,
  listPendingInvites,
  markInviteUsed,
} from '../../db/repositories/invites.js';
import {
  countActiveOwners,
  findUserByEmailKey,
  findUserById,
  insertUser,
  listUsers,
  lockOwners,
  updateUser,
} from '../../db/repositories/users.js';
import { deleteWebhooksOfKey } from '../../db/repositories/webhooks.js';
import type { Role, UserRow } from '../../db/schema.js';
import { newId, randomString } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { Actor } from '../actor.js';
import { DomainError, notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS, requiredText } from '../text-rules.js';
import { inTransaction, type Tx } from '../transaction.js';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords.js';
import { toUser, type User } from './people-views.js';
import { lastOwnerConflict, parseRole, requireOwnerFor, requirePeopleManager, requireUser } from './roles.js';
import { invalidCredentials, type NewPerson, type SessionService, type SignedIn } from './session-service.js';

export const INVITE_TTL_MS = 7 * 24 * 3_600_000;

export interface Invite {
  id: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
  createdBy: { id: string; name: string };
}

export interface CreatedInvite extends Invite {
  token: string;
  url: string;
}

const inviteGone = (): DomainError =>
  new DomainError('not_found', 'This invite link is invalid, used or expired.');
const emailTaken = (): DomainError => new DomainError('conflict', 'Someone with this email already exists.');

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** People management, invites and a person's own profile. Every rule about roles lives here. */
export class PeopleService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly sessions: SessionService,
  ) {}

  async listPeople(actor: Actor): Promise<User[]> {
    requirePeopleManager(actor);
    return (await listUsers(this.deps.database.kysely)).map(toUser);
  }

  async getPerson(actor: Actor, id: string): Promise<User> {
    if (!(actor.kind === 'user' && actor.userId === id)) requirePeopleManager(actor);
    const row = await findUserById(this.deps.database.kysely, id);
    if (!row) throw notFound('Person');
    return toUser(row);
  }

  /** The operator (CLI) creates people directly, with any role. */
  async createPerson(actor: Actor, input: NewPerson & { role: string }): Promise<User> {
    if (actor.kind !== 'system') requireOwnerFor(actor, 'create people directly; send an invite instead');
    const row = await this.sessions.newUserRow(input, parseRole(input.role));
    await inTransaction(this.deps.database, async (tx) => {
      if (await findUserByEmailKey(tx.db, row.email_key)) throw emailTaken();
      await insertUser(tx.db, row);
    });
    return toUser(row);
  }

  async changeRole(actor: Actor, id: string, roleText: string): Promise<User> {
    requirePeopleManager(actor);
    const role = parseRole(roleText);
    return inTransaction(this.deps.database, async (tx) => {
      await lockOwners(tx.db, tx.dialect);
      const row = await this.requirePerson(tx, id);
      if (row.role === role) return toUser(row);
      if (row.role === 'owner' || role === 'owner') requireOwnerFor(actor, 'give or take the owner role');
      if (row.role === 'owner' && row.active === 1 && (await countActiveOwners(tx.db)) <= 1) {
        throw lastOwnerConflict('demoted');
      }
      const updatedAt = isoNow(this.deps.clock);
      await updateUser(tx.db, id, { role, updated_at: updatedAt });
      return toUser({ ...row, role, updated_at: updatedAt });
    });
  }

  /** Deactivates a person: their sessions end and their API keys are revoked with their webhooks. */
  async deactivate(actor: Actor, id: string): Promise<User> {
    requirePeopleManager(actor);
    const user = await inTransaction(this.deps.database, async (tx) => {
      await lockOwners(tx.db, tx.dialect);
      const row = await this.requirePerson(tx, id);
      if (row.active === 0) return toUser(row);
      if (row.role === 'owner') {
        requireOwnerFor(actor, 'deactivate an owner');
        if ((await countActiveOwners(tx.db)) <= 1) throw lastOwnerConflict('deactivated');
      }
      const now = isoNow(this.deps.clock);
      await updateUser(tx.db, id, { active: 0, updated_at: now });
      await this.sessions.endSessionsOf(tx.db, id);
      for (const keyId of await activeKeyIdsOfOwner(tx.db, id)) {
        await markKeyRevoked(tx.db, keyId, now);
        await deleteWebhooksOfKey(tx.db, keyId);
      }
      return toUser({ ...row, active: 0, updated_at: now });
    });
    // Revoked keys: this instance's key cache must not serve them to the next request (see db/key-changes.ts).
    this.deps.database.keyChanges.changed();
    return user;
  }

  async changeOwnName(actor: Actor, name: string): Promise<User> {
    const me = requireUser(actor);
    const trimmed = requiredText('name', name, LIMITS.authorName);
    return inTransaction(this.deps.database, async (tx) => {
      const row = await this.requirePerson(tx, me.userId);
      const updatedAt = isoNow(this.deps.clock);
      await updateUser(tx.db, me.userId, { name: trimmed, updated_at: updatedAt });
      return toUser({ ...row, name: trimmed, updated_at: updatedAt });
    });
  }

  /** Changes the person's own password: every session ends, and a fresh one is returned for this tab. */
  async changeOwnPassword(actor: Actor, currentPassword: string, newPassword: string): Promise<SignedIn> {
    const me = requireUser(actor);
    const db = this.deps.database.kysely;
    const row = await findUserById(db, me.userId);
    if (!row) throw notFound('Person');
    await this.sessions.throttle.check(db, row.email_key, null);
    if (!(await verifyPassword(row.password_hash, currentPassword))) {
      await this.sessions.throttle.failed(db, row.email_key, null);
      throw new DomainError('invalid_credentials', 'The current password is incorrect.');
    }
    checkNewPassword(newPassword, 'newPassword');
    const passwordHash = await hashPassword(newPassword);
    return inTransaction(this.deps.database, async (tx) => {
      const updatedAt = isoNow(this.deps.clock);
      await updateUser(tx.db, me.userId, { password_hash: passwordHash, updated_at: updatedAt });
      await this.sessions.endSessionsOf(tx.db, me.userId);
      const sessionId = await this.sessions.startSession(tx.db, me.userId);
      return { user: toUser({ ...row, password_hash: passwordHash, updated_at: updatedAt }), sessionId };
    });
  }

  /** The operator sets a new password (CLI); the person's sessions end. */
  async resetPassword(actor: Actor, id: string, password: string): Promise<User> {
    if (actor.kind !== 'system') requireOwnerFor(actor, 'reset passwords');
    checkNewPassword(password);
    const passwordHash = await hashPassword(password);
    return inTransaction(this.deps.database, async (tx) => {
      const row = await this.requirePerson(tx, id);
      const updatedAt = isoNow(this.deps.clock);
      await updateUser(tx.db, id, { password_hash: passwordHash, updated_at: updatedAt });
      await this.sessions.endSessionsOf(tx.db, id);
      return toUser({ ...row, updated_at: updatedAt });
    });
  }

  /** Checks the signed-in person's password again (before revealing a key); throttled like sign-in. */
  async confirmPassword(actor: Actor, password: string): Promise<void> {
    const me = requireUser(actor);
    const db = this.deps.database.kysely;
    const row = await findUserById(db, me.userId);
    if (row?.active !== 1) throw invalidCredentials();
    await this.sessions.throttle.check(db, row.email_key, null, 'password-check');
    if (!(await verifyPassword(row.password_hash, password))) {
      await this.sessions.throttle.failed(db, row.email_key, null);
      throw new DomainError(
        'invalid_credentials',
        `The password is incorrect. ${this.sessions.throttle.wrongPasswordCost()}`,
      );
    }
  }

  async createInvite(actor: Actor, roleText: string): Promise<CreatedInvite> {
    requirePeopleManager(actor);
    const me = requireUser(actor);
    const role = parseRole(roleText);
    if (role === 'owner') requireOwnerFor(actor, 'invite an owner');
    const token = randomString(43);
    const now = this.deps.clock.now();
    const row = {
      id: newId('inv'),
      token_hash: hashToken(token),
      role,
      created_by: me.userId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + INVITE_TTL_MS).toISOString(),
      used_at: null,
      used_by: null,
    };
    const creator = await findUserById(this.deps.database.kysely, me.userId);
    await insertInvite(this.deps.database.kysely, row);
    return {
      id: row.id,
      role,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      createdBy: { id: me.userId, name: creator?.name ?? '' },
      token,
      url: `/invite/${token}`,
    };
  }

  async listInvites(actor: Actor): Promise<Invite[]> {
    requirePeopleManager(actor);
    const rows = await listPendingInvites(this.deps.database.kysely, isoNow(this.deps.clock));
    return rows.map((r) => ({
      id: r.id,
      role: r.role,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      createdBy: { id: r.created_by, name: r.creator_name },
    }));
  }

  async revokeInvite(actor: Actor, id: string): Promise<void> {
    requirePeopleManager(actor);
    if (!(await deleteInvite(this.deps.database.kysely, id))) throw notFound('Invite');
  }

  /** What an invite link offers, for the accept page; anyone holding the link may ask. */
  async lookupInvite(token: string): Promise<{ role: Role; expiresAt: string }> {
    const row = await this.usableInvite(token);
    return { role: row.role, expiresAt: row.expires_at };
  }

  /** Creates the invited person with the invite's role and signs them in; the link then stops working. */
  async acceptInvite(token: string, input: NewPerson): Promise<SignedIn> {
    const invite = await this.usableInvite(token);
    if (!this.sessions.passwordSignIn && invite.role !== 'owner') {
      // Such a person could not sign in with the password afterwards (owners only): SSO instead.
      throw new DomainError('forbidden', 'Password sign-in is turned off here: join with SSO.');
    }
    const row = await this.sessions.newUserRow(input, invite.role);
    return inTransaction(this.deps.database, async (tx) => {
      if (await findUserByEmailKey(tx.db, row.email_key)) throw emailTaken();
      await insertUser(tx.db, row);
      if (!(await markInviteUsed(tx.db, invite.id, row.id, row.created_at))) throw inviteGone();
      return { user: toUser(row), sessionId: await this.sessions.startSession(tx.db, row.id) };
    });
  }

  /** The unused, unexpired invite of a link (also for accepting it through single sign-on). */
  async usableInvite(token: string) {
    if (token.length === 0 || token.length > 200) throw inviteGone();
    const row = await findInviteByTokenHash(this.deps.database.kysely, hashToken(token));
    if (!row || row.used_at !== null || Date.parse(row.expires_at) <= this.deps.clock.now())
      throw inviteGone();
    return row;
  }

  private async requirePerson(tx: Tx, id: string): Promise<UserRow> {
    const row = await findUserById(tx.db, id);
    if (!row) throw notFound('Person');
    return row;
  }
}
