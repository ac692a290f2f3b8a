/*
 * A tag's colour: picked from the tag's name, so a tag has the same colour on every card and board
 * without storing anything. Shown as a dot beside the tag's text (the text keeps its contrast).
 */
const TONES = [
  'bg-sky-500',
  'bg-emerald-500',
  'bg-amber-500',
  'bg-rose-500',
  'bg-violet-500',
  'bg-teal-500',
  'bg-orange-500',
  'bg-fuchsia-500',
  'bg-lime-500',
  'bg-blue-500',
];

export function tagTone(tag: string): string {
  let hash = 0;
  for (let i = 0; i < tag.length; i++) hash = (hash * 31 + tag.charCodeAt(i)) >>> 0;
  return TONES[hash % TONES.length]!;
}
