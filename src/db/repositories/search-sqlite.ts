import { sql } from 'kysely';
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

/** bm25 weights of FTS5's columns (title, tags, body): a title word counts most, then a tag. */
const BM25 = sql.raw('bm25(search_fts, 10.0, 4.0, 1.0)');

/** A term as FTS5 syntax: a quoted phrase of its words (only letters and digits), `*` for a prefix. */
function ftsTerm(term: SearchTerm): string {
  return `"${term.tokens.join(' ')}"${term.prefix ? '*' : ''}`;
}

/** `("a" "b"*) NOT "c"`: every positive term, then each excluded one taken away. */
export function ftsQuery(terms: SearchTerm[]): string {
  const positive = terms.filter((t) => !t.excluded).map(ftsTerm);
  const excluded = terms.filter((t) => t.excluded).map((t) => ` NOT ${ftsTerm(t)}`);
  return `(${positive.join(' ')})${excluded.join('')}`;
}

export async function searchSqlite(db: Executor, filter: SearchFilter): Promise<SearchHit[]> {
  const match = ftsQuery(filter.terms);
  // The candidates: the newest matches that pass the filters, in FTS5's rowid order, so the scan stops
  // after SEARCH_CANDIDATES rows; bm25 is computed for those only (it reads each match's positions).
  // The page is cut from them before anything else is read: only its rows read their task.
  const { rows } = await sql<PageRow>`
    with candidates as (
      select f.rowid as doc, ${BM25} as score
      from search_fts f
      join search_docs d on d.id = f.rowid
      where search_fts match ${match} ${andAll(searchConditions(filter))}
      order by f.rowid desc
      limit ${SEARCH_CANDIDATES}
    ), page as (
      select doc, score from candidates
      order by score, doc
      limit ${filter.limit} offset ${filter.offset}
    )
    select d.id as doc, d.kind, d.ref_id, d.task_id, d.board_id, t.short_id, t.title
    from page p
    join search_docs d on d.id = p.doc
    join tasks t on t.id = d.task_id
    order by p.score, p.doc`.execute(db);
  if (rows.length === 0) return [];
  // The texts through the view FTS5 reads them from (snippet() would re-run the query once per row).
  const { rows: texts } = await sql<TextRow>`
    select d.ref_id, c.title, c.tags, c.body
    from search_content c join search_docs d on d.id = c.id
    where c.id in (${sql.join(rows.map((r) => r.doc))})`.execute(db);
  return toHits(rows, textsOf(texts));
}
