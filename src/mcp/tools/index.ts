import type { ToolDefinition } from '../tool.js';
import { waitForActivity } from './activity.js';
import { findBoards, listLanes } from './boards.js';
import { assignTask, claimNextTask } from './claiming.js';
import { addComment, react } from './comments.js';
import { findTasks, getTask } from './task-reads.js';
import { archiveTask, createTask, moveTask, updateTask } from './task-writes.js';
import { addTodos, updateTodos } from './todos.js';
import { pushTurns } from './turns.js';

/** The one tool set both transports serve, in the order `tools/list` shows it. */
export const TOOLS: ToolDefinition[] = [
  findBoards,
  listLanes,
  findTasks,
  getTask,
  createTask,
  updateTask,
  moveTask,
  claimNextTask,
  assignTask,
  archiveTask,
  addComment,
  react,
  addTodos,
  updateTodos,
  pushTurns,
  waitForActivity,
] as unknown as ToolDefinition[];
