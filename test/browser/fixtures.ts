import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  createdId,
  launchBrowser,
  newContext,
  OWNER,
  PASSWORD,
  setUpOwner,
  signIn,
  startUiServer,
  type UiServer,
  uiApi,
} from './support.js';

/** A test's world: the server, one browser, and a page where the owner has just set up the site. */
export interface OwnerWorld {
  server: UiServer;
  browser: Browser;
  /** The owner's page, signed in (at Settings › API keys, where the setup lands). */
  page: Page;
  close(): Promise<void>;
}

export async function openOwnerWorld(
  options: {
    env?: Record<string, string>;
    /** How the server starts: the built one (startUiServer) unless said otherwise. */
    start?: (env: Record<string, string>) => Promise<UiServer>;
    owner?: typeof OWNER;
    phone?: boolean;
    /** The owner's page's time-out for a step, when the context's default is not enough. */
    timeout?: number;
  } = {},
): Promise<OwnerWorld> {
  // One after the other: both at once on a busy machine can outlast the server's start-up wait.
  const server = await (options.start ?? startUiServer)(options.env ?? {});
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await (await newContext(browser, server.baseUrl, { phone: options.phone })).newPage();
    if (options.timeout) page.setDefaultTimeout(options.timeout);
    await setUpOwner(page, options.owner);
    const opened = browser;
    return {
      server,
      browser,
      page,
      async close() {
        await opened.close();
        await server.close();
      },
    };
  } catch (error) {
    // No world for afterAll to close: what was started stops here.
    await browser?.close();
    await server.close();
    throw error;
  }
}

/** Calls the external API with `key`, as an agent or a script would; `path` starts after /api/ext/v1. */
export type ExtApi = (method: string, path: string, body?: unknown) => Promise<Response>;

export function extApi(baseUrl: string, key: string): ExtApi {
  return (method, urlPath, body) =>
    fetch(`${baseUrl}/api/ext/v1${urlPath}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
}

/** A member who joined through an invite that the owner's `page` made, accepted in a context of its own. */
export async function addMember(
  world: { browser: Browser; server: UiServer },
  owner: Page,
  person: { name: string; email: string },
): Promise<void> {
  const invite = await uiApi(owner, 'POST', '/invites', { role: 'member' });
  const token = (invite.body as { data: { url: string } }).data.url.split('/invite/')[1];
  const joiner = await (await newContext(world.browser, world.server.baseUrl)).newPage();
  await joiner.goto('/login');
  const accepted = await uiApi(joiner, 'POST', `/invites/${token}/accept`, { ...person, password: PASSWORD });
  expect(accepted.status).toBe(201);
  await joiner.context().close();
}

/** A board test's world: the owner's world with one board and an API key to it. */
export interface BoardWorld extends OwnerWorld {
  boardId: string;
  /** An API key on every board, for changes made "elsewhere" (as an agent or a script would). */
  key: string;
  /** Calls the external API with the key. */
  ext: ExtApi;
}

export async function openBoardWorld(
  options: { env?: Record<string, string>; boardName?: string } = {},
): Promise<BoardWorld> {
  const world = await openOwnerWorld({ env: options.env });
  try {
    const { page } = world;
    const boardId = createdId(await uiApi(page, 'POST', '/boards', { name: options.boardName ?? 'Roadmap' }));
    const created = await uiApi(page, 'POST', '/keys', { name: 'agent', allBoards: true, grants: [] });
    const key = (created.body as { data: { key: string } }).data.key;
    return { ...world, boardId, key, ext: extApi(world.server.baseUrl, key) };
  } catch (error) {
    await world.close();
    throw error;
  }
}

/**
 * Another page for the owner, in a context of its own (dark, or a phone's width), signed in with the
 * password. Its context is the caller's to close.
 */
export async function signedInPage(
  world: { browser: Browser; server: UiServer },
  options: { phone?: boolean; dark?: boolean } = {},
  email = OWNER.email,
): Promise<Page> {
  const page = await (await newContext(world.browser, world.server.baseUrl, options)).newPage();
  await signIn(page, email);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  return page;
}

/** An agent and a key of its own on every board: what is done with the key is the agent's. */
export async function createAgentWithKey(
  page: Page,
  names: { agent: string; key: string },
): Promise<{ agentId: string; key: string }> {
  const agentId = createdId(await uiApi(page, 'POST', '/agents', { name: names.agent }));
  const created = await uiApi(page, 'POST', `/agents/${agentId}/keys`, {
    name: names.key,
    allBoards: true,
    grants: [],
  });
  return { agentId, key: (created.body as { data: { key: string } }).data.key };
}

/** Lanes added to a board in this order, made by the signed-in person; their ids by name. */
export async function addLanes(
  page: Page,
  boardId: string,
  names: string[],
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const name of names) {
    ids[name] = createdId(await uiApi(page, 'POST', `/boards/${boardId}/lanes`, { name }));
  }
  return ids;
}

/** A lane and a task in it, made by the signed-in person. */
export async function addLaneAndTask(
  page: Page,
  boardId: string,
  names: { lane: string; task: string },
): Promise<{ laneId: string; taskId: string }> {
  const laneId = createdId(await uiApi(page, 'POST', `/boards/${boardId}/lanes`, { name: names.lane }));
  const taskId = createdId(
    await uiApi(page, 'POST', `/boards/${boardId}/tasks`, { title: names.task, laneId }),
  );
  return { laneId, taskId };
}
