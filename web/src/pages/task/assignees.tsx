import { X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useChangeAssignee } from '../../api/assignees';
import type { TaskDetail } from '../../api/tasks';
import { AssignDialog } from '../../components/assign-dialog';
import { MemberIcon } from '../../components/member-picker';
import { Button, errorMessage } from '../../components/ui';

/** The task's assignees, each with an Unassign button, and the picker to assign more. */
export function Assignees({ boardId, task }: { boardId: string; task: TaskDetail }) {
  const [picking, setPicking] = useState(false);
  const change = useChangeAssignee(boardId);
  return (
    <section aria-labelledby="assignees-heading" className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h2 id="assignees-heading" className="text-sm font-semibold">
          Assignees
        </h2>
        <Button variant="ghost" onClick={() => setPicking(true)} disabled={task.archived}>
          Assign…
        </Button>
      </div>
      {task.assignees.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nobody yet: assign a person or an agent.</p>
      ) : (
        <ul className="space-y-1">
          {task.assignees.map((member) => (
            <li key={member.id} data-assignee-id={member.id} className="flex items-center gap-2 text-sm">
              <MemberIcon type={member.type} />
              <span className="min-w-0 flex-1 truncate">{member.name}</span>
              <button
                type="button"
                aria-label={`Unassign ${member.name}`}
                onClick={() =>
                  change.mutate(
                    { taskId: task.id, member, assign: false },
                    { onError: (error) => toast.error(`Unassigning failed: ${errorMessage(error)}`) },
                  )
                }
                className="rounded p-1 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
              >
                <X aria-hidden className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {picking && (
        <AssignDialog
          boardId={boardId}
          taskId={task.id}
          title={task.title}
          assignees={task.assignees}
          onClose={() => setPicking(false)}
        />
      )}
    </section>
  );
}
