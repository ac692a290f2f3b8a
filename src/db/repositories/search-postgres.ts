import { sql } from 'kysely';
import { SEARCH_SOURCES } from '../migrations/017-search-index.js';
import type { Executor } from '../schema.js';
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
 * The pairs of adjacent words of the query's phrases (migration 023), as one tsquery text; null when it
 * has no phrase of two words or more. Parsed by PostgreSQL as the documents are.
 */
async function phrasePairs(db: Executor, terms: SearchTerm[]): Promise<string | null> {
  const phrases = terms.filter((t) => !t.excluded && t.tokens.length > 1);
  if (phrases.length === 0) return null;
  const { rows } = await sql<{ pairs: (string | null)[] }>`select array[${sql.join(
    phrases.map((t) => sql`laneboard_search_phrase_pairs(${t.tokens.join(' ')}, ${t.prefix})::text`),
  )}] as pairs`.execute(db);
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

/**
 * A common pair (two words in most texts) matches a few hundred thousand rows: with the default 4 MB of
 * work_mem their bitmap turns lossy, and every row of a lossy page is checked again by evaluating the
 * pair function (180 ms instead of 28 at full size), so the pair query runs with more, for itself only.
 */
const PAIRS_WORK_MEM = sql.raw(`set local work_mem = '32MB'`);

export async function searchPostgres(db: Executor, filter: SearchFilter): Promise<SearchHit[]> {
  const query = tsQuery(filter.terms);
  const pairs = await phrasePairs(db, filter.terms);
  const withPairs = async (tx: Executor) => {
    await PAIRS_WORK_MEM.execute(tx);
    return pageRows(tx, filter, query, pairs);
  };
  const { rows } =
    pairs === null
      ? await pageRows(db, filter, query, null)
      : db.isTransaction
        ? await withPairs(db)
        : await db.transaction().execute(withPairs);
  if (rows.length === 0) return [];
  const { rows: texts } = await sql<TextRow>`
    select d.ref_id, ${TEXT_COLUMNS}
    from search_docs d ${SOURCE_JOINS}
    where d.ref_id in (${sql.join(rows.map((r) => r.ref_id))})`.execute(db);
  return toHits(rows, textsOf(texts));
}
