import { findApiKeyById, listApiKeys } from '../../db/repositories/api-keys.js';
import {
  agentNames,
  grantsWithBoardNames,
  insertReveal,
  ownerNames,
  revealsOf,
  webhookCountsByKey,
} from '../../db/repositories/settings-console.js';
import type { ApiKeyRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import type { Actor, Permission } from '../actor.js';
import type { AgentService } from '../agents/agent-service.js';
import { type ApiKeyService, type BoardGrant, keyOwnerScope } from '../api-keys/api-key-service.js';
import { notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import type { PeopleService } from './people-service.js';
import { requireUser } from './roles.js';

const REVEALS_SHOWN = 20;
const PREFIX_LENGTH = 7;

export interface PersonRef {
  id: string;
  name: string;
}

export interface KeyListItem {
  id: string;
  name: string;
  prefix: string;
  owner: PersonRef | null;
  /** The agent the key belongs to (it then acts as the agent); null for people's and the CLI's keys. */
  agent: PersonRef | null;
  createdAt: string;
  lastUsedAt: string | null;
  allBoards: boolean;
  grants: Array<{ boardId: string; boardName: string; permission: Permission }>;
  webhookCount: number;
  reveals: Array<{ at: string; user: PersonRef }>;
}

/**
 * Settings > API Keys: the key list with what it shows beside each key, and reveals that re-check the
 * password and are recorded. The rules (who sees and manages which key) are ApiKeyService's.
 */
export class KeyConsole {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly apiKeys: ApiKeyService,
    private readonly people: PeopleService,
    private readonly agents: AgentService,
  ) {}

  async list(actor: Actor): Promise<KeyListItem[]> {
    return this.describe(await this.visibleKeys(actor));
  }

  async get(actor: Actor, id: string): Promise<KeyListItem> {
    const scope = keyOwnerScope(actor);
    const row = await findApiKeyById(this.deps.database.kysely, id);
    if (!row || row.revoked_at !== null || (scope !== null && row.owner_user_id !== scope)) {
      throw notFound(`API key ${id}`);
    }
    const [item] = await this.describe([row]);
    return item as KeyListItem;
  }

  async create(
    actor: Actor,
    input: { name: string; allBoards: boolean; grants: BoardGrant[]; agentId?: string },
  ): Promise<KeyListItem & { key: string }> {
    const created = await this.apiKeys.createKey(actor, input);
    return { ...(await this.get(actor, created.id)), key: created.key };
  }

  /** Settings › Agents: the agent's active keys as the key list shows them; 404 for an unknown agent. */
  async listForAgent(actor: Actor, agentId: string): Promise<KeyListItem[]> {
    const ids = await this.agents.keyIdsOf(actor, agentId);
    // Only the agent's keys are described (grants, owners, reveals, webhooks), not the whole list.
    return this.describe((await this.visibleKeys(actor)).filter((row) => ids.has(row.id)));
  }

  /**
   * A key that acts as the agent named in the path: 404 for an unknown agent (the addressed resource),
   * where `createKey`'s `agentId` in a body answers 400; 400 for a deactivated one.
   */
  async createForAgent(
    actor: Actor,
    agentId: string,
    input: { name: string; allBoards: boolean; grants: BoardGrant[] },
  ): Promise<KeyListItem & { key: string }> {
    await this.agents.getAgent(actor, agentId);
    return this.create(actor, { ...input, agentId });
  }

  async setAccess(
    actor: Actor,
    id: string,
    input: { allBoards: boolean; grants: BoardGrant[] },
  ): Promise<KeyListItem> {
    await this.apiKeys.setAccess(actor, id, input);
    return this.get(actor, id);
  }

  /** Asks for the person's password again, then returns the key and records who revealed it when. */
  async reveal(actor: Actor, id: string, password: string): Promise<{ id: string; key: string }> {
    const me = requireUser(actor);
    await this.get(actor, id);
    await this.people.confirmPassword(actor, password);
    const revealed = await this.apiKeys.revealKey(actor, id);
    await insertReveal(this.deps.database.kysely, {
      id: newId('rvl'),
      api_key_id: id,
      user_id: me.userId,
      at: isoNow(this.deps.clock),
    });
    return revealed;
  }

  async revoke(
    actor: Actor,
    id: string,
  ): Promise<{ id: string; revokedAt: string; webhooksRemoved: number }> {
    await this.get(actor, id);
    const revoked = await this.apiKeys.revokeApiKey(actor, id);
    return { id, revokedAt: revoked.revokedAt as string, webhooksRemoved: revoked.webhooksRemoved };
  }

  /** The active keys the actor sees: all of them, or a member's own. */
  private async visibleKeys(actor: Actor): Promise<ApiKeyRow[]> {
    const scope = keyOwnerScope(actor);
    return (await listApiKeys(this.deps.database.kysely)).filter(
      (row) => row.revoked_at === null && (scope === null || row.owner_user_id === scope),
    );
  }

  private async describe(rows: ApiKeyRow[]): Promise<KeyListItem[]> {
    const db = this.deps.database.kysely;
    const ids = rows.map((r) => r.id);
    const owners = await ownerNames(db, [
      ...new Set(rows.flatMap((r) => (r.owner_user_id ? [r.owner_user_id] : []))),
    ]);
    const agents = await agentNames(db, [...new Set(rows.flatMap((r) => (r.agent_id ? [r.agent_id] : [])))]);
    const counts = await webhookCountsByKey(db);
    const grants = await grantsWithBoardNames(db, ids);
    const reveals = await revealsOf(db, ids);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: this.deps.secrets.decrypt(row.key_sealed).slice(0, PREFIX_LENGTH),
      owner: row.owner_user_id ? { id: row.owner_user_id, name: owners.get(row.owner_user_id) ?? '' } : null,
      agent: row.agent_id ? { id: row.agent_id, name: agents.get(row.agent_id) ?? '' } : null,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      allBoards: row.all_boards === 1,
      grants:
        row.all_boards === 1
          ? []
          : grants
              .filter((g) => g.api_key_id === row.id)
              .map((g) => ({ boardId: g.board_id, boardName: g.board_name, permission: g.permission })),
      webhookCount: counts.get(row.id) ?? 0,
      reveals: reveals
        .filter((r) => r.api_key_id === row.id)
        .slice(0, REVEALS_SHOWN)
        .map((r) => ({ at: r.at, user: { id: r.user_id, name: r.user_name } })),
    }));
  }
}
