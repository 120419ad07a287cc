// Switching to a server the app has not sent to yet (decision 0046): main asks in its own dialog (the
// test host answers for the user) and sends nothing to that server until the user says yes. The page
// shows that it waits for the answer, and what happened when the user said no, in English and Japanese.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

let host: Host;
// A server someone asked the app to use: it records every request it gets.
const heard: string[] = [];
const other = http.createServer((req, res) => {
  heard.push(`${req.method} ${req.url}`);
  res
    .writeHead(401, { 'content-type': 'application/json' })
    .end('{"error_id":"e","error_code":"UNAUTHORIZED","error_message":"no"}');
});
let otherUrl = '';

test.beforeAll(async () => {
  host = await startHost();
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await host?.close();
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

test('a new server is used only after the user confirms its address in main’s dialog; until then it hears nothing', async ({
  page,
}) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Settings');
  await expect(page.getByTestId('profile-add-hint')).toContainText(
    'asks you in a separate window to confirm its address',
  );
  await page.getByLabel('Name').fill('Shared server');
  await page.getByLabel('Server URL').fill(otherUrl);
  await page.getByLabel('API key', { exact: true }).fill('my-api-key');
  await page.getByTestId('profile-add-hint').scrollIntoViewIfNeeded();
  await screenshot(page, 'profile-add');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByTestId('profile')).toHaveCount(3);

  // The dialog stays open: the page says where to look, and the buttons wait.
  let answer: (yes: boolean) => void = () => {};
  host.dialogs.confirmServerAnswer = new Promise<boolean>((resolve) => (answer = resolve));
  await page.getByRole('button', { name: 'Use “Shared server”' }).click();
  await expect(page.getByTestId('profile-confirming')).toHaveText(
    'Confirm the server’s address in the window Kikitori opened.',
  );
  await expect(page.getByRole('button', { name: 'Use “Shared server”' })).toBeDisabled();
  await screenshot(page, 'profile-confirming');
  expect(host.dialogs.serverQuestions.at(-1)).toEqual({
    server: { name: 'Shared server', baseUrl: otherUrl },
    language: 'en',
  });

  answer(false);
  await expect(
    page.getByText(
      'Still using the current server: switching to “Shared server” was not confirmed, and nothing was sent to it.',
    ),
  ).toBeVisible();
  await expect(page.getByTestId('profile-confirming')).toHaveCount(0);
  await expect(page.locator('[data-testid="profile"][data-active="true"]')).toContainText('Test server');
  await screenshot(page, 'profile-not-confirmed');

  // The same in Japanese: asked again (a "no" is not remembered as consent), with the dialog in Japanese.
  host.dialogs.confirmServerAnswer = false;
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  await page.reload();
  await page.getByRole('navigation').getByRole('button', { name: '設定' }).click();
  await expect(page.getByTestId('profile-add-hint')).toContainText('確認するまで、そのサーバーには何も送りません');
  await page.getByRole('button', { name: '「Shared server」を使う' }).click();
  await expect(
    page.getByText(
      '切り替えが確認されなかったため、今のサーバーを使い続けます。「Shared server」には何も送っていません。',
    ),
  ).toBeVisible();
  await screenshot(page, 'profile-not-confirmed-ja');
  expect(host.dialogs.serverQuestions.at(-1)).toEqual({
    server: { name: 'Shared server', baseUrl: otherUrl },
    language: 'ja',
  });

  // Nothing reached the server while the user had not said yes; once they do, main talks to it.
  expect(heard).toEqual([]);
  host.dialogs.confirmServerAnswer = true;
  await page.getByRole('button', { name: '「Shared server」を使う' }).click();
  await expect(page.locator('[data-testid="profile"][data-active="true"]')).toContainText('Shared server');
  await expect.poll(() => heard.length).toBeGreaterThan(0);
  expect(host.dialogs.serverQuestions).toHaveLength(4);

  // Confirmed once is enough: back to the test server and again, without asking.
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  expect(await host.invoke('profiles:activate', { id: host.services.profileId })).toMatchObject({ ok: true });
  const shared = await host.invoke('profiles:list');
  const sharedId = shared.ok ? shared.value.find((profile) => profile.name === 'Shared server')!.id : '';
  expect(await host.invoke('profiles:activate', { id: sharedId })).toMatchObject({ ok: true });
  expect(await host.invoke('profiles:activate', { id: host.services.profileId })).toMatchObject({ ok: true });
  expect(host.dialogs.serverQuestions).toHaveLength(4);
});

test('the page cannot hand main a path, nor call the preload’s own channel', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  const answers = await page.evaluate(async () => {
    const api = (
      window as unknown as { kikitori: Record<string, Record<string, (request?: unknown) => Promise<unknown>>> }
    ).kikitori;
    const options = {
      language: null,
      model: 'default',
      numSpeakers: null,
      minSpeakers: null,
      maxSpeakers: null,
      dictionaryId: null,
      words: [],
    };
    const direct = await fetch('/ipc/files%3Aoffer-dropped', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paths: ['/etc/hostname'] }),
    });
    return {
      add: await api.uploads!.add!({ files: ['/etc/hostname'], options }),
      folder: await api.uploads!.addFolder!({ folder: '/etc', options }),
      rerun: await api.transcripts!.rerun!({ id: 'x', file: '/etc/hostname' }),
      offerDropped: typeof (api.files as Record<string, unknown>).offerDropped,
      direct: direct.status,
    };
  });
  expect(answers.add).toMatchObject({ ok: false, error: { code: 'validation', field: 'files.0' } });
  expect(answers.folder).toMatchObject({ ok: false, error: { code: 'validation', field: 'folder' } });
  expect(answers.rerun).toMatchObject({ ok: false, error: { code: 'validation', field: 'file' } });
  expect(answers.offerDropped).toBe('undefined');
  expect(answers.direct).toBe(404);
});
