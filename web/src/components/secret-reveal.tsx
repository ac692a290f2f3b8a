import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from './ui';

/** A secret shown once (or on request), with a copy button. */
export function SecretValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(`${label} copied`);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      const field = document.getElementById(id) as HTMLInputElement | null;
      field?.select();
      toast.error('Copying was not allowed: the value is selected, press Ctrl+C.');
    }
  };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          data-testid="secret-value"
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-950"
        />
        <Button onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
          Copy
        </Button>
      </div>
    </div>
  );
}
