import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTestI18n } from '../../../test/utils';
import type { FileItem } from '../api';
import '../i18n';
import { FileThumb, THUMB_BOX } from './FileThumb';

function file(over: Partial<FileItem> = {}): FileItem {
  return {
    id: 7,
    originalName: 'cat.jpg',
    size: 1000,
    mimetype: 'image/jpeg',
    type: 'image',
    uploadedAt: '2025-01-01T00:00:00Z',
    visibility: 'public',
    ...over,
  };
}

async function renderThumb(f: FileItem, lang: 'en' | 'uk' = 'en') {
  const i18n = await initTestI18n(lang);
  return render(
    <I18nextProvider i18n={i18n}>
      <FileThumb file={f} />
    </I18nextProvider>,
  );
}

beforeAll(async () => {
  await initTestI18n('en');
});

describe('FileThumb', () => {
  it('shows the thumbnail lazily in a fixed box, with alt text', async () => {
    await renderThumb(file({ thumbnailUrl: '/api/files/7/thumbnail?v=abc-1' }));
    const img = screen.getByRole('img', { name: 'Thumbnail of cat.jpg' });
    expect(img.getAttribute('src')).toBe('/api/files/7/thumbnail?v=abc-1');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('width')).toBe(String(THUMB_BOX));
    expect(img.getAttribute('height')).toBe(String(THUMB_BOX));
  });

  it('translates the alt text', async () => {
    await renderThumb(file({ thumbnailUrl: '/t' }), 'uk');
    expect(screen.getByRole('img', { name: 'Мініатюра: cat.jpg' })).toBeTruthy();
    await initTestI18n('en');
  });

  it.each([
    ['an image without a thumbnail yet', file()],
    ['a document', file({ type: 'document', mimetype: 'application/pdf', originalName: 'a.pdf' })],
    ['a video', file({ type: 'video', mimetype: 'video/mp4' })],
  ])('falls back to the type icon for %s', async (_, f) => {
    const { container } = await renderThumb(f);
    expect(screen.queryByRole('img')).toBeNull();
    const icon = container.querySelector('svg');
    expect(icon?.getAttribute('aria-hidden')).toBe('true');
    expect(icon?.getAttribute('class')).toContain(`files-thumb__icon--${f.type}`);
  });

  it('falls back to the icon when the thumbnail does not load', async () => {
    const { container } = await renderThumb(file({ thumbnailUrl: '/gone' }));
    fireEvent.error(screen.getByRole('img'));
    expect(screen.queryByRole('img')).toBeNull();
    expect(container.querySelector('svg.files-thumb__icon--image')).toBeTruthy();
  });
});
