import type { Kysely } from 'kysely';
import type { DB, Dialect } from '../schema.js';
import { searchPostgres } from './search-postgres.js';
import type { SearchFilter, SearchHit } from './search-shared.js';
import { searchSqlite } from './search-sqlite.js';

export type {
  SearchFilter,
  SearchHit,
  SearchKind,
  SearchTerm,
} from './search-shared.js';

/** Best match first, then by id, so pages never repeat or skip a row of an unchanged index. */
export function searchDocs(db: Kysely<DB>, dialect: Dialect, filter: SearchFilter): Promise<SearchHit[]> {
  return dialect === 'postgres' ? searchPostgres(db, filter) : searchSqlite(db, filter);
}
