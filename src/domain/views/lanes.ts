import type { LaneRow } from '../../db/schema.js';

/** A lane as the board view and its live stream show it. */
export interface LaneView {
  id: string;
  name: string;
  position: number;
}

export function toLaneView(lane: LaneRow): LaneView {
  return { id: lane.id, name: lane.name, position: lane.position };
}
