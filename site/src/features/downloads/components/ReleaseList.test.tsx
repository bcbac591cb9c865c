import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { ReactElement } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n } from '../../../test/utils';
import type { DownloadRelease } from '../api';
import '../i18n';
import { ReleaseList } from './ReleaseList';

const SHA = 'a'.repeat(64);
const releases: DownloadRelease[] = [
  {
    version: '2.0', notes: 'New things', notesHtml: '<p>New <em>things</em></p>', date: '2026-05-02T10:00:00Z',
    files: [
      { id: 'f1', name: 'tool-x64.exe', system: 'windows', arch: 'x64', size: 1_500_000, sha256: SHA, url: '/api/downloads/tool/files/f1', downloads: 3 },
      { id: 'f2', name: 'tool.zip', system: 'any', arch: 'any', size: 999, sha256: 'b'.repeat(64), url: '/api/downloads/tool/files/f2', downloads: 1 },
    ],
  },
  { version: '1.0', notes: 'First', date: '2026-04-01T10:00:00Z', files: [{ id: 'f0', name: 'old.exe', system: 'windows', arch: 'x86', size: 10, sha256: 'c'.repeat(64), url: '/api/downloads/tool/files/f0', downloads: 0 }] },
];

const wrap = (ui: ReactElement) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

describe('ReleaseList', () => {
  beforeAll(() => initTestI18n('en'));

  it('shows the latest release, then the older ones, with each file', async () => {
    await i18n.changeLanguage('en');
    wrap(<ReleaseList releases={releases} />);
    const latest = screen.getByRole('region', { name: 'Latest release' });
    expect(within(latest).getByRole('heading', { name: 'Version 2.0' })).toBeTruthy();
    expect(within(latest).getByText('things').tagName).toBe('EM');
    const link = within(latest).getByRole('link', { name: 'Download tool-x64.exe' });
    expect(link.getAttribute('href')).toBe('/api/downloads/tool/files/f1');
    expect(within(latest).getByText('1.50 MB')).toBeTruthy();
    expect(within(latest).getByText('1.00 KB')).toBeTruthy();
    expect(within(latest).getByText(SHA)).toBeTruthy();
    expect(within(latest).getByText('3 downloads')).toBeTruthy();
    expect(within(latest).getByText('Any system')).toBeTruthy();
    const older = screen.getByRole('region', { name: 'Older releases' });
    expect(within(older).getByRole('heading', { name: 'Version 1.0' })).toBeTruthy();
    expect(within(older).queryByText('tool-x64.exe')).toBeNull();
  });

  it('sizes in the reader\'s language and units', async () => {
    await i18n.changeLanguage('uk');
    wrap(<ReleaseList releases={releases} />);
    expect(screen.getByText('1,50 МБ')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Останній випуск' })).toBeTruthy();
    await i18n.changeLanguage('en');
  });

  it('copies a checksum and says so', async () => {
    await i18n.changeLanguage('en');
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    wrap(<ReleaseList releases={releases} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy the SHA-256 of tool-x64.exe' }));
    expect(writeText).toHaveBeenCalledWith(SHA);
    expect(await screen.findByText('Copied')).toBeTruthy();
  });

  it('says when there is no release', async () => {
    await i18n.changeLanguage('en');
    wrap(<ReleaseList releases={[]} />);
    expect(screen.getByText('No release yet.')).toBeTruthy();
  });

  it('offers admins to delete each release', async () => {
    await i18n.changeLanguage('en');
    const onDelete = vi.fn();
    wrap(<ReleaseList releases={releases} onDelete={onDelete} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete release 1.0' }));
    expect(onDelete).toHaveBeenCalledWith('1.0');
  });
});
