import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { SITE_SETTINGS_KEY, type SiteSettings } from '../../../lib/site';
import { initTestI18n, json, renderWithQuery, stubFetch } from '../../../test/utils';
import '../i18n';
import { DonationBanner } from './DonationBanner';

function renderBanner() {
  return renderWithQuery(<DonationBanner />);
}

describe('DonationBanner', () => {
  beforeAll(async () => {
    await initTestI18n('en');
  });

  it('shows the configured wallet, cards and a QR code of the wallet', async () => {
    const fetch = stubFetch({
      '/api/site': () => json({ contacts: {}, donation: { trc20Wallet: 'TWallet123', cardUAH: '4441 1111', cardUSD: '5375 2222' } }),
    });
    renderBanner();
    const banner = await screen.findByRole('complementary', { name: 'Support the project' });
    expect(banner.textContent).toContain('TWallet123');
    expect(banner.textContent).toContain('4441 1111');
    expect(banner.textContent).toContain('5375 2222');
    const qr = await screen.findByRole('img', { name: 'QR code of the TRC20 wallet' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // The details come from the server's configuration only.
    expect(fetch.mock.calls.map(([u]) => String(u))).toEqual([expect.stringContaining('/api/site')]);
  });

  it('shows only the configured entries, and nothing at all when none is configured', async () => {
    stubFetch({ '/api/site': () => json({ contacts: {}, donation: { cardUAH: '4441 1111' } }) });
    const first = renderBanner();
    const banner = await screen.findByRole('complementary', { name: 'Support the project' });
    expect(banner.textContent).toContain('Card (UAH)');
    expect(banner.textContent).not.toContain('Card (USD)');
    expect(screen.queryByRole('img')).toBeNull();
    first.unmount();

    stubFetch({ '/api/site': () => json({ contacts: {}, donation: { trc20Wallet: '  ', cardUAH: '', cardUSD: '' } }) });
    const { container, client } = renderBanner();
    // Once the settings have arrived (and the component has re-rendered with them).
    await waitFor(() => expect(client.getQueryData<SiteSettings>(SITE_SETTINGS_KEY)?.donation.trc20Wallet).toBe('  '));
    expect(container.innerHTML).toBe('');
  });
});
