import { expect, it } from 'vitest';
import { type Actor, CLI_OPERATOR as OPERATOR } from '../../src/domain/actor.js';
import type { VerifiedIdentity } from '../../src/domain/people/sso-service.js';
import type { Runtime } from '../../src/runtime.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { describeEachDialect, useFixture } from '../support/dialects.js';
import { testRuntime } from '../support/runtime.js';

const ISSUER = 'https://id.example.com';
const PASSWORD = 'correct horse battery';
let n = 0;

/** A fresh identity at the issuer: a new subject, a verified email in example.com unless told otherwise. */
function identity(overrides: Partial<VerifiedIdentity> = {}): VerifiedIdentity {
  n += 1;
  return {
    issuer: ISSUER,
    subject: `sub-${n}-${Math.random().toString(36).slice(2)}`,
    email: `person${n}@example.com`,
    emailVerified: true,
    name: `Person ${n}`,
    ...overrides,
  };
}

/** The linking rules of single sign-on (issue 30), on the domain service, with password sign-in off. */
describeEachDialect('single sign-on: who an identity signs in', (dialect) => {
  const t = useFixture<{ db: TestDatabase; runtime: Runtime }>(
    `the ${dialect} runtime`,
    async () => {
      const db = await createTestDatabase(dialect);
      const runtime = await testRuntime(db.database, {
        services: { sso: { allowedDomains: ['example.com'] }, people: { passwordSignIn: false } },
      });
      return { db, runtime };
    },
    async ({ db, runtime }) => {
      await runtime.close();
      await db.drop();
    },
  );
  const sso = () => t.runtime.services.sso;
  const people = () => t.runtime.services.people;
  const countPeople = async () => (await people().listPeople(OPERATOR)).length;
  const countIdentities = async () =>
    Number(
      (
        await t.db.database.kysely
          .selectFrom('oidc_identities')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function owner(): Promise<Actor> {
    n += 1;
    const user = await people().createPerson(OPERATOR, {
      email: `owner${n}@elsewhere.example`,
      name: `Owner ${n}`,
      password: PASSWORD,
      role: 'owner',
    });
    return { kind: 'user', origin: 'ui', userId: user.id, name: user.name, role: 'owner' };
  }

  it('creates a member for a verified email in an allowed domain, then finds them by subject', async () => {
    const first = identity({ email: 'Ada@Example.com', name: 'Ada Lovelace' });
    const signedIn = await sso().signIn(first);
    expect(signedIn.user).toMatchObject({ email: 'Ada@Example.com', name: 'Ada Lovelace', role: 'member' });
    expect(signedIn.sessionId).toMatch(/^[\w-]{40,}$/);
    expect(await t.runtime.services.sessions.authenticate(signedIn.sessionId)).not.toBeNull();

    // Later the provider reports another address (and no verification): the subject decides.
    const again = await sso().signIn({ ...first, email: 'ada@other.example', emailVerified: false });
    expect(again.user.id).toBe(signedIn.user.id);
  });

  it('links a person who already exists by verified email (any case), keeping their role', async () => {
    const admin = await people().createPerson(OPERATOR, {
      email: 'grace@corp.example',
      name: 'Grace',
      password: PASSWORD,
      role: 'admin',
    });
    const before = await countPeople();
    const signedIn = await sso().signIn(identity({ email: 'GRACE@corp.example' }));
    expect(signedIn.user).toMatchObject({ id: admin.id, role: 'admin', name: 'Grace' });
    expect(await countPeople()).toBe(before);
  });

  it('creates an invited person with the invite role, whatever the domain; the invite then is used', async () => {
    const invite = await people().createInvite(await owner(), 'admin');
    const signedIn = await sso().signIn(identity({ email: 'linus@outside.example' }), invite.token);
    expect(signedIn.user).toMatchObject({ email: 'linus@outside.example', role: 'admin' });
    await expect(people().lookupInvite(invite.token)).rejects.toMatchObject({ code: 'not_found' });

    const before = [await countPeople(), await countIdentities()];
    await expect(
      sso().signIn(identity({ email: 'second@outside.example' }), invite.token),
    ).rejects.toMatchObject({ reason: 'invite_invalid', code: 'forbidden' });
    expect([await countPeople(), await countIdentities()]).toEqual(before);
  });

  it.each([
    ['an unverified email', { emailVerified: false }, 'email_unverified', /not verified/],
    ['no email', { email: null }, 'email_missing', /did not share an email/],
    ['a domain not allowed', { email: 'eve@evil.example' }, 'domain_not_allowed', /evil\.example.*invite/],
    [
      'a subdomain of an allowed domain',
      { email: 'x@sub.example.com' },
      'domain_not_allowed',
      /sub\.example\.com/,
    ],
  ])('refuses %s and writes nothing', async (_what, overrides, reason, message) => {
    const before = [await countPeople(), await countIdentities()];
    const refusal = sso().signIn(identity(overrides));
    await expect(refusal).rejects.toMatchObject({ code: 'forbidden', reason });
    await expect(refusal).rejects.toThrow(message);
    expect([await countPeople(), await countIdentities()]).toEqual(before);
  });

  it('refuses a deactivated person, linked or found by email', async () => {
    const linked = identity();
    const { user } = await sso().signIn(linked);
    await people().deactivate(OPERATOR, user.id);
    await expect(sso().signIn(linked)).rejects.toMatchObject({ reason: 'deactivated' });
    await expect(sso().signIn(identity({ email: user.email }))).rejects.toMatchObject({
      reason: 'deactivated',
    });
  });

  it('refuses a second account of the same provider for a person already linked', async () => {
    const { user } = await sso().signIn(identity());
    await expect(sso().signIn(identity({ email: user.email }))).rejects.toMatchObject({
      reason: 'linked_elsewhere',
    });
    // Another provider may link the same person.
    const other = await sso().signIn(identity({ issuer: 'https://other.example', email: user.email }));
    expect(other.user.id).toBe(user.id);
  });

  it('signs one identity in several times at once as one person', async () => {
    // Each race may interleave differently: a loser's insert collides with the winner's row, or its
    // read of the person sees the winner's commit and must take the identity there for its own.
    for (let round = 0; round < 8; round++) {
      const same = identity();
      const before = await countPeople();
      const signedIn = await Promise.all([1, 2, 3, 4].map(() => sso().signIn(same)));
      expect(new Set(signedIn.map((s) => s.user.id)).size).toBe(1);
      expect(await countPeople()).toBe(before + 1);
    }
  });

  it('with password sign-in off, accepts an invite with a password only for the owner role', async () => {
    const boss = await owner();
    const memberInvite = await people().createInvite(boss, 'member');
    const account = { email: `invited${n}@example.com`, name: 'Invited', password: PASSWORD };
    const before = await countPeople();
    await expect(people().acceptInvite(memberInvite.token, account)).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/join with SSO/),
    });
    expect(await countPeople()).toBe(before);
    const ownerInvite = await people().createInvite(boss, 'owner');
    await expect(people().acceptInvite(ownerInvite.token, account)).resolves.toMatchObject({
      user: { role: 'owner' },
    });
  });

  it('with password sign-in off, owners still sign in with a password, others are sent to SSO', async () => {
    const sessions = t.runtime.services.sessions;
    const boss = await owner();
    const ownerEmail = (await people().getPerson(OPERATOR, (boss as { userId: string }).userId)).email;
    await expect(sessions.signIn(ownerEmail, PASSWORD, null)).resolves.toMatchObject({
      user: { role: 'owner' },
    });
    const member = await people().createPerson(OPERATOR, {
      email: `member${n}@example.com`,
      name: 'Member',
      password: PASSWORD,
      role: 'member',
    });
    await expect(sessions.signIn(member.email, PASSWORD, null)).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Sign in with SSO/),
    });
    // A wrong password is still just wrong: the refusal above is only for a correct one.
    await expect(sessions.signIn(member.email, 'wrong password!', null)).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    // A person made by single sign-on has no password at all.
    const ssoOnly = await sso().signIn(identity());
    await expect(sessions.signIn(ssoOnly.user.email, '', null)).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
  });
});
