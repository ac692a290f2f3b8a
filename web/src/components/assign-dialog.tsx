import { toast } from 'sonner';
import { type Member, useChangeAssignee } from '../api/assignees';
import { Modal } from './dialog';
import { MemberPicker } from './member-picker';
import { Button, errorMessage } from './ui';

/**
 * Assigns and unassigns a task's members (the board's card menu and `a`, the task page). Each choice is
 * applied at once (optimistically) and the dialog stays open for the next; `assignees` are the task's as
 * the caller's cache has them, so the checks follow the change and its live event.
 */
export function AssignDialog({
  boardId,
  taskId,
  title,
  assignees,
  onClose,
}: {
  boardId: string;
  taskId: string;
  title: string;
  assignees: readonly Member[];
  onClose: () => void;
}) {
  const change = useChangeAssignee(boardId);
  const onChange = (member: Member, assign: boolean) =>
    change.mutate(
      { taskId, member, assign },
      {
        onError: (error) =>
          toast.error(
            `${assign ? 'Assigning' : 'Unassigning'} ${member.name} failed: ${errorMessage(error)}`,
          ),
      },
    );
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Assign “${title}”`}>
      <MemberPicker assigned={assignees} onChange={onChange} />
      <div className="mt-4 flex justify-end">
        <Button onClick={onClose}>Done</Button>
      </div>
    </Modal>
  );
}
