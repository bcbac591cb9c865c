import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n } from '../../../test/utils';
import { Pagination } from './Pagination';

beforeAll(async () => {
  await initTestI18n('en');
});

function renderPager(page: number, pages: number, onChange = vi.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <Pagination page={page} pages={pages} onChange={onChange} />
    </I18nextProvider>,
  );
  return onChange;
}

describe('Pagination', () => {
  it('shows 1 … 4 5 6 … 20 on page 5 of 20', () => {
    const onChange = renderPager(5, 20);
    const nav = screen.getByRole('navigation', { name: 'Blog pages' });
    expect(within(nav).getByRole('list').textContent).toBe('1…456…20');
    expect(within(nav).getByRole('button', { name: 'Page 5' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(nav).getByRole('button', { name: 'Page 6' }));
    fireEvent.click(within(nav).getByRole('button', { name: 'Page 20' }));
    fireEvent.click(within(nav).getByRole('button', { name: 'Previous page' }));
    expect(onChange.mock.calls.map((c) => c[0])).toEqual([6, 20, 4]);
  });

  it('disables previous on the first page and next on the last', () => {
    renderPager(1, 3);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('is not shown for a single page', () => {
    renderPager(1, 1);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
