import { type FormEvent, useState } from 'react';
import type { Card, Lane } from '../../api/boards';
import { Modal } from '../../components/dialog';
import { Button, FormError, SelectField, TextField } from '../../components/ui';

/** Moving a task without dragging (keyboard, phones): choose the lane and the place in it. */
export function MoveDialog({
  card,
  lanes,
  tasks,
  busy,
  error,
  onMove,
  onClose,
}: {
  card: Card;
  lanes: Lane[];
  tasks: Card[];
  busy: boolean;
  error: unknown;
  onMove: (laneId: string, position: number) => void;
  onClose: () => void;
}) {
  const [laneId, setLaneId] = useState(card.laneId);
  const others = tasks.filter((t) => t.laneId === laneId && !t.archived && t.id !== card.id).length;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const place = Number(new FormData(event.currentTarget).get('position'));
    onMove(laneId, Math.min(Math.max(1, place), others + 1) - 1);
  };
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Move “${card.title}”`}>
      <form onSubmit={submit} className="space-y-4">
        <SelectField label="Lane" value={laneId} onChange={(event) => setLaneId(event.target.value)}>
          {lanes.map((lane) => (
            <option key={lane.id} value={lane.id}>
              {lane.name}
            </option>
          ))}
        </SelectField>
        <TextField
          key={laneId}
          label="Position"
          name="position"
          type="number"
          min={1}
          max={others + 1}
          defaultValue={laneId === card.laneId && card.position !== null ? card.position + 1 : others + 1}
          hint={`1 is the top; ${others + 1} is the bottom.`}
        />
        <FormError error={error} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Move
          </Button>
        </div>
      </form>
    </Modal>
  );
}
