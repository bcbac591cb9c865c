import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../../lib/auth';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AdminPanel } from '../components/AdminPanel';
import { AuthForm } from '../components/AuthForm';
import { InvitesPanel } from './InvitesPanel';
import { PasskeysSettings } from './PasskeysSettings';
import { SessionsList, deviceName } from './SessionsList';
import { TwoFactorSettings } from './TwoFactorSettings';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const USER = { id: 7, email: 'olena@example.com', name: 'Olena', role: 'user' };

function WhoAmI() {
  const { user } = useAuth();
  return <output data-testid="who">{user ? user.email : 'guest'}</output>;
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('two-step sign-in', () => {
  it('asks for the code after the password and signs in with it', async () => {
    let codes = 0;
    const fetch = stubFetch({
      '/api/auth/registration': () => json({ policy: 'open' }),
      'POST /api/auth/login': () => json({ mfaRequired: true, mfaToken: 'mfa-1' }),
      'POST /api/auth/login/2fa': ({ body }) => {
        codes++;
        const b = body as { mfaToken: string; code: string };
        if (b.code !== '123456' || b.mfaToken !== 'mfa-1') return json({ status: 401, message: 'invalid or already used code', data: {} }, 401);
        return json({ user: USER, tokens: { accessToken: 'access-1' } });
      },
    });
    renderWithShell(<AuthForm />, { extra: <WhoAmI /> });
    fill('E-mail', 'olena@example.com');
    fill('Password', 'password1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('form', { name: 'Two-step sign-in' });
    expect(screen.getByTestId('who').textContent).toBe('guest');
    fill('Code', '000000');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The code is wrong or was already used.');
    fill('Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('olena@example.com'));
    expect(codes).toBe(2);
    expect(localStorage.getItem('token')).toBe('access-1');
    expect(fetch).toHaveBeenCalled();
  });
});

describe('two-step sign-in, token expired', () => {
  it('goes back to the password step with the password cleared', async () => {
    stubFetch({
      '/api/auth/registration': () => json({ policy: 'open' }),
      'POST /api/auth/login': () => json({ mfaRequired: true, mfaToken: 'mfa-1' }),
      'POST /api/auth/login/2fa': () => json({ status: 401, message: 'invalid or expired sign-in token', data: {} }, 401),
    });
    renderWithShell(<AuthForm />, { extra: <WhoAmI /> });
    fill('E-mail', 'olena@example.com');
    fill('Password', 'password1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('form', { name: 'Two-step sign-in' });
    fill('Code', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('form', { name: 'Sign in' });
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('olena@example.com');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('who').textContent).toBe('guest');
  });
});

describe('registration policy', () => {
  it('asks for an invitation code when registration is by invitation', async () => {
    const fetch = stubFetch({
      '/api/auth/registration': () => json({ policy: 'invite' }),
      'POST /api/auth/register': () => json({ user: USER, tokens: { accessToken: 'a' } }, 201),
    });
    renderWithShell(<AuthForm initialMode="register" />);
    const invite = await screen.findByLabelText('Invitation code');
    fill('Name', 'Olena');
    fill('E-mail', 'olena@example.com');
    fill('Password', 'password1');
    fill('Confirm password', 'password1');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please fill in all fields');
    fireEvent.change(invite, { target: { value: 'code-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u) === '/api/auth/register')).toBe(true));
    const call = fetch.mock.calls.find(([u]) => String(u) === '/api/auth/register')!;
    expect(JSON.parse((call[1] as RequestInit).body as string).invite).toBe('code-1');
  });

  it('offers no registration when it is closed', async () => {
    stubFetch({ '/api/auth/registration': () => json({ policy: 'closed' }) });
    renderWithShell(<AuthForm />);
    await waitFor(() => expect(screen.queryByRole('button', { name: /Register/ })).toBeNull());
  });
});

describe('TwoFactorSettings', () => {
  it('turns on with a QR code and a code, and shows the recovery codes once', async () => {
    localStorage.setItem('token', 't');
    let on = false;
    stubFetch({
      '/api/auth/2fa': () => json({ totp: on, recoveryCodesLeft: on ? 10 : 0 }),
      'POST /api/auth/2fa/totp': () => json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/devhub:o?secret=JBSWY3DPEHPK3PXP' }),
      'POST /api/auth/2fa/totp/confirm': ({ body }) => {
        if ((body as { code: string }).code !== '654321') return json({ status: 400, message: 'invalid', data: {} }, 400);
        on = true;
        return json({ recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'] });
      },
    });
    renderWithShell(<TwoFactorSettings />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    expect((await screen.findByText('JBSWY3DPEHPK3PXP')).tagName).toBe('CODE');
    fill('Code from the app', '111111');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The code is wrong or was already used.');
    fill('Code from the app', '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['aaaaa-bbbbb', 'ccccc-ddddd']);
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('Recovery codes left: 10')).toBeTruthy();
    expect(screen.queryByText('aaaaa-bbbbb')).toBeNull();
  });

  it.each([
    { untick: false, signOutOthers: true, shown: '2 other sessions were signed out.' },
    { untick: true, signOutOthers: false, shown: null },
  ])('offers to sign out the other sessions, ticked by default (untick: $untick)', async ({ untick, signOutOthers, shown }) => {
    localStorage.setItem('token', 't');
    const sent: unknown[] = [];
    stubFetch({
      '/api/auth/2fa': () => json({ totp: false, recoveryCodesLeft: 0 }),
      'POST /api/auth/2fa/totp': () => json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/devhub:o?secret=JBSWY3DPEHPK3PXP' }),
      'POST /api/auth/2fa/totp/confirm': ({ body }) => {
        sent.push(body);
        const b = body as { signOutOthers: boolean };
        return json({ recoveryCodes: ['aaaaa-bbbbb'], signedOut: b.signOutOthers ? 2 : 0 });
      },
    });
    renderWithShell(<TwoFactorSettings />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    const box = (await screen.findByRole('checkbox', { name: 'Sign out my other sessions' })) as HTMLInputElement;
    expect(box.checked).toBe(true);
    if (untick) fireEvent.click(box);
    fill('Code from the app', '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('list', { name: 'Recovery codes' });
    expect(sent).toEqual([{ code: '654321', signOutOthers }]);
    if (shown) expect(screen.getByText(shown).getAttribute('role')).toBe('status');
    else expect(screen.queryByText(/signed out/)).toBeNull();
  });

  it('names the choice and the outcome in uk and ru', async () => {
    for (const [lang, label, done] of [
      ['uk', 'Завершити мої інші сеанси', 'Завершено 3 інші сеанси.'],
      ['ru', 'Завершить мои другие сеансы', 'Завершено 3 других сеанса.'],
    ] as const) {
      await initTestI18n(lang);
      try {
        localStorage.setItem('token', 't');
        stubFetch({
          '/api/auth/2fa': () => json({ totp: false, recoveryCodesLeft: 0 }),
          'POST /api/auth/2fa/totp': () => json({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/devhub:o?secret=JBSWY3DPEHPK3PXP' }),
          'POST /api/auth/2fa/totp/confirm': () => json({ recoveryCodes: ['aaaaa-bbbbb'], signedOut: 3 }),
        });
        const { unmount } = renderWithShell(<TwoFactorSettings />);
        fireEvent.click(await screen.findByRole('button', { name: lang === 'uk' ? 'Увімкнути' : 'Включить' }));
        expect(((await screen.findByRole('checkbox', { name: label })) as HTMLInputElement).checked).toBe(true);
        fireEvent.change(screen.getByRole('textbox'), { target: { value: '654321' } });
        fireEvent.submit(screen.getByRole('textbox').closest('form')!);
        expect((await screen.findByText(done)).getAttribute('role')).toBe('status');
        unmount();
      } finally {
        await initTestI18n('en');
      }
    }
  });

  it('says the wait of too many wrong codes in the reader’s language, not the server’s sentence', async () => {
    await initTestI18n('uk');
    try {
      localStorage.setItem('token', 't');
      stubFetch({
        '/api/auth/2fa': () => json({ totp: true, recoveryCodesLeft: 10 }),
        'DELETE /api/auth/2fa/totp': () =>
          json({ status: 429, message: 'too many wrong codes for this account; try again in 843 s', data: {} }, 429),
      });
      renderWithShell(<TwoFactorSettings />);
      fireEvent.click(await screen.findByRole('button', { name: 'Вимкнути' }));
      fill('Код', '111111');
      fireEvent.click(screen.getAllByRole('button', { name: 'Вимкнути' }).at(-1)!);
      expect((await screen.findByRole('alert')).textContent).toBe('Забагато спроб. Спробуйте через 843 с.');
    } finally {
      await initTestI18n('en');
    }
  });
});

describe('SessionsList', () => {
  it('names devices from the User-Agent', () => {
    const t = (k: string, o?: Record<string, string>) => (o ? `${o.browser} on ${o.os}` : k);
    expect(deviceName('Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', t)).toBe('Firefox 133 on Ubuntu');
    expect(deviceName('curl/8.5.0', t)).toMatch(/curl|sessions.unknownDevice/);
    expect(deviceName('', t)).toBe('sessions.unknownDevice');
  });

  it('signs a device out and all others', async () => {
    localStorage.setItem('token', 't');
    const deleted: string[] = [];
    const sessions = [
      { id: 's1', createdAt: '2026-01-01T00:00:00Z', lastUsedAt: '2026-01-02T00:00:00Z', ip: '192.0.2.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', current: true },
      { id: 's2', createdAt: '2026-01-01T00:00:00Z', lastUsedAt: '2026-01-01T00:00:00Z', ip: '198.51.100.2', userAgent: 'Phone', current: false },
    ];
    stubFetch({
      '/api/auth/sessions': () => json(sessions),
      'DELETE /api/auth/sessions/s2': () => {
        deleted.push('s2');
        return new Response(null, { status: 204 });
      },
      'DELETE /api/auth/sessions': () => {
        deleted.push('others');
        return new Response(null, { status: 204 });
      },
    });
    renderWithShell(<SessionsList />);
    expect(await screen.findByText('This device')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Sign out: / }));
    await waitFor(() => expect(deleted).toEqual(['s2']));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await waitFor(() => expect(deleted).toEqual(['s2', 'others']));
  });
});

describe('the security lists read through one pattern', () => {
  it('say they load, then what failed or that there is nothing', async () => {
    localStorage.setItem('token', 't');
    stubFetch({
      '/api/auth/passkeys': () => json([]),
      '/api/auth/sessions': () => json({ status: 500, message: 'boom', data: {} }, 500),
      '/api/auth/admin/invites': () => json({ status: 500, message: 'boom', data: {} }, 500),
    });
    renderWithShell(
      <>
        <PasskeysSettings />
        <SessionsList />
        <InvitesPanel />
      </>,
    );
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Loading the list…');
    expect(await screen.findByText('No passkeys yet')).toBeTruthy();
    expect(await screen.findByText('Could not load the sessions.')).toBeTruthy();
    expect(await screen.findByText('Could not load the list.')).toBeTruthy();
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['Could not load the sessions.', 'Could not load the list.']);
  });
});

describe('AdminPanel management', () => {
  it('changes a role and deletes a user with their files', async () => {
    localStorage.setItem('token', 't');
    const calls: string[] = [];
    stubFetch({
      '/api/auth/profile': () => json({ id: 1, email: 'boss@example.com', name: 'Boss', role: 'admin' }),
      '/api/auth/admin/users': () => json([{ id: 1, email: 'boss@example.com', role: 'admin' }, { id: 2, email: 'dev@example.com', role: 'user' }]),
      'PATCH /api/auth/admin/users/2': ({ body }) => {
        calls.push(`role:${(body as { role: string }).role}`);
        return json({ id: 2, email: 'dev@example.com', role: 'admin' });
      },
      'DELETE /api/auth/admin/users/2': ({ url }) => {
        calls.push(`delete:${new URL(url, 'http://x').searchParams.get('files')}`);
        return new Response(null, { status: 204 });
      },
    });
    renderWithShell(<AdminPanel />);
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    await waitFor(() => expect(within(rows[1]).getByText('That is you')).toBeTruthy());
    fireEvent.click(within(rows[2]).getByRole('button', { name: 'Make admin' }));
    await waitFor(() => expect(calls).toEqual(['role:admin']));
    fireEvent.click(within(rows[2]).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete dev@example.com?' });
    fireEvent.click(within(dialog).getByLabelText('Delete the files too'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete the account' }));
    await waitFor(() => expect(calls).toEqual(['role:admin', 'delete:delete']));
  });
});
