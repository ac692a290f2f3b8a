import {
  activeKeyIdsOfAgent,
  findAgent,
  insertAgent,
  listActiveMembers,
  listAgents,
  updateAgent,
} from '../../db/repositories/agents.js';
import { markKeyRevoked } from '../../db/repositories/api-keys.js';
import { deleteWebhooksOfKey } from '../../db/repositories/webhooks.js';
import type { AgentRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { isoNow } from '../../lib/time.js';
import { AGENT_LIMITS } from '../../schemas/agents.js';
import { type Actor, memberOf } from '../actor.js';
import { notFound } from '../errors.js';
import type { ServiceDeps } from '../services.js';
import { optionalText, requiredText } from '../text-rules.js';
import { inTransaction } from '../transaction.js';
import { requireAgentManager } from './agent-rules.js';

export interface AgentView {
  id: string;
  name: string;
  description: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * Agents as members: made, renamed, described and deactivated by owners and admins (and the CLI's
 * operator). An agent holds API keys that act as the agent (ApiKeyService.createKey with `agentId`);
 * deactivating it revokes them, with their webhooks, as revoking a key does.
 */
export class AgentService {
  constructor(private readonly deps: ServiceDeps) {}

  async createAgent(actor: Actor, input: { name: string; description?: string }): Promise<AgentView> {
    requireAgentManager(actor);
    const now = isoNow(this.deps.clock);
    const row: AgentRow = {
      id: newId('agt'),
      name: requiredText('name', input.name, AGENT_LIMITS.name),
      description:
        input.description === undefined
          ? ''
          : optionalText('description', input.description, AGENT_LIMITS.description),
      active: 1,
      created_at: now,
      updated_at: now,
    };
    await insertAgent(this.deps.database.kysely, row);
    return toAgent(row);
  }

  async listAgents(actor: Actor): Promise<AgentView[]> {
    requireAgentManager(actor);
    return (await listAgents(this.deps.database.kysely)).map(toAgent);
  }

  /**
   * Everyone a task can be assigned to (active people and agents, by name), for the member picker: every
   * person works every board, so anyone may see the list.
   */
  async listMembers(
    _actor: Actor,
    filter: { name?: string } = {},
  ): Promise<Array<{ id: string; type: 'person' | 'agent'; name: string }>> {
    const members = await listActiveMembers(this.deps.database.kysely);
    const wanted = filter.name?.trim().toLowerCase();
    return wanted ? members.filter((m) => m.name.toLowerCase().includes(wanted)) : members;
  }

  /** Who the caller is: its key (for a key) and the member it acts as, if any (`me` in filters). */
  whoAmI(actor: Actor): {
    key: { id: string; name: string } | null;
    member: { id: string; type: 'person' | 'agent'; name: string } | null;
  } {
    const member = memberOf(actor);
    return {
      key: actor.kind === 'api_key' ? { id: actor.keyId, name: actor.name } : null,
      member: member && { id: member.id, type: member.type, name: member.name },
    };
  }

  async getAgent(actor: Actor, id: string): Promise<AgentView> {
    requireAgentManager(actor);
    const row = await findAgent(this.deps.database.kysely, id);
    if (!row) throw notFound('Agent');
    return toAgent(row);
  }

  /** The ids of the agent's keys that are not revoked (Settings › Agents lists them). */
  async keyIdsOf(actor: Actor, id: string): Promise<Set<string>> {
    requireAgentManager(actor);
    const db = this.deps.database.kysely;
    if (!(await findAgent(db, id))) throw notFound('Agent');
    return new Set(await activeKeyIdsOfAgent(db, id));
  }

  /** Renames or describes the agent; its keys' next requests are attributed under the new name. */
  async updateAgent(
    actor: Actor,
    id: string,
    input: { name?: string; description?: string },
  ): Promise<AgentView> {
    requireAgentManager(actor);
    const changes: Partial<Pick<AgentRow, 'name' | 'description'>> = {};
    if (input.name !== undefined) changes.name = requiredText('name', input.name, AGENT_LIMITS.name);
    if (input.description !== undefined) {
      changes.description = optionalText('description', input.description, AGENT_LIMITS.description);
    }
    const updated = await inTransaction(this.deps.database, async (tx) => {
      const row = await findAgent(tx.db, id);
      if (!row) throw notFound('Agent');
      const next = { ...row, ...changes };
      if (next.name === row.name && next.description === row.description) return row;
      next.updated_at = isoNow(this.deps.clock);
      await updateAgent(tx.db, id, { ...changes, updated_at: next.updated_at });
      return next;
    });
    // The cached actors of the agent's keys carry its name (the triggers tell other instances).
    this.deps.database.keyChanges.changed();
    return toAgent(updated);
  }

  /** Deactivates the agent and revokes its keys, removing their webhooks with their deliveries. */
  async deactivateAgent(actor: Actor, id: string): Promise<AgentView & { keysRevoked: number }> {
    requireAgentManager(actor);
    try {
      return await inTransaction(this.deps.database, async (tx) => {
        const row = await findAgent(tx.db, id);
        if (!row) throw notFound('Agent');
        const now = isoNow(this.deps.clock);
        // Written first: on PostgreSQL the row lock makes a concurrent key creation wait and see it.
        if (row.active === 1) await updateAgent(tx.db, id, { active: 0, updated_at: now });
        const keyIds = await activeKeyIdsOfAgent(tx.db, id);
        for (const keyId of keyIds) {
          await markKeyRevoked(tx.db, keyId, now);
          await deleteWebhooksOfKey(tx.db, keyId);
        }
        const view = toAgent(row.active === 1 ? { ...row, active: 0, updated_at: now } : row);
        return { ...view, keysRevoked: keyIds.length };
      });
    } finally {
      this.deps.database.keyChanges.changed();
    }
  }
}

export function toAgent(row: AgentRow): AgentView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    active: row.active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
