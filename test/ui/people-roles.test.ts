import { expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.js';
import { describeEachDialect } from '../support/dialects.js';
import { buildUiTestApp, GOOD_PASSWORD, OPERATOR, useUiTestApp } from './ui-support.js';

type Role = 'owner' | 'admin' | 'member';
let n = 0;

/** Every role rule of issue 10, on the domain services, as each role. */
describeEachDialect('people and role rules', (dialect) => {
  const t = useUiTestApp(dialect);

  async function actor(role: Role): Promise<Actor & { kind: 'user' }> {
    n += 1;
    const user = await t.services.people.createPerson(OPERATOR, {
      email: `r${n}@example.com`,
      name: `R${n}`,
      password: GOOD_PASSWORD,
      role,
    });
    return { kind: 'user', origin: 'ui', userId: user.id, name: user.name, role };
  }

  const forbidden = { code: 'forbidden' };
  const notFound = { code: 'not_found' };
  const conflict = { code: 'conflict' };

  it('members manage no people, invites or webhooks', async () => {
    const member = await actor('member');
    const other = await actor('member');
    const people = t.services.people;
    await expect(people.listPeople(member)).rejects.toMatchObject(forbidden);
    await expect(people.changeRole(member, other.userId, 'admin')).rejects.toMatchObject(forbidden);
    await expect(people.deactivate(member, other.userId)).rejects.toMatchObject(forbidden);
    await expect(people.createInvite(member, 'member')).rejects.toMatchObject(forbidden);
    await expect(people.listInvites(member)).rejects.toMatchObject(forbidden);
    await expect(people.revokeInvite(member, 'inv_x')).rejects.toMatchObject(forbidden);
    await expect(t.services.webhooks.listWebhooks(member)).rejects.toMatchObject(forbidden);
    await expect(t.services.webhookConsole.list(member)).rejects.toMatchObject(forbidden);
    await expect(
      t.services.webhooks.createWebhook(member, {
        url: 'http://127.0.0.1:9/x',
        events: ['*'],
        apiKeyId: 'key_x',
      }),
    ).rejects.toMatchObject(forbidden);
  });

  it('members manage their own keys only; owners and admins see and revoke every key', async () => {
    const board = await t.services.boards.createBoard(OPERATOR, { name: 'Keys board' });
    const alice = await actor('member');
    const bob = await actor('member');
    const admin = await actor('admin');
    const owner = await actor('owner');
    const keys = t.services.keyConsole;
    const mine = await keys.create(alice, {
      name: 'alice key',
      allBoards: false,
      grants: [{ boardId: board.id, permission: 'read' }],
    });
    expect(mine.owner).toEqual({ id: alice.userId, name: alice.name });
    expect(mine.key).toMatch(/^ak_/);
    expect(mine.prefix).toBe(mine.key.slice(0, 7));
    const cliKey = await t.services.apiKeys.createKey(OPERATOR, {
      name: 'cli key',
      allBoards: true,
      grants: [],
    });

    const aliceSees = (await keys.list(alice)).map((k) => k.id);
    expect(aliceSees).toEqual([mine.id]);
    expect(await keys.list(bob)).toEqual([]);
    for (const manager of [admin, owner]) {
      const ids = (await keys.list(manager)).map((k) => k.id);
      expect(ids).toEqual(expect.arrayContaining([mine.id, cliKey.id]));
      expect((await keys.list(manager)).find((k) => k.id === cliKey.id)?.owner).toBeNull();
    }
    // Another person's key is "not found" for a member, whatever the operation.
    await expect(keys.reveal(bob, mine.id, GOOD_PASSWORD)).rejects.toMatchObject(notFound);
    await expect(keys.setAccess(bob, mine.id, { allBoards: true, grants: [] })).rejects.toMatchObject(
      notFound,
    );
    await expect(keys.revoke(bob, mine.id)).rejects.toMatchObject(notFound);
    await expect(keys.revoke(alice, cliKey.id)).rejects.toMatchObject(notFound);

    // Reveal asks for the password again and is recorded.
    await expect(keys.reveal(alice, mine.id, 'not the password')).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    expect(await keys.reveal(alice, mine.id, GOOD_PASSWORD)).toEqual({ id: mine.id, key: mine.key });
    expect(await keys.reveal(admin, mine.id, GOOD_PASSWORD)).toEqual({ id: mine.id, key: mine.key });
    const reveals = (await keys.get(owner, mine.id)).reveals;
    expect(reveals.map((r) => r.user.id)).toEqual([admin.userId, alice.userId]);

    const changed = await keys.setAccess(alice, mine.id, {
      allBoards: false,
      grants: [{ boardId: board.id, permission: 'edit' }],
    });
    expect(changed.grants).toEqual([{ boardId: board.id, boardName: 'Keys board', permission: 'edit' }]);

    expect(await keys.revoke(admin, mine.id)).toMatchObject({ id: mine.id, webhooksRemoved: 0 });
    expect(await keys.list(alice)).toEqual([]);
    // Keys themselves manage no keys.
    const asKey = await t.services.apiKeys.authenticate(cliKey.key);
    await expect(keys.list(asKey as Actor)).rejects.toMatchObject(forbidden);
  });

  it('admins manage members and admins but not owners', async () => {
    const admin = await actor('admin');
    const owner = await actor('owner');
    const member = await actor('member');
    const people = t.services.people;
    expect((await people.listPeople(admin)).map((p) => p.id)).toEqual(
      expect.arrayContaining([admin.userId, owner.userId]),
    );
    expect((await people.changeRole(admin, member.userId, 'admin')).role).toBe('admin');
    expect((await people.changeRole(admin, member.userId, 'member')).role).toBe('member');
    await expect(people.changeRole(admin, member.userId, 'owner')).rejects.toMatchObject(forbidden);
    await expect(people.changeRole(admin, owner.userId, 'admin')).rejects.toMatchObject(forbidden);
    await expect(people.deactivate(admin, owner.userId)).rejects.toMatchObject(forbidden);
    await expect(people.createInvite(admin, 'owner')).rejects.toMatchObject(forbidden);
    expect((await people.createInvite(admin, 'admin')).role).toBe('admin');
    await expect(people.changeRole(admin, member.userId, 'root')).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(people.changeRole(admin, 'usr_missing', 'member')).rejects.toMatchObject(notFound);
  });

  it("deactivation ends sessions and revokes the person's keys with their webhooks", async () => {
    const admin = await actor('admin');
    const member = await actor('member');
    const signedIn = await t.services.sessions.signIn(`r${n}@example.com`, GOOD_PASSWORD, null);
    const key = await t.services.keyConsole.create(member, { name: 'm', allBoards: true, grants: [] });
    await t.services.webhooks.createWebhook(admin, {
      url: 'http://127.0.0.1:9/hook',
      events: ['*'],
      apiKeyId: key.id,
    });
    expect((await t.services.keyConsole.get(admin, key.id)).webhookCount).toBe(1);

    const result = await t.services.people.deactivate(admin, member.userId);
    expect(result.active).toBe(false);
    expect(await t.services.sessions.authenticate(signedIn.sessionId)).toBeNull();
    expect(await t.services.apiKeys.authenticate(key.key)).toBeNull();
    expect(
      (await t.services.webhooks.listWebhooks(admin)).filter((w) => w.url === 'http://127.0.0.1:9/hook'),
    ).toEqual([]);
    await expect(t.services.sessions.signIn(`r${n}@example.com`, GOOD_PASSWORD, null)).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('protects the last active owner', async () => {
    // A fresh database: exactly one owner.
    const solo = await buildUiTestApp(dialect);
    try {
      const user = await solo.services.people.createPerson(OPERATOR, {
        email: 'solo@example.com',
        name: 'Solo',
        password: GOOD_PASSWORD,
        role: 'owner',
      });
      const ownerActor: Actor = {
        kind: 'user',
        origin: 'ui',
        userId: user.id,
        name: 'Solo',
        role: 'owner',
      };
      await expect(solo.services.people.changeRole(ownerActor, user.id, 'admin')).rejects.toMatchObject(
        conflict,
      );
      await expect(solo.services.people.deactivate(ownerActor, user.id)).rejects.toMatchObject(conflict);
      await expect(solo.services.people.deactivate(OPERATOR, user.id)).rejects.toMatchObject(conflict);
      const second = await solo.services.people.createPerson(OPERATOR, {
        email: 'two@example.com',
        name: 'Two',
        password: GOOD_PASSWORD,
        role: 'admin',
      });
      expect((await solo.services.people.changeRole(ownerActor, second.id, 'owner')).role).toBe('owner');
      expect((await solo.services.people.changeRole(ownerActor, user.id, 'member')).role).toBe('member');
      await expect(solo.services.people.deactivate(OPERATOR, second.id)).rejects.toMatchObject(conflict);
    } finally {
      await solo.close();
    }
  });

  it('invite links carry a role, work once and expire after 7 days', async () => {
    const admin = await actor('admin');
    const invite = await t.services.people.createInvite(admin, 'admin');
    expect(invite.url).toBe(`/invite/${invite.token}`);
    expect(Date.parse(invite.expiresAt) - Date.parse(invite.createdAt)).toBe(7 * 24 * 3_600_000);
    expect((await t.services.people.listInvites(admin)).map((i) => i.id)).toContain(invite.id);
    expect(await t.services.people.lookupInvite(invite.token)).toEqual({
      role: 'admin',
      expiresAt: invite.expiresAt,
    });
    const joined = await t.services.people.acceptInvite(invite.token, {
      email: 'joiner@example.com',
      name: 'Joiner',
      password: GOOD_PASSWORD,
    });
    expect(joined.user).toMatchObject({ role: 'admin', email: 'joiner@example.com' });
    await expect(
      t.services.people.acceptInvite(invite.token, {
        email: 'again@example.com',
        name: 'A',
        password: GOOD_PASSWORD,
      }),
    ).rejects.toMatchObject(notFound);
    expect((await t.services.people.listInvites(admin)).map((i) => i.id)).not.toContain(invite.id);

    const expiring = await t.services.people.createInvite(admin, 'member');
    t.clock.advance(7 * 24 * 3_600_000);
    await expect(t.services.people.lookupInvite(expiring.token)).rejects.toMatchObject(notFound);
    await expect(
      t.services.people.acceptInvite(expiring.token, {
        email: 'late@example.com',
        name: 'L',
        password: GOOD_PASSWORD,
      }),
    ).rejects.toMatchObject(notFound);

    const revoked = await t.services.people.createInvite(admin, 'member');
    await t.services.people.revokeInvite(admin, revoked.id);
    await expect(t.services.people.lookupInvite(revoked.token)).rejects.toMatchObject(notFound);
    await expect(t.services.people.lookupInvite('made-up')).rejects.toMatchObject(notFound);
  });
});
