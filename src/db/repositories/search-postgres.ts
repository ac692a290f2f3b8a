import { type Kysely, sql } from 'kysely';
import { SEARCH_SOURCES } from '../migrations/017-search-index.js';
import type { DB, Executor } from '../schema.js';
import {
  andAll,
  type PageRow,
  SEARCH_CANDIDATES,
  type SearchFilter,
  type SearchHit,
  type SearchTerm,
  searchConditions,
  type TextRow,
  textsOf,
  toHits,
} from './search-shared.js';

/** ts_rank_cd normalisation 1: divides by 1 + log(length), so long turns do not win by length alone. */
const RANK = sql.raw('ts_rank_cd(d.document, query, 1)');

/**
 * A term in to_tsquery syntax. Tokens hold only letters and digits (the domain's parser keeps nothing
 * else), so quoting each one is enough; the whole string still travels as a bound parameter.
 */
function tsTerm(term: SearchTerm): string {
  const words = term.tokens.map((token, i) =>
    term.prefix && i === term.tokens.length - 1 ? `'${token}':*` : `'${token}'`,
  );
  const phrase = words.length === 1 ? (words[0] as string) : `(${words.join(' <-> ')})`;
  return term.excluded ? `!${phrase}` : phrase;
}

export function tsQuery(terms: SearchTerm[]): string {
  return [...terms.filter((t) => !t.excluded), ...terms.filter((t) => t.excluded)].map(tsTerm).join(' & ');
}

/** The texts of the page's rows, by kind, from the source rows left-joined by `search_docs.ref_id`. */
const TEXT_COLUMNS = sql.raw(
  ['title', 'tags', 'body']
    .map(
      (column) =>
        `case d.kind ${SEARCH_SOURCES.map((s) => `when '${s.kind}' then ${s.postgresTexts(s.alias)[column as 'title' | 'tags' | 'body']}`).join(' ')} end as ${column}`,
    )
    .join(', '),
);
const SOURCE_JOINS = sql.raw(
  SEARCH_SOURCES.map(
    (s) => `left join ${s.table} ${s.alias} on d.kind = '${s.kind}' and ${s.alias}.id = d.ref_id`,
  ).join(' '),
);

/**
 * The pairs of adjacent words of the phrases, as one tsquery text (null when none parses to two words),
 * parsed by PostgreSQL as the documents are. The same statement raises work_mem for the rest of the
 * transaction: a common pair (two words in most texts) matches a few hundred thousand rows, whose bitmap
 * turns lossy with the default 4 MB, and every row of a lossy page is checked again by evaluating the
 * pair function (180 ms instead of 28 at full size).
 */
async function phrasePairs(tx: Executor, phrases: SearchTerm[]): Promise<string | null> {
  const { rows } = await sql<{ pairs: (string | null)[] }>`
    select set_config('work_mem', '32MB', true), array[${sql.join(
      phrases.map((t) => sql`laneboard_search_phrase_pairs(${t.tokens.join(' ')}, ${t.prefix})::text`),
    )}] as pairs`.execute(tx);
  const pairs = (rows[0]?.pairs ?? []).filter((p): p is string => p !== null);
  return pairs.length === 0 ? null : pairs.map((p) => `(${p})`).join(' & ');
}

/**
 * The page's rows. The candidates: the first SEARCH_CANDIDATES matches that pass the filters (in the
 * order the scan finds them), ranked; a query matching fewer is ranked whole. ts_rank_cd reads each
 * match's positions, so ranking every match of a common word would cost seconds at size. The page is
 * cut from them before anything else is read: only its rows read their task. With a phrase, the rows
 * come from the index of word pairs, and the words' own index is kept out of the plan (ts_match_vq is
 * @@ without an operator the planner could give to an index): a phrase's pairs are rarer than its words.
 */
function pageRows(db: Executor, filter: SearchFilter, query: string, pairs: string | null) {
  const match =
    pairs === null
      ? sql`d.document @@ query`
      : sql`laneboard_search_bigrams(d.document) @@ ${pairs}::tsquery and ts_match_vq(d.document, query)`;
  return sql<PageRow>`
    with candidates as (
      select d.ref_id, ${RANK} as score
      from search_docs d
      cross join to_tsquery('simple', ${query}) query
      where ${match} ${andAll(searchConditions(filter))}
      limit ${SEARCH_CANDIDATES}
    ), page as (
      select ref_id, score from candidates
      order by score desc, ref_id
      limit ${filter.limit} offset ${filter.offset}
    )
    select d.ref_id as doc, d.kind, d.ref_id, d.task_id, d.board_id, t.short_id, t.title
    from page p
    join search_docs d on d.ref_id = p.ref_id
    join tasks t on t.id = d.task_id
    order by p.score desc, p.ref_id`.execute(db);
}

/** Opens its own transaction for a phrase (its work_mem is the transaction's): `db` is not one. */
export async function searchPostgres(db: Kysely<DB>, filter: SearchFilter): Promise<SearchHit[]> {
  const query = tsQuery(filter.terms);
  // Phrases of two words or more are found through the index of pairs (migration 023).
  const phrases = filter.terms.filter((t) => !t.excluded && t.tokens.length > 1);
  const { rows } =
    phrases.length === 0
      ? await pageRows(db, filter, query, null)
      : await db
          .transaction()
          .execute(async (tx) => pageRows(tx, filter, query, await phrasePairs(tx, phrases)));
  if (rows.length === 0) return [];
  const { rows: texts } = await sql<TextRow>`
    select d.ref_id, ${TEXT_COLUMNS}
    from search_docs d ${SOURCE_JOINS}
    where d.ref_id in (${sql.join(rows.map((r) => r.ref_id))})`.execute(db);
  return toHits(rows, textsOf(texts));
}
