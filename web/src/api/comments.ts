import type { Static } from '@sinclair/typebox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Comment as CommentSchema } from '../../../src/schemas/comments.js';
import type { ReactionContent } from '../../../src/schemas/reactions.js';
import { api } from './client';
import { taskKeys, taskPath } from './tasks';

export type Comment = Static<typeof CommentSchema>;
export type { ReactionContent };

const commentsPath = (boardId: string, taskId: string) => `${taskPath(boardId, taskId)}/comments`;

export function useComments(boardId: string, taskId: string) {
  return useQuery({
    queryKey: taskKeys.comments(boardId, taskId),
    queryFn: () => api.get<Comment[]>(commentsPath(boardId, taskId)),
  });
}

export function useAddComment(boardId: string, taskId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => api.post<Comment>(commentsPath(boardId, taskId), { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskKeys.comments(boardId, taskId) }),
  });
}

/** Adds the signed-in person's reaction, or takes it back (`mine`). */
export function useToggleReaction(boardId: string, taskId: string, commentId: string) {
  const queryClient = useQueryClient();
  const path = `${commentsPath(boardId, taskId)}/${commentId}/reactions`;
  return useMutation({
    mutationFn: ({ content, mine }: { content: ReactionContent; mine: boolean }) =>
      mine
        ? api.delete(`${path}/${encodeURIComponent(content)}`)
        : api.put(`${path}/${encodeURIComponent(content)}`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.comments(boardId, taskId) }),
  });
}
