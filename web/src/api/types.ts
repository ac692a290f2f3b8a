/** Shapes of docs/ui-api.md (the internal API). */
export type Role = 'owner' | 'admin' | 'member';
export type Permission = 'read' | 'edit';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PersonRef {
  id: string;
  name: string;
}

export interface Invite {
  id: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
  createdBy: PersonRef;
  token?: string;
  url?: string;
}

export interface Grant {
  boardId: string;
  boardName?: string;
  permission: Permission;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  owner: PersonRef | null;
  createdAt: string;
  lastUsedAt: string | null;
  allBoards: boolean;
  grants: Grant[];
  webhookCount: number;
  reveals: { at: string; user: PersonRef }[];
}

export type DeliveryStatus = 'delivered' | 'pending' | 'failed';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: string;
  apiKey: { id: string; name: string; prefix: string };
  lastDelivery: {
    id: string;
    status: DeliveryStatus;
    eventType: string;
    createdAt: string;
    responseStatus: number | null;
  } | null;
}

export interface Attempt {
  number: number;
  at: string;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  attempts: Attempt[];
}

export interface Board {
  id: string;
  name: string;
  createdAt?: string;
}
