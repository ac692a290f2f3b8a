import { ExternalLink } from 'lucide-react';
import { NavLink, Outlet } from 'react-router';
import { isAdmin, useSession } from '../../api/session';

const LINK =
  'block rounded-md px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 aria-[current=page]:bg-zinc-100 aria-[current=page]:font-medium aria-[current=page]:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:aria-[current=page]:bg-zinc-800 dark:aria-[current=page]:text-white';

/** Settings: a side menu (a row on phones); Webhooks, People and Agents only for owners and admins. */
export default function SettingsLayout() {
  const { data: user } = useSession();
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      <nav aria-label="Settings" className="md:w-48 md:shrink-0">
        <ul className="flex flex-wrap gap-1 md:flex-col">
          <li>
            <NavLink to="/settings/keys" className={LINK}>
              API Keys
            </NavLink>
          </li>
          {isAdmin(user) && (
            <>
              <li>
                <NavLink to="/settings/webhooks" className={LINK}>
                  Webhooks
                </NavLink>
              </li>
              <li>
                <NavLink to="/settings/people" className={LINK}>
                  People
                </NavLink>
              </li>
              <li>
                <NavLink to="/settings/agents" className={LINK}>
                  Agents
                </NavLink>
              </li>
            </>
          )}
          <li>
            <a
              href="/api/ext/v1/docs"
              target="_blank"
              rel="noreferrer"
              className={`${LINK} inline-flex items-center gap-1`}
            >
              API reference <ExternalLink aria-hidden className="size-3.5" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </li>
        </ul>
      </nav>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
