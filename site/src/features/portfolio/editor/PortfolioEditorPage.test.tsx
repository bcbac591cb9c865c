import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Page } from '../../../components/ui/Page';
import { useSiteBrand } from '../../../lib/profile';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { searchIcons } from './api';
import PortfolioEditorPage from './PortfolioEditorPage';

const admin = { id: 1, email: 'boss@example.com', name: 'Boss', role: 'admin' };
const profile = {
  name: { en: 'Ann', uk: 'Анна' },
  headline: { en: 'Developer' },
  bio: { en: 'Hello' },
  avatar: '',
  avatarUrl: '',
  location: null,
  links: [{ label: 'GitHub', url: 'https://github.com/ann', icon: 'github' }],
  services: [{ name: { en: 'Backend' }, description: { en: 'APIs' }, icon: 'go' }],
  technologies: [{ name: { en: 'Go' }, icon: 'go' }],
  tools: [{ name: { en: 'Git' }, icon: 'git' }],
  devtools: { intro: { en: 'i' }, philosophy: { en: 'p' }, groups: [{ title: { en: 'g' }, tools: [{ name: { en: 'Git' }, icon: 'git' }] }] },
  projects: [],
};

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('searchIcons', () => {
  it('puts names that start with the query first and ignores case and punctuation', () => {
    expect(searchIcons(['github', 'gitlab', 'digitalocean', 'go'], 'Git')).toEqual(['github', 'gitlab', 'digitalocean']);
    expect(searchIcons(['go'], '  ')).toEqual([]);
    expect(searchIcons(['nodedotjs'], 'Node')).toEqual(['nodedotjs']);
  });
});

describe('PortfolioEditorPage', () => {
  it('is for admins only', async () => {
    localStorage.setItem('token', 't');
    stubFetch({ 'GET /api/auth/profile': () => json({ ...admin, role: 'user' }), 'GET /api/profile': () => json(profile) });
    renderWithShell(<PortfolioEditorPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Only administrators edit the portfolio.');
  });

  it('edits a text per language, flags an unknown icon, and shows the refusal by its field', async () => {
    localStorage.setItem('token', 't');
    const puts: unknown[] = [];
    stubFetch({
      'GET /api/auth/profile': () => json(admin),
      'GET /api/profile': () => json(profile),
      'GET /icons/index.json': () => json(['git', 'github', 'go']),
      'PUT /api/profile': ({ body }) => {
        puts.push(body);
        return puts.length === 1
          ? json({ status: 400, message: 'invalid', data: { 'links.0.icon': { code: 'invalid', message: 'no icon named "nope"' } } }, 400)
          : json(body);
      },
    });
    renderWithShell(<PortfolioEditorPage />);
    fireEvent.change(await screen.findByLabelText('Language of the texts'), { target: { value: 'uk' } });
    fireEvent.change(screen.getByLabelText('Headline (uk)'), { target: { value: 'Розробниця' } });
    const icon = screen.getAllByLabelText('Icon')[0];
    fireEvent.change(icon, { target: { value: 'nope' } });
    await waitFor(() => expect(screen.getByText('Not in the icon set')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Save the portfolio' }));
    expect((await screen.findByRole('alert')).textContent).toBe('links.0.icon: no icon named "nope"');
    expect(puts[0]).toMatchObject({ headline: { en: 'Developer', uk: 'Розробниця' }, links: [{ icon: 'nope' }] });

    fireEvent.change(screen.getAllByLabelText('Icon')[0], { target: { value: 'github' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the portfolio' }));
    expect(await screen.findByText('Saved: the pages show it now.')).toBeTruthy();
  });

  it('saves the site name and subtitle, and the brand and the page title show them at once', async () => {
    localStorage.setItem('token', 't');
    const puts: Record<string, unknown>[] = [];
    stubFetch({
      'GET /api/auth/profile': () => json(admin),
      'GET /api/profile': () => json({ ...profile, site: {} }),
      'GET /icons/index.json': () => json([]),
      'PUT /api/profile': ({ body }) => {
        puts.push(body as Record<string, unknown>);
        return json(body);
      },
    });
    function Brand() {
      const { name, subtitle } = useSiteBrand({ load: true });
      return <p data-testid="brand">{`${name} / ${subtitle}`}</p>;
    }
    renderWithShell(<PortfolioEditorPage />, { extra: <><Brand /><Page title="Blog" /></> });
    await waitFor(() => expect(document.title).toBe('Blog · DevHub'));
    expect(screen.getByTestId('brand').textContent).toBe('DevHub / Developer hub');
    fireEvent.change(await screen.findByLabelText('Site name (en)'), { target: { value: "Ann's hub" } });
    fireEvent.change(screen.getByLabelText('Subtitle (en)'), { target: { value: 'Notes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the portfolio' }));
    expect(await screen.findByText('Saved: the pages show it now.')).toBeTruthy();
    expect(puts[0]).toMatchObject({ site: { name: { en: "Ann's hub" }, subtitle: { en: 'Notes' } } });
    expect(screen.getByTestId('brand').textContent).toBe("Ann's hub / Notes");
    await waitFor(() => expect(document.title).toBe("Blog · Ann's hub"));
  });
});
