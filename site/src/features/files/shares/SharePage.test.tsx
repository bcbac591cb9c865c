import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import SharePage from './SharePage';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWx';

function renderPage() {
  return renderWithShell(<SharePage />, { route: `/s/${TOKEN}`, path: '/s/:token' });
}

const unlocked = {
  passwordRequired: true,
  locked: false,
  expiresAt: '2030-01-01T00:00:00Z',
  downloadsLeft: 2,
  file: { name: 'cat.png', size: 2_500_000, mimetype: 'image/png', type: 'image', inline: true },
};

beforeEach(async () => {
  await initTestI18n('en');
});

describe('SharePage', () => {
  it.each([
    [410, 'This link is no longer available', /expired, has been used up or was revoked/],
    [404, 'Link not found', /no share link at this address/],
  ])('shows the %i page with a clear text', async (status, title, text) => {
    stubFetch({ [`GET /s/${TOKEN}/info`]: () => json({ status, message: 'gone', data: {} }, status) });
    renderPage();
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
  });

  it('asks for the password, says when it is wrong or throttled, then shows the file', async () => {
    let attempts = 0;
    const fetch = stubFetch({
      [`GET /s/${TOKEN}/info`]: () =>
        attempts >= 3 ? json(unlocked) : json({ passwordRequired: true, locked: true, expiresAt: '2030-01-01T00:00:00Z', downloadsLeft: 2 }),
      [`POST /s/${TOKEN}/unlock`]: ({ body }) => {
        attempts++;
        if (attempts === 1) return json({ status: 401, message: 'wrong password', data: {} }, 401);
        if (attempts === 2) return json({ status: 429, message: 'too many', data: {} }, 429);
        expect(body).toEqual({ password: 'right' });
        return json({ grant: 'g', expiresAt: '2030-01-01T00:00:00Z' });
      },
    });
    renderPage();
    expect(await screen.findByText('This file is protected by a password.')).toBeTruthy();
    const input = screen.getByLabelText('Password');
    fireEvent.change(input, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong password');
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('Too many wrong passwords. Try again later.')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('heading', { name: 'cat.png' })).toBeTruthy();
    expect(screen.getByText('2')).toBeTruthy(); // downloads left
    const img = screen.getByRole('img', { name: 'cat.png' });
    expect(img.getAttribute('src')).toBe(`/s/${TOKEN}/download?inline=1`);
    const link = screen.getByRole('link', { name: 'Download' });
    expect(link.getAttribute('href')).toBe(`/s/${TOKEN}/download`);
    expect(link.getAttribute('download')).toBe('cat.png');
    // The link is the same for everyone: no account token is sent to it.
    for (const [, init] of fetch.mock.calls) {
      expect(new Headers((init as RequestInit | undefined)?.headers).get('Authorization')).toBeNull();
    }
  });

  it('shows a file without a password at once, and no preview for a type the browser may not show', async () => {
    stubFetch({
      [`GET /s/${TOKEN}/info`]: () =>
        json({ ...unlocked, passwordRequired: false, downloadsLeft: null, file: { ...unlocked.file, name: 'a.zip', mimetype: 'application/zip', type: 'other', inline: false } }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'a.zip' })).toBeTruthy();
    expect(screen.queryByText('Downloads left')).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Download' })).toBeTruthy();
  });
});
