import type { Kysely } from 'kysely';

/*
 * Single sign-on (issue 30): a person's OpenID Connect identities. After the first sign-in a person is
 * found by the issuer and the subject the identity provider gives them, never again by email: an email
 * address can change hands at the provider, the subject cannot.
 */
export const oidcIdentitiesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('oidc_identities')
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // The verified email the identity was linked by (information: people are matched by subject).
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('oidc_identities_pk', ['issuer', 'subject'])
      .execute();
    // One identity per person and issuer: a second account at the same provider cannot take a person over.
    await db.schema
      .createIndex('oidc_identities_user_issuer_idx')
      .on('oidc_identities')
      .columns(['user_id', 'issuer'])
      .unique()
      .execute();
  },
};
