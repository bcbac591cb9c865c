import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AccountSettings } from './AccountSettings';

const me = { id: 7, email: 'ann@example.com', name: 'Ann', role: 'user' };

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

function setup(routes: Parameters<typeof stubFetch>[0] = {}) {
  localStorage.setItem('token', 't0');
  const fetch = stubFetch({ 'GET /api/auth/profile': () => json(me), ...routes });
  const r = renderWithShell(<AccountSettings />);
  return { fetch, ...r };
}

const form = (name: string) => screen.getByRole('form', { name }) as HTMLElement;

describe('AccountSettings', () => {
  it('saves the display name and shows the account as the server answers it', async () => {
    const { fetch, client } = setup({ 'PATCH /api/auth/profile': ({ body }) => json({ ...me, name: (body as { name: string }).name }) });
    const field = (await screen.findByLabelText('Name')) as HTMLInputElement;
    expect(field.value).toBe('Ann');
    fireEvent.change(field, { target: { value: 'Anna K.' } });
    fireEvent.click(within(form('Display name')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The name is saved.')).toBeTruthy();
    expect(client.getQueryData(['auth', 'profile'])).toMatchObject({ name: 'Anna K.' });
    const call = fetch.mock.calls.find(([u, i]) => String(u).endsWith('/api/auth/profile') && i?.method === 'PATCH');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ name: 'Anna K.' });
  });

  it("shows the server's refusal of a name by its field", async () => {
    setup({
      'PATCH /api/auth/profile': () =>
        json({ status: 400, message: 'invalid', data: { name: { code: 'too_long', message: 'name must be at most 100 characters' } } }, 400),
    });
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'x'.repeat(90) } });
    fireEvent.click(within(form('Display name')).getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).not.toBe('');
  });

  it('asks for the second factor when the server wants it for a new e-mail', async () => {
    let calls = 0;
    const { fetch } = setup({
      'POST /api/auth/email': ({ body }) => {
        calls++;
        if (!(body as { code?: string }).code) {
          return json({ status: 400, message: 'code required', data: { code: { code: 'required', message: 'code required' } } }, 400);
        }
        return json({ user: { ...me, email: 'new@example.com' }, pending: false });
      },
    });
    const f = await waitFor(() => form('E-mail'));
    fireEvent.change(within(f).getByLabelText('New e-mail'), { target: { value: 'new@example.com' } });
    fireEvent.change(within(f).getByLabelText('Current password'), { target: { value: 'password1' } });
    fireEvent.click(within(f).getByRole('button', { name: 'Change e-mail' }));
    const code = await within(f).findByLabelText(/Code from the authenticator/);
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.change(within(f).getByLabelText('New e-mail'), { target: { value: 'new@example.com' } });
    fireEvent.change(within(f).getByLabelText('Current password'), { target: { value: 'password1' } });
    fireEvent.click(within(f).getByRole('button', { name: 'Change e-mail' }));
    expect(await within(f).findByText('Your e-mail is now new@example.com.')).toBeTruthy();
    expect(calls).toBe(2);
    expect(fetch).toHaveBeenCalled();
  });

  it('a change waiting for its link names the new address and keeps the current one', async () => {
    const { fetch } = setup({ 'POST /api/auth/email': () => json({ user: me, pending: true }) });
    const f = await waitFor(() => form('E-mail'));
    fireEvent.change(within(f).getByLabelText('New e-mail'), { target: { value: ' new@example.com ' } });
    fireEvent.change(within(f).getByLabelText('Current password'), { target: { value: 'password1' } });
    fireEvent.click(within(f).getByRole('button', { name: 'Change e-mail' }));
    expect(await within(f).findByText('We sent a link to new@example.com; the e-mail changes once it is opened.')).toBeTruthy();
    expect(within(f).getByText('Now: ann@example.com')).toBeTruthy();
    const call = fetch.mock.calls.find(([u, i]) => String(u).endsWith('/api/auth/email') && i?.method === 'POST');
    // The confirmation letter is written in the interface language.
    expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({ email: 'new@example.com', lang: 'en' });
  });

  it.each([
    [false, true],
    [true, false],
    [undefined, false],
  ])('an e-mail with emailVerified %s is shown as not confirmed: %s, with a new link to ask for', async (verified, shown) => {
    localStorage.setItem('token', 't0');
    const fetch = stubFetch({
      'GET /api/auth/profile': () => json({ ...me, ...(verified === undefined ? {} : { emailVerified: verified }) }),
      'POST /api/auth/verify-email/resend': () => json({ message: 'ok' }, 202),
    });
    renderWithShell(<AccountSettings />);
    await waitFor(() => form('E-mail'));
    expect(!!screen.queryByText('Not confirmed')).toBe(shown);
    if (!shown) return;
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(/a new link is on its way/)).toBeTruthy();
    const call = fetch.mock.calls.find(([u]) => String(u).endsWith('/api/auth/verify-email/resend'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ email: 'ann@example.com', lang: 'en' });
  });

  it('refuses a picture over 5 MB before sending it', async () => {
    const { fetch } = setup();
    const input = (await screen.findByLabelText('Choose a picture')) as HTMLInputElement;
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    expect((await screen.findByRole('alert')).textContent).toBe('The picture is larger than 5 MB.');
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/avatar'))).toBe(false);
  });

  it('deletes the account only after the confirmation, with the files choice, and drops the session', async () => {
    const { fetch } = setup({ 'DELETE /api/auth/profile': () => new Response(null, { status: 204 }) });
    const f = await waitFor(() => form('Delete account'));
    fireEvent.click(within(f).getByLabelText('Delete them too'));
    fireEvent.change(within(f).getByLabelText('Current password'), { target: { value: 'password1' } });
    fireEvent.click(within(f).getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog');
    const deletes = () => fetch.mock.calls.filter(([u, i]) => String(u).endsWith('/api/auth/profile') && i?.method === 'DELETE');
    expect(deletes()).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(JSON.parse(String(deletes()[0][1]?.body))).toEqual({ password: 'password1', deleteFiles: true });
  });
});
