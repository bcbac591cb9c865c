import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import FileDetailPage from './FileDetailPage';

const detail = {
  id: 4,
  originalName: 'talk.mp4',
  size: 2_345_678,
  mimetype: 'video/mp4',
  uploadedAt: '2025-03-01T10:00:00Z',
  type: 'video',
  sha256: 'ab'.repeat(32),
};

function renderAt(id: string) {
  return renderWithShell(<FileDetailPage />, { route: `/filecloud/${id}`, path: '/filecloud/:fileId' });
}

beforeEach(async () => {
  await initTestI18n('uk');
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FileDetailPage', () => {
  it('shows the name, the decimal size, the type and the upload time', async () => {
    stubFetch({ 'GET /api/files/4': () => json(detail) });
    renderAt('4');
    expect(await screen.findByRole('heading', { name: 'talk.mp4' })).toBeTruthy();
    expect(screen.getByTestId('file-size').textContent).toMatch(/^2,35 МБ \(2\s345\s678 байт\)$/);
    expect(screen.getByText('video/mp4')).toBeTruthy();
    expect(screen.getByText('Назва')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Назад до файлової хмари' }).getAttribute('href')).toBe('/filecloud');
  });

  it.each([
    ['999', 'Файл не знайдено', () => json({ status: 404, message: 'not found', data: {} }, 404)],
    ['5', 'HTTP error! status: 500', () => json({ status: 500, message: 'internal', data: {} }, 500)],
    ['6', 'Server returned non-JSON response', () => new Response('<html>', { headers: { 'Content-Type': 'text/html' } })],
  ])('shows the spec text for id %s', async (id, text, answer) => {
    stubFetch({ [`GET /api/files/${id}`]: answer });
    renderAt(id);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it('says "Файл не знайдено" for an id that is not a number, without asking the server', async () => {
    const fetch = stubFetch({});
    renderAt('..%2F..%2Fetc');
    expect((await screen.findByRole('alert')).textContent).toBe('Файл не знайдено');
    expect(fetch.mock.calls.filter(([u]) => String(u).includes('/api/files'))).toHaveLength(0);
  });

  it('shows "Помилка при завантаженні файлу" when the network fails', async () => {
    stubFetch({
      'GET /api/files/4': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderAt('4');
    expect((await screen.findByRole('alert')).textContent).toBe('Помилка при завантаженні файлу');
  });

  it('downloads, and shows "Помилка при скачуванні файлу" when that fails', async () => {
    let fail = false;
    stubFetch({
      'GET /api/files/4': () => json(detail),
      'GET /api/files/4/download': () =>
        fail
          ? json({ status: 500, message: 'x', data: {} }, 500)
          : new Response(new Uint8Array(10), { headers: { 'Content-Type': 'video/mp4', 'Content-Length': '10' } }),
    });
    renderAt('4');
    fireEvent.click(await screen.findByRole('button', { name: 'Скачати' }));
    await vi.waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Скачати' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Помилка при скачуванні файлу');
  });

  it('uses English units in English', async () => {
    await initTestI18n('en');
    stubFetch({ 'GET /api/files/4': () => json({ ...detail, size: 1500 }) });
    renderAt('4');
    expect((await screen.findByTestId('file-size')).textContent).toBe('1.50 KB (1,500 bytes)');
  });
});
