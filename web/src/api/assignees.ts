import type { Static } from '@sinclair/typebox';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member as MemberSchema } from '../../../src/schemas/agents.js';
import { type BoardView, boardKeys, type Card } from './boards';
import { api } from './client';
import { type TaskDetail, taskKeys, taskPath } from './tasks';

/** A person or an agent that tasks can be assigned to (`GET /api/ui/members`: active ones only). */
export type Member = Static<typeof MemberSchema>;

/** The contract's limit: a task has at most this many assignees. */
export const MAX_ASSIGNEES = 10;

export const memberKeys = {
  list: () => ['members'] as const,
};

/** Active people and agents by name: what the assign picker offers. */
export function useMembers(enabled = true) {
  return useQuery({
    queryKey: memberKeys.list(),
    queryFn: () => api.get<Member[]>('/members'),
    enabled,
    staleTime: 60_000,
  });
}

export interface AssigneeChange {
  taskId: string;
  member: Member;
  /** true assigns, false unassigns. */
  assign: boolean;
}

type Assignees = Member[];

const withChange = (list: Assignees, { member, assign }: AssigneeChange): Assignees =>
  assign
    ? list.some((a) => a.id === member.id)
      ? list
      : [...list, { id: member.id, type: member.type, name: member.name }]
    : list.filter((a) => a.id !== member.id);

/** Writes a task's assignees into every cached board view and its task page; returns what was there. */
function writeAssignees(
  queryClient: QueryClient,
  boardId: string,
  taskId: string,
  next: (current: Assignees) => Assignees,
): Assignees | undefined {
  let before: Assignees | undefined;
  queryClient.setQueriesData<BoardView>({ queryKey: boardKeys.board(boardId) }, (view) => {
    if (!view) return view;
    return {
      ...view,
      tasks: view.tasks.map((card: Card) => {
        if (card.id !== taskId) return card;
        before ??= card.assignees ?? [];
        return { ...card, assignees: next(card.assignees ?? []) };
      }),
    };
  });
  queryClient.setQueryData<TaskDetail>(taskKeys.detail(boardId, taskId), (task) => {
    if (!task) return task;
    before ??= task.assignees;
    return { ...task, assignees: next(task.assignees) };
  });
  return before;
}

/**
 * Assigns or unassigns one member. Shown at once on the board and the task page; the change's live
 * event (`task.assigned` / `task.unassigned`) carries the card as the server has it, which settles it.
 * A refused change puts the assignees back as they were.
 */
export function useChangeAssignee(boardId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ taskId, member, assign }: AssigneeChange): Promise<void> => {
      const path = `${taskPath(boardId, taskId)}/assignees/${encodeURIComponent(member.id)}`;
      if (assign) await api.put(path, {});
      else await api.delete(path);
    },
    onMutate: (change) => {
      const before = writeAssignees(queryClient, boardId, change.taskId, (list) => withChange(list, change));
      return { before };
    },
    onError: (_error, change, context) => {
      const before = context?.before;
      if (before) writeAssignees(queryClient, boardId, change.taskId, () => before);
    },
    onSettled: (_data, _error, change) =>
      queryClient.invalidateQueries({ queryKey: taskKeys.detail(boardId, change.taskId) }),
  });
}
