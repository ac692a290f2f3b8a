import type { Executor, OidcIdentityRow, UserRow } from '../schema.js';

/** The person an identity (issuer + subject) is linked to, with the identity, if it is linked. */
export async function findUserByIdentity(
  db: Executor,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('oidc_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .selectAll('u')
    .where('i.issuer', '=', issuer)
    .where('i.subject', '=', subject)
    .executeTakeFirst();
}

/** The identity a person holds at an issuer, if any (one per person and issuer). */
export async function findIdentityOfUser(
  db: Executor,
  userId: string,
  issuer: string,
): Promise<OidcIdentityRow | undefined> {
  return db
    .selectFrom('oidc_identities')
    .selectAll()
    .where('user_id', '=', userId)
    .where('issuer', '=', issuer)
    .executeTakeFirst();
}

export async function insertIdentity(db: Executor, row: OidcIdentityRow): Promise<void> {
  await db.insertInto('oidc_identities').values(row).execute();
}

export async function touchIdentity(
  db: Executor,
  issuer: string,
  subject: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('oidc_identities')
    .set({ last_used_at: at })
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .execute();
}
