import { describe, expect, it } from 'vitest';
import type { FileGroups, FileItem } from './api';
import { THUMB_WAIT_MS, awaitingThumbnail } from './thumbnails';

const now = Date.parse('2026-01-01T12:00:00Z');

function image(ageMs: number, over: Partial<FileItem> = {}): FileItem {
  return {
    id: 1,
    originalName: 'a.png',
    size: 1,
    mimetype: 'image/png',
    type: 'image',
    uploadedAt: new Date(now - ageMs).toISOString(),
    visibility: 'public',
    ...over,
  };
}

function groups(images: FileItem[]): FileGroups {
  return { images, videos: [], audio: [], documents: [], other: [] };
}

describe('awaitingThumbnail', () => {
  it.each([
    ['a fresh image without a thumbnail', [image(1000)], true],
    ['a fresh image with one', [image(1000, { thumbnailUrl: '/t' })], false],
    ['an old image without one (refused)', [image(THUMB_WAIT_MS + 1)], false],
    ['a fresh SVG (never thumbnailed)', [image(1000, { mimetype: 'image/svg+xml' })], false],
    ['a fresh private image (never gets a URL)', [image(1000, { visibility: 'private' })], false],
    ['no images', [], false],
    ['one of several still waiting', [image(1000, { thumbnailUrl: '/t' }), image(5000, { id: 2 })], true],
  ])('%s → %s', (_, images, want) => {
    expect(awaitingThumbnail(groups(images), now)).toBe(want);
  });
});
