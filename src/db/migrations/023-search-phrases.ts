import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema.js';

/*
 * Phrases at size on PostgreSQL (issue 29). GIN keeps no positions, so a phrase ("deploy staging") was
 * found by every row holding both words, each read from the heap to compare positions: with a common
 * word that is tens of thousands of rows for a phrase in a few hundred, and the phrase p95 was 50 ms at
 * 1.4 million texts. As Elasticsearch's `index_phrases` does, the pairs of adjacent words are indexed
 * too: a second GIN index over an expression, `laneboard_search_bigrams(document)`, whose keys are
 * `word~next` (the lexemes of the document's positions p and p+1). A phrase is then found by its pairs
 * in the index, exactly for two words, and the positions are still compared for longer ones.
 *
 * The pairs live only in the index (422 MB beside the words' 111 MB at full size): stored in the row
 * they would have doubled `search_docs`. The function is declared costly so that the planner never
 * evaluates it row by row in a scan; the query raises work_mem so that its bitmap stays exact and the
 * index's answer needs no recheck (a recheck evaluates the function). SQLite's FTS5 keeps positions in
 * its index and needs nothing here.
 */
export function searchPhrasesMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      // PL/pgSQL, whose plans are kept for the session: an SQL function's body was planned again for
      // every row written, 156 µs a row against 66 here (42 without the index; 5 000 comments).
      await sql`
        create function laneboard_search_bigrams(document tsvector) returns tsvector
        language plpgsql immutable strict parallel safe cost 10000 as $$
        declare
          words text[] := '{}';
          pairs text[] := '{}';
          word text;
          pos integer;
        begin
          for word, pos in select u.lexeme, p from unnest(document) u, unnest(u.positions) p loop
            words[pos] := word;
          end loop;
          for pos in 1 .. coalesce(array_upper(words, 1), 0) - 1 loop
            if words[pos] is not null and words[pos + 1] is not null then
              pairs := pairs || (words[pos] || '~' || words[pos + 1]);
            end if;
          end loop;
          return array_to_tsvector(pairs);
        end $$`.execute(db);
      // The pairs of a phrase's words in to_tsquery syntax, parsed as the documents are (NULL for fewer
      // than two words); with `prefix` the last word is a prefix, as the phrase's own query has it.
      await sql`
        create function laneboard_search_phrase_pairs(phrase text, prefix boolean) returns tsquery
        language sql immutable strict parallel safe as $$
          with words as (
            select u.lexeme, p from unnest(to_tsvector('simple'::regconfig, phrase)) u, unnest(u.positions) p
          )
          select string_agg(
            '''' || replace(replace(a.lexeme || '~' || b.lexeme, '\\', '\\\\'), '''', '''''') || ''''
              || case when prefix and b.p = (select max(p) from words) then ':*' else '' end,
            ' & ')::tsquery
          from words a join words b on b.p = a.p + 1
        $$`.execute(db);
      await sql`set local maintenance_work_mem = '256MB'`.execute(db);
      await sql`create index search_docs_bigram_idx on search_docs
        using gin (laneboard_search_bigrams(document))`.execute(db);
    },
  };
}
