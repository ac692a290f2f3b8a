import { type RawBuilder, sql } from 'kysely';

export type SearchKind = 'task' | 'comment' | 'todo' | 'turn';

/**
 * One term of a parsed query: its words (letters and digits only, lowercased: nothing else ever reaches
 * a full-text query string), a phrase when several; `prefix` marks the last word as a prefix.
 */
export interface SearchTerm {
  tokens: string[];
  excluded: boolean;
  prefix: boolean;
}

export interface SearchFilter {
  /** At least one term is not excluded. */
  terms: SearchTerm[];
  /** Null: every board. */
  boardIds: string[] | null;
  /** Null: every kind. */
  kinds: SearchKind[] | null;
  /** Only texts of tasks this member is assigned to. */
  memberId: string | null;
  includeArchived: boolean;
  limit: number;
  offset: number;
}

export interface SearchHit {
  kind: SearchKind;
  refId: string;
  taskId: string;
  boardId: string;
  shortId: string;
  title: string;
  /** The matched row's texts, a snippet is cut from: a task's title, tags and description, else one text. */
  texts: string[];
}

/**
 * How many matches are ranked at most: a query matching more texts ranks the newest this many (ranking
 * reads every ranked match's positions, which would make a common word cost seconds at size).
 */
export const SEARCH_CANDIDATES = 1000;

/**
 * The filters both dialects apply to the candidates, `search_docs d` alone: it keeps each text's board
 * and whether its task is archived (migration 020), so no candidate reads its task row.
 */
export function searchConditions(filter: SearchFilter): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  if (!filter.includeArchived) conditions.push(sql`d.archived = 0`);
  if (filter.boardIds !== null) {
    conditions.push(sql`d.board_id in (${sql.join(filter.boardIds)})`);
  }
  if (filter.kinds !== null) conditions.push(sql`d.kind in (${sql.join(filter.kinds)})`);
  if (filter.memberId !== null) {
    conditions.push(
      sql`exists (select 1 from task_assignees a where a.task_id = d.task_id and a.member_id = ${filter.memberId})`,
    );
  }
  return conditions;
}

/** `and c1 and c2 ...`, or nothing. */
export function andAll(conditions: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return conditions.length === 0 ? sql`` : sql`and ${sql.join(conditions, sql` and `)}`;
}

export interface PageRow {
  doc: string | number;
  kind: SearchKind;
  ref_id: string;
  task_id: string;
  board_id: string;
  short_id: string;
  title: string;
}

export function toHits(rows: PageRow[], texts: Map<string, string[]>): SearchHit[] {
  return rows.map((row) => ({
    kind: row.kind,
    refId: row.ref_id,
    taskId: row.task_id,
    boardId: row.board_id,
    shortId: row.short_id,
    title: row.title,
    texts: texts.get(row.ref_id) ?? [],
  }));
}

/** A text row: a task's title, tags (words separated by spaces) and description, or the text in `body`. */
export interface TextRow {
  ref_id: string;
  title: string | null;
  tags: string | null;
  body: string | null;
}

export function textsOf(rows: TextRow[]): Map<string, string[]> {
  return new Map(
    rows.map((r) => [r.ref_id, [r.title ?? '', r.tags ?? '', r.body ?? ''].filter((t) => t !== '')]),
  );
}
