import { type SearchKind, searchDocs } from '../../db/repositories/search.js';
import { requireBoardPermission } from '../access.js';
import type { Actor } from '../actor.js';
import { invalid } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { callerMember } from '../tasks/task-assignees.js';
import { encodeSearchCursor, MAX_SEARCH_OFFSET, queryDigest, searchCursorOffset } from './search-cursor.js';
import { canonicalQuery, parseSearchQuery } from './search-query.js';
import { buildSnippet } from './search-snippet.js';

export type { SearchKind };
export const SEARCH_KINDS: readonly SearchKind[] = ['task', 'comment', 'todo', 'turn'];
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;

export interface SearchRequest {
  q: string;
  /** Only this board (the caller must be able to read it). */
  boardId?: string;
  limit?: number;
  cursor?: string;
  /** Only these kinds of text. */
  kinds?: readonly SearchKind[];
  /** Only texts of tasks assigned to this member: `me` or a member id. */
  assignee?: string;
  /** Archived tasks (and their comments, todos and turns) are left out unless asked for. */
  includeArchived?: boolean;
}

export interface SearchResult {
  kind: SearchKind;
  boardId: string;
  taskId: string;
  shortId: string;
  /** The task's title, whatever kind of text matched. */
  title: string;
  /** The matched comment's, todo's or turn's id (the web UI opens the task at it); null for a task. */
  itemId: string | null;
  /** Plain text around the match, each matched word between `[[` and `]]` (search-snippet.ts). */
  snippet: string;
}

export interface SearchPage {
  data: SearchResult[];
  /** Opaque; null when no more results (or the first 1 000 have been paged through). */
  cursor: string | null;
}

/**
 * Full-text search over the boards the actor can read: the one query path of the external API, the
 * web UI and MCP (through the external API). Best match first: bm25 on SQLite, ts_rank_cd on
 * PostgreSQL, with a title word above a tag above other text.
 */
export class SearchService {
  constructor(private readonly deps: ServiceDeps) {}

  async search(actor: Actor, request: SearchRequest): Promise<SearchPage> {
    const terms = parseSearchQuery(request.q);
    const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      throw invalid('limit', `must be an integer from 1 to ${MAX_SEARCH_LIMIT}.`);
    }
    const kinds =
      request.kinds === undefined || request.kinds.length === 0 ? null : [...new Set(request.kinds)].sort();
    if (kinds?.some((k) => !SEARCH_KINDS.includes(k))) {
      throw invalid('kind', `must be among ${SEARCH_KINDS.join(', ')}.`);
    }
    const boardIds = readableBoards(actor, request.boardId);
    const memberId =
      request.assignee === undefined
        ? null
        : request.assignee === 'me'
          ? callerMember(actor, 'assignee').id
          : request.assignee;
    const includeArchived = request.includeArchived === true;
    const digest = queryDigest([
      canonicalQuery(terms),
      request.boardId ?? null,
      kinds,
      memberId,
      includeArchived,
    ]);
    const offset = request.cursor === undefined ? 0 : searchCursorOffset(request.cursor, digest);
    if (boardIds !== null && boardIds.length === 0) return { data: [], cursor: null };

    // An offset never passes MAX_SEARCH_OFFSET; one row more than the page tells whether more follow.
    const pageSize = Math.min(limit, MAX_SEARCH_OFFSET - offset);
    const hits = await searchDocs(this.deps.database.kysely, this.deps.database.dialect, {
      terms,
      boardIds,
      kinds,
      memberId,
      includeArchived,
      limit: pageSize + 1,
      offset,
    });
    const page = hits.slice(0, pageSize);
    const next = offset + page.length;
    const more = hits.length > page.length && next < MAX_SEARCH_OFFSET;
    return {
      data: page.map((hit) => ({
        kind: hit.kind,
        boardId: hit.boardId,
        taskId: hit.taskId,
        shortId: hit.shortId,
        title: hit.title,
        itemId: hit.kind === 'task' ? null : hit.refId,
        snippet: buildSnippet(hit.texts, terms),
      })),
      cursor: more ? encodeSearchCursor(digest, next) : null,
    };
  }
}

/** The boards to search: the one asked for (403 unless readable), else every readable one (null: all). */
function readableBoards(actor: Actor, boardId: string | undefined): string[] | null {
  if (boardId !== undefined) {
    requireBoardPermission(actor, boardId, 'read');
    return [boardId];
  }
  if (actor.kind === 'api_key' && !actor.allBoards) return [...actor.grants.keys()];
  return null;
}
