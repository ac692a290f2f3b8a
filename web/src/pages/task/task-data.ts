export interface TaskDetail {
  id: string;
  shortId: string;
  title: string;
  description: string;
  laneId: string;
  priority: number;
  tags: string[];
  archived: boolean;
  position: number | null;
  createdAt: string;
  updatedAt: string;
  lastTurnAt: string | null;
}

export interface Comment {
  id: string;
  body: string;
  authorName: string;
  authorSource: 'user' | 'api' | 'agent';
  createdAt: string;
  reactions: ReactionCount[];
}

export type ReactionContent = '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'rocket' | 'eyes';

/** `mine`: the signed-in person's own reaction is counted (the UI API sends it). */
export interface ReactionCount {
  content: ReactionContent;
  count: number;
  mine?: boolean;
}

export interface Todo {
  id: string;
  text: string;
  iteration: number;
  done: boolean;
  order: number;
  source: string;
}

export interface Turn {
  id: string;
  source: 'claude' | 'copilot';
  sourceId: string;
  role: 'user' | 'assistant';
  content: string;
  toolUseOnly: boolean;
  capturedAt: string;
}

export const taskKey = (boardId: string, taskId: string) => ['task', boardId, taskId] as const;
export const taskPath = (boardId: string, taskId: string) => `/boards/${boardId}/tasks/${taskId}`;

export interface Asset {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  source: 'user' | 'api' | 'agent';
  createdAt: string;
}
