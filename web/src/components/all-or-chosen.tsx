import { type ReactNode, useId } from 'react';

/**
 * GitHub's "everything, or only these" choice: two radios under a legend, and the picker of what is
 * chosen (the children) shown only under the second.
 */
export function AllOrChosen({
  legend,
  all,
  onAllChange,
  allLabel,
  allHint,
  chosenLabel,
  children,
  after,
}: {
  legend: string;
  all: boolean;
  onAllChange: (all: boolean) => void;
  allLabel: string;
  allHint: string;
  chosenLabel: string;
  children: ReactNode;
  /** Shown under both choices (a validation message). */
  after?: ReactNode;
}) {
  const name = useId();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{legend}</legend>
      <label className="flex items-start gap-2 text-sm">
        <input type="radio" name={name} className="mt-0.5" checked={all} onChange={() => onAllChange(true)} />
        <span>
          {allLabel} <span className="text-zinc-600 dark:text-zinc-400">— {allHint}</span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="radio"
          name={name}
          className="mt-0.5"
          checked={!all}
          onChange={() => onAllChange(false)}
        />
        <span>{chosenLabel}</span>
      </label>
      {!all && children}
      {after}
    </fieldset>
  );
}
