import { Bell, BellOff } from 'lucide-react';
import { toast } from 'sonner';
import { useMutedBoards, useSetBoardMuted } from '../api/notifications';
import { Button, errorMessage } from './ui';

/** Mutes or unmutes the board for the signed-in person: a muted board notifies only mentions. */
export function MuteBoardButton({ boardId }: { boardId: string }) {
  const muted = useMutedBoards();
  const set = useSetBoardMuted(boardId);
  const isMuted = muted.data?.some((board) => board.id === boardId) ?? false;
  return (
    <Button
      variant="ghost"
      aria-pressed={isMuted}
      title={
        isMuted
          ? 'Muted: only mentions notify you. Select to unmute.'
          : 'Stop notifications from this board except mentions'
      }
      disabled={!muted.isSuccess}
      busy={set.isPending}
      onClick={() =>
        set.mutate(!isMuted, {
          onSuccess: () => toast.success(isMuted ? 'Board unmuted' : 'Board muted: only mentions notify you'),
          onError: (error) => toast.error(errorMessage(error)),
        })
      }
    >
      {isMuted ? <BellOff aria-hidden className="size-4" /> : <Bell aria-hidden className="size-4" />}
      {isMuted ? 'Muted' : 'Mute board'}
    </Button>
  );
}
