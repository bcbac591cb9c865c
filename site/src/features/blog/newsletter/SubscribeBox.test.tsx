import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import '../i18n';
import NewsletterCount from './NewsletterCount';
import { SubscribeBox } from './SubscribeBox';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const writes = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');
const fill = (value: string) => fireEvent.change(screen.getByLabelText('Електронна пошта'), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Підписатися' }));

describe('SubscribeBox', () => {
  it('is not shown when the server says mail is off', async () => {
    const fetch = stubFetch({ 'GET /api/newsletter': () => json({ available: false }) });
    const { container } = renderWithShell(<SubscribeBox />);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    expect(container.querySelector('.newsletter-box')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Підписатися' })).toBeNull();
  });

  it('subscribes in the interface language and says the same for any address', async () => {
    const fetch = stubFetch({
      'GET /api/newsletter': () => json({ available: true }),
      'POST /api/newsletter/subscribe': () => json({ message: 'ok' }, 202),
    });
    renderWithShell(<SubscribeBox />);
    await screen.findByRole('heading', { name: 'Розсилка блогу' });
    fill(' olena@example.com ');
    submit();
    expect(await screen.findByText(/посиланням для підтвердження вже в дорозі/)).toBeTruthy();
    expect(writes(fetch)).toHaveLength(1);
    expect(JSON.parse(String(writes(fetch)[0][1]?.body))).toEqual({ email: 'olena@example.com', lang: 'uk' });
  });

  it('checks the address before asking', async () => {
    const fetch = stubFetch({ 'GET /api/newsletter': () => json({ available: true }) });
    renderWithShell(<SubscribeBox />);
    await screen.findByRole('heading', { name: 'Розсилка блогу' });
    fill('not an address');
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Введіть правильну адресу електронної пошти.');
    expect(writes(fetch)).toHaveLength(0);
  });

  it.each([
    [429, 'Забагато запитів'],
    [404, 'недоступна'],
    [500, 'Не вдалося'],
  ])('a %s answer is explained', async (status, text) => {
    stubFetch({
      'GET /api/newsletter': () => json({ available: true }),
      'POST /api/newsletter/subscribe': () => json({ status, message: 'no', data: {} }, status),
    });
    renderWithShell(<SubscribeBox />);
    await screen.findByRole('heading', { name: 'Розсилка блогу' });
    fill('olena@example.com');
    submit();
    expect((await screen.findByRole('alert')).textContent).toContain(text);
  });

  it("shows an admin the subscribers' count", async () => {
    stubFetch({
      'GET /api/newsletter': () => json({ available: true }),
      'GET /api/newsletter/subscribers': () => json({ confirmed: 5, pending: 1, byLang: { uk: 5 } }),
    });
    renderWithShell(<SubscribeBox isAdmin />);
    expect(await screen.findByText('Підписників: 5 (ще 1 не підтвердили)')).toBeTruthy();
  });
});

describe('NewsletterCount (the admin panel)', () => {
  it('counts the subscribers per language', async () => {
    stubFetch({
      'GET /api/newsletter': () => json({ available: true }),
      'GET /api/newsletter/subscribers': () => json({ confirmed: 3, pending: 0, byLang: { uk: 2, en: 1 } }),
    });
    renderWithShell(<NewsletterCount />);
    expect(await screen.findByText('Підписників: 3 (ще 0 не підтвердили)')).toBeTruthy();
    expect(screen.getByText('en: 1 · uk: 2')).toBeTruthy();
  });

  it('says when the newsletter is off', async () => {
    stubFetch({
      'GET /api/newsletter': () => json({ available: false }),
      'GET /api/newsletter/subscribers': () => json({ confirmed: 0, pending: 0, byLang: {} }),
    });
    renderWithShell(<NewsletterCount />);
    expect(await screen.findByText(/Розсилка вимкнена/)).toBeTruthy();
  });
});
