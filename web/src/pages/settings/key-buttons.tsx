import type { ApiKey } from '../../api/keys';
import { Button } from '../../components/ui';

export type KeyAction = 'reveal' | 'access' | 'revoke';

const BUTTONS = {
  reveal: { text: 'Reveal', label: (name: string) => `Reveal ${name}`, variant: 'ghost' },
  access: { text: 'Access', label: (name: string) => `Change access of ${name}`, variant: 'ghost' },
  revoke: { text: 'Revoke', label: (name: string) => `Revoke ${name}`, variant: 'danger-ghost' },
} as const;

/** A key row's buttons, as on API Keys and on Agents, in the order of `actions`. */
export function KeyButtons<Action extends KeyAction>({
  apiKey,
  actions,
  onAction,
}: {
  apiKey: ApiKey;
  actions: readonly Action[];
  onAction: (kind: Action) => void;
}) {
  return (
    <div className="ml-auto flex flex-wrap gap-1">
      {actions.map((kind) => (
        <Button
          key={kind}
          variant={BUTTONS[kind].variant}
          onClick={() => onAction(kind)}
          aria-label={BUTTONS[kind].label(apiKey.name)}
        >
          {BUTTONS[kind].text}
        </Button>
      ))}
    </div>
  );
}
