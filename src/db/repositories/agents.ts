import type { AgentRow, Executor } from '../schema.js';
import type { Tx } from '../transaction.js';

export async function insertAgent(db: Executor, row: AgentRow): Promise<void> {
  await db.insertInto('agents').values(row).execute();
}

/** Every agent, oldest first (deactivated ones included: Settings shows them greyed). */
export async function listAgents(db: Executor): Promise<AgentRow[]> {
  return db.selectFrom('agents').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function findAgent(db: Executor, id: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateAgent(
  db: Executor,
  id: string,
  changes: Partial<Pick<AgentRow, 'name' | 'description' | 'active' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('agents').set(changes).where('id', '=', id).execute();
}

export async function activeKeyIdsOfAgent(db: Executor, agentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where('agent_id', '=', agentId)
    .where('revoked_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Whether the agent exists and is active, holding its row until the transaction ends on PostgreSQL, so
 * a key cannot be given to an agent being deactivated at the same moment (SQLite runs one transaction
 * at a time).
 */
export async function lockActiveAgent(tx: Tx, id: string): Promise<AgentRow | undefined> {
  const query = tx.db.selectFrom('agents').selectAll().where('id', '=', id);
  const row = await (tx.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row?.active === 1 ? row : undefined;
}

/** Active people and agents, by name: whom a task can be assigned to. */
export async function listActiveMembers(
  db: Executor,
): Promise<Array<{ id: string; type: 'person' | 'agent'; name: string }>> {
  const people = await db.selectFrom('users').select(['id', 'name']).where('active', '=', 1).execute();
  const agents = await db.selectFrom('agents').select(['id', 'name']).where('active', '=', 1).execute();
  return [
    ...people.map((p) => ({ id: p.id, type: 'person' as const, name: p.name })),
    ...agents.map((a) => ({ id: a.id, type: 'agent' as const, name: a.name })),
  ].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
