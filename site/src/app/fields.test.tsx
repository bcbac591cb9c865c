import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../test/utils';
import { AuditLog } from '../features/auth/security/AuditLog';
import SharePage from '../features/files/shares/SharePage';
import { Player } from '../features/games/components/Player';
import { RomUploader } from '../features/games/components/RomUploader';
import { ShelfRows } from '../features/games/components/ShelfRows';
import { LanguageSelect } from '../features/portfolio/profile/LanguageSelect';
import '../features/portfolio/profile/i18n';
import { Select, TextField } from '../components/ui/Field';

// One text field and one select for the whole site: the pages that drew the browser's own
// (the home page's language, a share link's password, the games' console, slot and sort, the
// audit log's type) use the shared ones.

const isSiteSelect = (el: HTMLElement) => el.tagName === 'SELECT' && el.classList.contains('field-input') && el.classList.contains('field-input--select');
const isSiteField = (el: HTMLElement) => el.tagName === 'INPUT' && el.classList.contains('field-input');

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Select and TextField', () => {
  it('carry the site classes beside their own and pass every prop on', () => {
    renderWithShell(
      <>
        <Select aria-label="pick" className="extra" defaultValue="b">
          <option value="a">A</option>
          <option value="b">B</option>
        </Select>
        <TextField aria-label="type" type="search" className="wide" defaultValue="x" />
      </>,
    );
    const select = screen.getByRole('combobox', { name: 'pick' }) as HTMLSelectElement;
    expect(isSiteSelect(select) && select.classList.contains('extra') && select.value === 'b').toBe(true);
    const field = screen.getByRole('searchbox', { name: 'type' }) as HTMLInputElement;
    expect(isSiteField(field) && field.classList.contains('wide') && field.value === 'x').toBe(true);
  });
});

describe('the pages use them', () => {
  it('the home page language', () => {
    renderWithShell(<LanguageSelect offered={['en', 'uk']} value="en" onChange={() => {}} />);
    expect(isSiteSelect(screen.getByRole('combobox'))).toBe(true);
  });

  it('a share link password', async () => {
    stubFetch({ '/s/AbCdEfGhIjKlMnOpQrStUvWx/info': () => json({ passwordRequired: true, locked: true, expiresAt: '2030-01-01T00:00:00Z', downloadsLeft: 2 }) });
    renderWithShell(<SharePage />, { route: '/s/AbCdEfGhIjKlMnOpQrStUvWx', path: '/s/:token' });
    expect(isSiteField(await screen.findByLabelText('Password'))).toBe(true);
  });

  it('the games console, sort and save slot', () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(null)));
    const game = { id: 7, name: 'Catcher', path: '/nes/Catcher.nes', console: 'nes', hasImage: false, imagePath: '' };
    renderWithShell(
      <>
        <RomUploader consoles={[{ id: 'nes', name: 'Nintendo Entertainment System', shortName: 'NES', core: 'fceumm', stats: { games: 1 } }]} />
        <ShelfRows recent={[{ ...game, at: '2026-01-01T00:00:00Z' }]} favourites={[]} onPlay={() => {}} />
        <Player game={game} core="fceumm" onClose={() => {}} />
      </>,
    );
    const selects = screen.getAllByRole('combobox');
    expect(selects).toHaveLength(3);
    expect(selects.filter(isSiteSelect)).toHaveLength(3);
  });

  it('the audit log type', async () => {
    localStorage.setItem('token', 't');
    stubFetch({ '/api/audit': () => json({ events: [], next: null }) });
    renderWithShell(<AuditLog />);
    const region = screen.getByRole('region', { name: 'Audit log' });
    expect(isSiteSelect(within(region).getByRole('combobox'))).toBe(true);
  });
});
