import { fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import '../i18n';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import { SelectionBar } from './SelectionBar';

beforeAll(async () => {
  await initTestI18n('uk');
});

describe('SelectionBar', () => {
  it('is absent while nothing is chosen', () => {
    renderWithShell(<SelectionBar count={0} busy={false} onDownload={vi.fn()} onClear={vi.fn()} />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('counts the chosen files in Ukrainian plurals and acts on them', () => {
    const onDownload = vi.fn();
    const onClear = vi.fn();
    renderWithShell(<SelectionBar count={3} busy={false} onDownload={onDownload} onClear={onClear} />);
    expect(screen.getByText('Вибрано 3 файли')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Завантажити вибрані (zip)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Зняти вибір' }));
    expect(onDownload).toHaveBeenCalledOnce();
    expect(onClear).toHaveBeenCalledOnce();
  });

  it('holds the download while one runs', () => {
    renderWithShell(<SelectionBar count={5} busy onDownload={vi.fn()} onClear={vi.fn()} />);
    expect((screen.getByRole('button', { name: 'Завантажити вибрані (zip)' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Вибрано 5 файлів')).toBeTruthy();
  });
});
