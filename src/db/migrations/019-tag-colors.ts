import type { Kysely } from 'kysely';

/*
 * Tag colours chosen per board (issue 27). A tag without a row shows the colour derived from its name
 * (domain/boards/tag-color-rules.ts), so only deliberate choices are stored; choosing the derived
 * colour again deletes the row. A tag is not an entity of its own (tasks hold their tags as a list), so
 * a row may outlive the last task with its tag and applies again when the tag comes back, as a label's
 * colour would. Deleting the board deletes its colours.
 */
export const tagColorsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('board_tag_colors')
      .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
      .addColumn('tag', 'text', (c) => c.notNull())
      // One of TAG_COLORS (src/schemas/tag-colors.ts): a name, never a CSS value.
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('board_tag_colors_pk', ['board_id', 'tag'])
      .execute();
  },
};
