/**
 * PostgreSQL channel on which committed deliveries wake every instance's dispatcher. A module of its own
 * so the dispatcher names it without loading the PostgreSQL driver (its SQLite thread never needs it).
 */
export const DELIVERY_CHANNEL = 'laneboard_deliveries';
