import { UserPlus } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from 'sonner';
import {
  type Role,
  type User,
  useChangeRole,
  useCreateInvite,
  useDeactivate,
  useInvites,
  usePeople,
  useWithdrawInvite,
} from '../../api/people';
import { useSession } from '../../api/session';
import { ConfirmDialog, Modal } from '../../components/dialog';
import { SecretValue } from '../../components/secret-reveal';
import {
  Badge,
  Button,
  ErrorState,
  errorMessage,
  FormError,
  Loading,
  PageHeader,
  SelectField,
  Time,
} from '../../components/ui';
import { formatDateTime, ROLE_LABELS } from '../../lib/format';

const ROLES: Role[] = ['member', 'admin', 'owner'];

function InviteDialog({
  open,
  onOpenChange,
  canInviteOwner,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  canInviteOwner: boolean;
}) {
  const create = useCreateInvite();
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) create.reset();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(String(new FormData(event.currentTarget).get('role')) as Role);
  };
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={create.data ? 'Send this invite link' : 'Invite someone'}
      description={
        create.data
          ? `It works once, until ${formatDateTime(create.data.expiresAt)}. It is shown only now.`
          : 'You get a link to send them; they choose their own password.'
      }
    >
      {create.data ? (
        <>
          <SecretValue
            label="Invite link"
            value={new URL(create.data.url ?? '', window.location.origin).href}
          />
          <div className="mt-5 flex justify-end">
            <Button variant="primary" onClick={() => close(false)}>
              Done
            </Button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <SelectField label="Role" name="role" defaultValue="member">
            {ROLES.filter((role) => role !== 'owner' || canInviteOwner).map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </SelectField>
          <FormError error={create.error} />
          <div className="flex justify-end gap-2">
            <Button onClick={() => close(false)}>Cancel</Button>
            <Button type="submit" variant="primary" busy={create.isPending}>
              Create invite link
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

function PersonRow({
  person,
  me,
  onDeactivate,
}: {
  person: User;
  me: User;
  onDeactivate: (person: User) => void;
}) {
  const changeRole = useChangeRole(me);
  // Only an owner gives or takes the owner role.
  const roleLocked = !person.active || (me.role !== 'owner' && person.role === 'owner');
  return (
    // On a phone the name and email take the whole row (wrapping anywhere: an email or a long name is
    // never cut or pushed past the screen's edge); the role and actions go below them.
    <li className="flex flex-wrap items-center gap-3 p-4" aria-label={person.name}>
      <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
        <p className="font-medium wrap-anywhere">
          {person.name}{' '}
          {person.id === me.id && (
            <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">(you)</span>
          )}
        </p>
        <p className="text-sm text-zinc-600 wrap-anywhere dark:text-zinc-400">{person.email}</p>
      </div>
      {person.active ? (
        <>
          <label className="sr-only" htmlFor={`role-${person.id}`}>
            Role of {person.name}
          </label>
          <select
            id={`role-${person.id}`}
            value={person.role}
            disabled={roleLocked || changeRole.isPending}
            onChange={(event) =>
              changeRole.mutate(
                { person, role: event.target.value as Role },
                {
                  onSuccess: (updated) =>
                    toast.success(`${updated.name} is now ${ROLE_LABELS[updated.role].toLowerCase()}`),
                  onError: (error) => toast.error(errorMessage(error)),
                },
              )
            }
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          >
            {ROLES.filter((role) => role !== 'owner' || me.role === 'owner' || person.role === 'owner').map(
              (role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ),
            )}
          </select>
          {person.id !== me.id && (
            <Button
              variant="danger-ghost"
              disabled={me.role !== 'owner' && person.role === 'owner'}
              onClick={() => onDeactivate(person)}
              aria-label={`Deactivate ${person.name}`}
            >
              Deactivate
            </Button>
          )}
        </>
      ) : (
        <Badge>Deactivated</Badge>
      )}
    </li>
  );
}

export default function PeoplePage() {
  const { data: me } = useSession();
  const people = usePeople();
  const invites = useInvites();
  const [inviting, setInviting] = useState(false);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  const deactivate = useDeactivate();
  const withdraw = useWithdrawInvite();
  useEffect(() => {
    document.title = 'People · Settings · Laneboard';
  }, []);
  if (!me) return null;
  return (
    <>
      <PageHeader
        title="People"
        description="Everyone here works on every board. Owners and admins also manage people, webhooks and every API key."
        actions={
          <Button variant="primary" onClick={() => setInviting(true)}>
            <UserPlus aria-hidden className="size-4" /> Invite
          </Button>
        }
      />
      {people.isPending && <Loading label="Loading people…" />}
      {people.isError && <ErrorState error={people.error} onRetry={() => people.refetch()} />}
      {people.data && (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {people.data.map((person) => (
            <PersonRow key={person.id} person={person} me={me} onDeactivate={setDeactivating} />
          ))}
        </ul>
      )}
      <h2 className="mt-8 mb-2 font-semibold">Pending invites</h2>
      {invites.isError && <ErrorState error={invites.error} onRetry={() => invites.refetch()} />}
      {invites.data?.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No pending invites.</p>
      )}
      {invites.data && invites.data.length > 0 && (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800">
          {invites.data.map((invite) => (
            <li key={invite.id} className="flex flex-wrap items-center gap-3 p-3">
              <Badge tone="accent">{ROLE_LABELS[invite.role]}</Badge>
              <span className="min-w-0 text-zinc-700 wrap-anywhere dark:text-zinc-300">
                by {invite.createdBy.name}, expires <Time iso={invite.expiresAt} />
              </span>
              <Button
                variant="ghost"
                className="ml-auto"
                onClick={() =>
                  withdraw.mutate(invite, {
                    onSuccess: () => toast.success('Invite withdrawn: the link no longer works'),
                    onError: (error) => toast.error(errorMessage(error)),
                  })
                }
              >
                Withdraw
              </Button>
            </li>
          ))}
        </ul>
      )}
      <InviteDialog open={inviting} onOpenChange={setInviting} canInviteOwner={me.role === 'owner'} />
      {deactivating && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setDeactivating(null)}
          title={`Deactivate ${deactivating.name}?`}
          description="They are signed out everywhere and cannot sign in again. Their API keys are revoked, and the webhooks of those keys are deleted."
          confirmLabel="Deactivate"
          busy={deactivate.isPending}
          onConfirm={() =>
            deactivate.mutate(deactivating, {
              onSuccess: (person) => {
                toast.success(`${person.name} deactivated`);
                setDeactivating(null);
              },
            })
          }
          error={deactivate.error ? <FormError error={deactivate.error} /> : null}
        />
      )}
    </>
  );
}
