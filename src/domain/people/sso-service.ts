import { markInviteUsed } from '../../db/repositories/invites.js';
import {
  findIdentityOfUser,
  findUserByIdentity,
  insertIdentity,
  touchIdentity,
} from '../../db/repositories/oidc-identities.js';
import { findUserByEmailKey, insertUser } from '../../db/repositories/users.js';
import type { Role, UserRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import { DomainError } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { LIMITS } from '../text-rules.js';
import { inTransaction, type Tx } from '../transaction.js';
import type { PeopleService } from './people-service.js';
import { emailKey, toUser } from './people-views.js';
import type { SessionService, SignedIn } from './session-service.js';

/** What the identity provider vouched for, after the protocol checks (state, nonce, PKCE, signature). */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export interface SsoOptions {
  /** Email domains whose people become members at their first sign-in (lower case, exact match). */
  allowedDomains: readonly string[];
}

/** Why a single sign-on was refused; the sign-in page explains each in words. */
export type SsoRefusalReason =
  | 'email_missing'
  | 'email_unverified'
  | 'domain_not_allowed'
  | 'deactivated'
  | 'linked_elsewhere'
  | 'invite_invalid';

export class SsoRefusal extends DomainError {
  constructor(
    readonly reason: SsoRefusalReason,
    message: string,
  ) {
    super('forbidden', message);
    this.name = 'SsoRefusal';
  }
}

const EMAIL = /^[^\s@]+@([^\s@]+)$/;

/**
 * Who a single sign-on signs in. An identity already linked (issuer + subject) signs in its person.
 * Otherwise the provider must vouch for the email: a person with that email is linked to the identity;
 * else an invite the sign-in started from creates the person with the invite's role; else an email in
 * an allowed domain creates a member. Everything else is refused, and nothing is written.
 */
export class SsoService {
  private readonly allowedDomains: ReadonlySet<string>;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly sessions: SessionService,
    private readonly people: PeopleService,
    options: SsoOptions,
  ) {
    this.allowedDomains = new Set(options.allowedDomains.map((domain) => domain.toLowerCase()));
  }

  async signIn(identity: VerifiedIdentity, inviteToken: string | null = null): Promise<SignedIn> {
    try {
      return await this.attempt(identity, inviteToken);
    } catch (error) {
      // Two first sign-ins of one identity at once: the loser's insert collides with the winner's row,
      // and the identity is linked now, so a second attempt signs in through it.
      if (error instanceof DomainError) throw error;
      const linked = await findUserByIdentity(this.deps.database.kysely, identity.issuer, identity.subject);
      if (linked === undefined) throw error;
      return this.attempt(identity, null);
    }
  }

  private async attempt(identity: VerifiedIdentity, inviteToken: string | null): Promise<SignedIn> {
    // Checked before the transaction: an invite is looked up by its token, outside any lock.
    const invite = inviteToken === null ? null : await this.usableInvite(inviteToken);
    return inTransaction(this.deps.database, async (tx) => {
      const now = isoNow(this.deps.clock);
      const signInAs = async (user: UserRow): Promise<SignedIn> => {
        requireActive(user);
        await touchIdentity(tx.db, identity.issuer, identity.subject, now);
        return { user: toUser(user), sessionId: await this.sessions.startSession(tx.db, user.id) };
      };
      const linked = await findUserByIdentity(tx.db, identity.issuer, identity.subject);
      if (linked !== undefined) return signInAs(linked);
      const email = verifiedEmail(identity);
      let person = await findUserByEmailKey(tx.db, emailKey(email));
      if (person !== undefined) {
        requireActive(person);
        const existing = await findIdentityOfUser(tx.db, person.id, identity.issuer);
        // This very identity, linked by a sign-in of it that committed since the read above (on
        // PostgreSQL each statement sees the latest commits): sign in through it.
        if (existing?.subject === identity.subject) return signInAs(person);
        if (existing) {
          throw new SsoRefusal(
            'linked_elsewhere',
            `${person.email} already signs in with another account of this identity provider.`,
          );
        }
      } else if (invite !== null) {
        person = await this.createPerson(tx, email, identity.name, invite.role, now);
        if (!(await markInviteUsed(tx.db, invite.id, person.id, now))) throw inviteInvalid();
      } else if (this.allowedDomains.has(domainOf(email))) {
        person = await this.createPerson(tx, email, identity.name, 'member', now);
      } else {
        throw new SsoRefusal(
          'domain_not_allowed',
          `Addresses at ${domainOf(email)} cannot join this Laneboard by themselves: ask an owner or admin for an invite.`,
        );
      }
      await insertIdentity(tx.db, {
        issuer: identity.issuer,
        subject: identity.subject,
        user_id: person.id,
        email,
        created_at: now,
        last_used_at: now,
      });
      return { user: toUser(person), sessionId: await this.sessions.startSession(tx.db, person.id) };
    });
  }

  private async usableInvite(token: string): Promise<{ id: string; role: Role }> {
    try {
      return await this.people.usableInvite(token);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') throw inviteInvalid();
      throw error;
    }
  }

  private async createPerson(
    tx: Tx,
    email: string,
    name: string | null,
    role: Role,
    now: string,
  ): Promise<UserRow> {
    const row: UserRow = {
      id: newId('usr'),
      email,
      email_key: emailKey(email),
      name: personName(name, email),
      // No password: such a person signs in with single sign-on only, until an operator sets one
      // (`laneboard users reset-password`). An empty hash never verifies.
      password_hash: '',
      role,
      active: 1,
      created_at: now,
      updated_at: now,
    };
    await insertUser(tx.db, row);
    return row;
  }
}

function requireActive(person: UserRow): void {
  if (person.active !== 1) {
    throw new SsoRefusal('deactivated', `${person.email} has been deactivated in this Laneboard.`);
  }
}

function verifiedEmail(identity: VerifiedIdentity): string {
  const email = identity.email?.trim() ?? '';
  if (!EMAIL.test(email) || email.length > 254) {
    throw new SsoRefusal('email_missing', 'The identity provider did not share an email address.');
  }
  if (!identity.emailVerified) {
    throw new SsoRefusal(
      'email_unverified',
      `The identity provider has not verified ${email}: verify it there, then sign in again.`,
    );
  }
  return email;
}

function domainOf(email: string): string {
  return (EMAIL.exec(email)?.[1] ?? '').toLowerCase();
}

/** The provider's name for the person, or the email's local part; within the name limit. */
function personName(name: string | null, email: string): string {
  const chosen = name?.trim() || (email.split('@')[0] as string);
  return chosen.slice(0, LIMITS.authorName);
}

const inviteInvalid = (): SsoRefusal =>
  new SsoRefusal('invite_invalid', 'This invite link is invalid, used or expired.');
