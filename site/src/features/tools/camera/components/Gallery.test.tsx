import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTestI18n } from '../../../../test/utils';
import '../i18n';
import { Gallery } from './Gallery';

beforeAll(async () => {
  await initTestI18n('en');
});

describe('Gallery', () => {
  it('names its list once with the count: "Photos: 0", not "Photos Photos: 0"', () => {
    render(<Gallery photos={[]} onDelete={() => {}} />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Photos: 0');
    expect(screen.getByRole('region', { name: 'Photos: 0' })).toBeTruthy();
  });
});
