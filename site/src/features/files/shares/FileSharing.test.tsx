import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import type { FileDetail } from '../api';
import { FilePreview } from './FilePreview';
import { FileSharing } from './FileSharing';
import { MyShares } from './MyShares';
import { PrivateBadge } from './PrivateBadge';
import type { ShareLink } from './api';

const file: FileDetail = {
  id: 5,
  originalName: 'talk.pdf',
  size: 10,
  mimetype: 'application/pdf',
  type: 'document',
  uploadedAt: '2025-01-01T00:00:00Z',
  visibility: 'public',
  sha256: 'ab'.repeat(32),
};

const profile = () => json({ id: 2, email: 'user@example.com', name: 'User', role: 'user' });

const link: ShareLink = {
  token: 'TokTokTokTokTokTokTokTok',
  url: 'http://localhost/s/TokTokTokTokTokTokTokTok',
  fileId: 5,
  fileName: 'talk.pdf',
  creator: 'user@example.com',
  createdAt: '2025-01-01T00:00:00Z',
  expiresAt: '2030-01-01T00:00:00Z',
  maxDownloads: 3,
  downloads: 1,
  hasPassword: true,
  state: 'active',
};

beforeEach(async () => {
  await initTestI18n('en');
  localStorage.setItem('token', 'tok');
});

describe('FileSharing', () => {
  it('shows nothing to someone who may not manage the file', async () => {
    const fetch = stubFetch({
      'GET /api/auth/profile': profile,
      'GET /api/files/5/shares': () => json({ status: 403, message: 'no', data: {} }, 403),
    });
    const { container } = renderWithShell(<FileSharing file={file} onChange={() => {}} />);
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).includes('/api/files/5/shares'))).toBe(true));
    expect(container.querySelector('.file-shares')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('renames the file for its uploader, and says why the server refused a name', async () => {
    let calls = 0;
    stubFetch({
      'GET /api/auth/profile': profile,
      'GET /api/files/5/shares': () => json([]),
      'PATCH /api/files/5': ({ body }) => {
        calls++;
        const name = (body as { name: string }).name;
        if (name.includes('/')) return json({ status: 400, message: 'name must not contain /', data: {} }, 400);
        return json({ ...file, originalName: name });
      },
    });
    const onChange = vi.fn();
    renderWithShell(<FileSharing file={file} onChange={onChange} />);
    const input = await screen.findByRole('textbox', { name: 'File name' });
    const save = screen.getByRole('button', { name: 'Rename' });
    expect((save as HTMLButtonElement).disabled).toBe(true); // nothing changed yet
    fireEvent.change(input, { target: { value: 'slides.pdf' } });
    fireEvent.click(save);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ originalName: 'slides.pdf' })));
    fireEvent.change(input, { target: { value: 'a/b.pdf' } });
    fireEvent.click(save);
    await waitFor(() => expect(calls).toBe(2));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('asks nothing for a guest', async () => {
    localStorage.removeItem('token');
    const fetch = stubFetch({});
    renderWithShell(<FileSharing file={file} onChange={() => {}} />);
    expect(fetch.mock.calls.filter(([u]) => String(u).includes('/shares'))).toHaveLength(0);
  });

  it('lists, creates and revokes links, and switches the file private', async () => {
    let links = [link];
    const created: unknown[] = [];
    const onChange = vi.fn();
    stubFetch({
      'GET /api/auth/profile': profile,
      'GET /api/files/5/shares': () => json(links),
      'POST /api/files/5/shares': ({ body }) => {
        created.push(body);
        const token = 'NewNewNewNewNewNewNewNewN';
        const l = { ...link, token, url: `http://localhost/s/${token}`, maxDownloads: null, hasPassword: false };
        links = [l, ...links];
        return json(l, 201);
      },
      [`DELETE /api/shares/${link.token}`]: () => {
        links = links.map((l) => (l.token === link.token ? { ...l, state: 'revoked' as const } : l));
        return new Response(null, { status: 204 });
      },
      'PATCH /api/files/5': ({ body }) => json({ ...file, ...(body as object) }),
    });
    renderWithShell(<FileSharing file={file} onChange={onChange} />);
    expect(await screen.findByText(link.url)).toBeTruthy();
    expect(screen.getByText('1 / 3')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('Private — only me and administrators'));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ visibility: 'private' })));

    fireEvent.change(screen.getByLabelText('Expires in'), { target: { value: '1d' } });
    fireEvent.change(screen.getByLabelText('Password (optional)'), { target: { value: 'pw' } });
    fireEvent.change(screen.getByLabelText('Maximum downloads (optional)'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(created).toEqual([{ expiresIn: '1d', password: 'pw', maxDownloads: 2 }]));
    expect(await screen.findByText('http://localhost/s/NewNewNewNewNewNewNewNewN', undefined, { timeout: 5000 })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: `Revoke the link ${link.token.slice(0, 6)}` }));
    expect(await screen.findByText('revoked', undefined, { timeout: 5000 })).toBeTruthy();
  }, 20_000);

  it('lists every link of the account on the profile, with its file', async () => {
    stubFetch({ 'GET /api/shares': () => json([link, { ...link, token: 'OldOldOldOldOldOldOldOldO', state: 'expired' }]) });
    renderWithShell(<MyShares />);
    expect((await screen.findAllByRole('link', { name: 'talk.pdf' }))[0].getAttribute('href')).toBe('/filecloud/5');
    expect(screen.getByText('expired')).toBeTruthy();
    // Only the active link can be revoked.
    expect(screen.getAllByRole('button', { name: /^Revoke the link/ })).toHaveLength(1);
  });
});

describe('FilePreview', () => {
  it.each([
    ['image/png', 'img'],
    ['video/mp4', 'video'],
    ['audio/mpeg', 'audio'],
    ['application/pdf', 'iframe'],
  ])('shows %s in a <%s>', (mimetype, tag) => {
    const { container } = render(<FilePreview src="/x" mimetype={mimetype} name="n" />);
    expect(container.querySelector(tag)?.getAttribute('src')).toBe('/x');
  });

  it.each(['image/svg+xml', 'text/html', 'application/zip'])('shows no preview for %s', (mimetype) => {
    const { container } = render(<FilePreview src="/x" mimetype={mimetype} name="n" />);
    expect(container.querySelector('img, video, audio, iframe')).toBeNull();
  });
});

describe('PrivateBadge', () => {
  it('marks only a private file', () => {
    const { container, rerender } = renderWithShell(<PrivateBadge file={{ visibility: 'private' }} />);
    expect(screen.getByText('Private')).toBeTruthy();
    rerender(<PrivateBadge file={{ visibility: 'public' }} />);
    expect(container.querySelector('.files-row__private')).toBeNull();
  });
});
