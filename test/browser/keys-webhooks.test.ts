import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { extApi, type OwnerWorld, openOwnerWorld } from './fixtures.js';
import { expectAccessible, screenshot, uiApi } from './support.js';

interface Delivered {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

describe('API keys and webhooks in the browser', { timeout: 60_000 }, () => {
  let world: OwnerWorld;
  let receiver: WebhookReceiver;
  let page: Page;
  let boardId: string;
  /** The key the page creates, shown once. */
  let key: string;

  const ext = (method: string, path: string, body?: unknown) =>
    extApi(world.server.baseUrl, key)(method, path, body);
  const events = () => receiver.requests.map((r) => JSON.parse(r.body) as Delivered);
  const firstLane = async () => {
    const board = (await (await ext('GET', `/boards/${boardId}`)).json()) as {
      data: { lanes: { id: string }[] };
    };
    return board.data.lanes[0]!.id;
  };

  beforeAll(async () => {
    // One after the other: both at once on a busy machine can outlast the server's start-up wait.
    receiver = await WebhookReceiver.start();
    world = await openOwnerWorld({ env: { LANEBOARD_WEBHOOK_RETRY_DELAYS: '1s' } });
    ({ page } = world);
    const board = await uiApi(page, 'POST', '/boards', { name: 'Roadmap' });
    expect(board.status).toBe(201);
    boardId = (board.body as { data: { id: string } }).data.id;
    await uiApi(page, 'POST', '/boards', { name: 'Ops' });
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it('shows an empty key list with the next step', async () => {
    await page.goto('/settings/keys');
    await page.getByText('No API keys yet').waitFor();
    await expectAccessible(page, 'empty keys page');
  });

  it('creates a key shown once, which works against the external API', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('CI');
    await dialog.getByLabel('Chosen boards').check();
    await dialog.getByLabel('Roadmap').selectOption('edit');
    await expectAccessible(page, 'create key dialog');
    await screenshot(page, 'settings-key-create');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    key = await dialog.getByLabel('API key', { exact: true }).inputValue();
    expect(key).toMatch(/^ak_/);
    await dialog.getByRole('button', { name: 'Copy api key' }).click();
    const clipboard = () =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText();
    expect(await page.evaluate(clipboard)).toBe(key);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const boards = await ext('GET', '/boards');
    expect(boards.status).toBe(200);
    const listed = (await boards.json()) as { data: { id: string; permission: string }[] };
    expect(listed.data.map((b) => [b.id, b.permission])).toEqual([[boardId, 'edit']]);

    const row = page.getByRole('listitem', { name: 'CI' });
    await row.getByText(`${key.slice(0, 7)}…`).waitFor();
    await row.getByText('Roadmap · edit').waitFor();
    await row.getByText('Ada Owner').waitFor();
  });

  it('reveals the key again after asking for the password, and lists the reveal', async () => {
    await page.getByRole('button', { name: 'Reveal CI' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your password').fill('not my password');
    await dialog.getByRole('button', { name: 'Reveal key' }).click();
    // The answer says what a wrong password costs, not the sign-in page's words.
    await dialog
      .getByRole('alert')
      .getByText(/^The password is incorrect\. After 5 wrong passwords within 15 minutes, revealing keys/)
      .waitFor();
    await dialog.getByLabel('Your password').fill('correct horse battery staple');
    await dialog.getByRole('button', { name: 'Reveal key' }).click();
    expect(await dialog.getByLabel('API key', { exact: true }).inputValue()).toBe(key);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText(/Revealed 1 time, last by Ada Owner/).waitFor();
  });

  it('changes the access of a key', async () => {
    await page.getByRole('button', { name: 'Change access of CI' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Ops').selectOption('read');
    await dialog.getByRole('button', { name: 'Save access' }).click();
    await page.getByRole('listitem', { name: 'CI' }).getByText('Ops · read').waitFor();
    const boards = (await (await ext('GET', '/boards')).json()) as { data: unknown[] };
    expect(boards.data).toHaveLength(2);
    await screenshot(page, 'settings-api-keys');
    await expectAccessible(page, 'keys page');
  });

  it('creates a webhook: URL checked as the external API does, secret shown once', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet').waitFor();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Payload URL').fill('https://user:pw@example.com/hook');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByText('url must not contain a user name or password.').waitFor();
    // Another scheme, on this server that takes http:// too: the message names both, without backticks.
    // Editing the field takes its old message away; the next submit says what is wrong now.
    await dialog.getByLabel('Payload URL').fill('ftp://example.com/hook');
    expect(await dialog.getByText('url must not contain a user name or password.').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const schemeError = dialog.getByText('url must use http:// or https://.', { exact: true });
    await schemeError.waitFor();
    expect(await dialog.getByText(/`/).count()).toBe(0);
    // Still wrong after an edit: the same message comes back with the submit.
    await dialog.getByLabel('Payload URL').fill('ftp://example.com/other');
    await schemeError.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await schemeError.waitFor();
    await dialog.getByLabel('Payload URL').fill(receiver.url());
    await schemeError.waitFor({ state: 'detached' });
    await dialog.getByLabel('Chosen events').check();
    await dialog.getByLabel('lane.created').check();
    await dialog.getByLabel('task.created').check();
    await expectAccessible(page, 'create webhook dialog');
    await screenshot(page, 'settings-webhook-create');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    expect(await dialog.getByLabel('Signing secret', { exact: true }).inputValue()).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: receiver.url() }).waitFor();
  });

  it('delivers external API changes, shows them in the log, and not changes made in the UI', async () => {
    const lane = await ext('POST', `/boards/${boardId}/lanes`, { name: 'From the API' });
    expect(lane.status).toBe(201);
    await receiver.waitFor(1);
    // A change in the web UI fires nothing; a later external change proves the queue has moved on.
    expect((await uiApi(page, 'POST', `/boards/${boardId}/lanes`, { name: 'From the UI' })).status).toBe(201);
    expect((await ext('POST', `/boards/${boardId}/lanes`, { name: 'Again from the API' })).status).toBe(201);
    await receiver.waitFor(2);
    const names = events().map((e) => e.data.name);
    expect(names).toEqual(expect.arrayContaining(['From the API', 'Again from the API']));
    expect(names).not.toContain('From the UI');

    await page.getByRole('link', { name: receiver.url() }).click();
    await page.getByRole('heading', { name: 'Webhook' }).waitFor();
    const log = page.getByRole('tabpanel');
    await log.getByRole('listitem', { name: 'lane.created delivery' }).nth(1).waitFor();
    expect(await log.getByRole('listitem', { name: 'lane.created delivery' }).count()).toBe(2);
    await log.getByText('HTTP 204').first().waitFor();
    // Each row names the board and what the event is about.
    await log.getByText(/› lane Again from the API$/).waitFor();
    await log.getByText(/› lane From the API$/).waitFor();
    await screenshot(page, 'settings-webhook-detail');
    await expectAccessible(page, 'webhook detail');
  });

  it('redelivers a delivery and sends a ping', async () => {
    await page
      .getByRole('button', { name: /^Redeliver lane.created/ })
      .first()
      .click();
    await receiver.waitFor(3);
    // The same event again (same event id), as a new delivery.
    const [a, b, again] = events();
    expect([a!.id, b!.id]).toContain(again!.id);
    expect(again!.type).toBe('lane.created');
    // The log says which delivery the new one repeats.
    await page
      .getByRole('tabpanel')
      .getByText(/redelivery of \S+/)
      .waitFor();

    await page.getByRole('button', { name: 'Send ping' }).click();
    await receiver.waitFor(4);
    expect(events()[3]!.type).toBe('ping');
  });

  it('shows a failed delivery with each attempt in the Failed tab', async () => {
    receiver.reply = { status: 500, body: '{"error":"receiver is down"}' };
    expect(
      (
        await ext('POST', `/boards/${boardId}/tasks`, {
          title: 'Breaks the receiver',
          laneId: await firstLane(),
        })
      ).status,
    ).toBe(201);
    // Two attempts (LANEBOARD_WEBHOOK_RETRY_DELAYS=1s), both answered 500: the delivery fails.
    await receiver.waitFor(2, (r) => r.body.includes('task.created'));
    receiver.reply = { status: 204 };
    await page.getByRole('tab', { name: 'Failed' }).click();
    const failed = page
      .getByRole('tabpanel')
      .getByRole('listitem', { name: 'task.created delivery for Breaks the receiver' });
    await failed.getByText('Attempt 2').waitFor();
    await failed.getByText(/› \S+ Breaks the receiver$/).waitFor();
    await failed.getByText('HTTP 500').first().waitFor();
    await failed.getByText('{"error":"receiver is down"}').first().waitFor();
    await screenshot(page, 'settings-webhook-failed');
    await expectAccessible(page, 'failed deliveries');
  });

  it('pauses and resumes', async () => {
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused', { exact: true }).waitFor();
    await page
      .getByRole('note')
      .getByText(/events that happen while it is paused are dropped/)
      .waitFor();
    await expectAccessible(page, 'paused webhook');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Active', { exact: true }).waitFor();
    await page.goto('/settings/webhooks');
    await page.getByText('Last delivery:').waitFor();
    await screenshot(page, 'settings-webhooks');
    await expectAccessible(page, 'webhooks page');
  });

  it('revokes the key, saying its webhook goes with it; the key then fails', async () => {
    await page.goto('/settings/keys');
    await page.getByRole('button', { name: 'Revoke CI' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('1 webhook goes with it').waitFor();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No API keys yet').waitFor();
    expect((await ext('GET', '/boards')).status).toBe(401);
    expect(((await uiApi(page, 'GET', '/webhooks')).body as { data: unknown[] }).data).toEqual([]);
  });
});
