import { createHash } from 'node:crypto';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import '../i18n';
import type { ContactChallenge } from '../api';
import ContactPage from './ContactPage';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A challenge as the server makes it, hiding number. */
function challenge(number: number, salt = `ab${number}?expires=9999999999&`): ContactChallenge {
  const hash = createHash('sha256').update(salt + number).digest('hex');
  return { algorithm: 'SHA-256', challenge: hash, maxnumber: 100, salt, signature: 'sig' };
}

function decode(altcha: string) {
  return JSON.parse(atob(altcha)) as { number: number; challenge: string; salt: string; signature: string; algorithm: string };
}

function fill() {
  fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Visitor' } });
  fireEvent.change(screen.getByLabelText('Your e-mail'), { target: { value: 'v@example.org' } });
  fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello' } });
}

describe('ContactPage', () => {
  it('solves the proof of work, sends the form with it and confirms', async () => {
    let n = 0;
    const posted: Record<string, string>[] = [];
    stubFetch({
      'GET /api/contact/challenge': () => json(challenge(++n === 1 ? 42 : 7)),
      'POST /api/contact': ({ body, headers }) => {
        posted.push(body as Record<string, string>);
        expect(headers.get('Authorization')).toBeNull();
        return json({ received: true }, 201);
      },
    });
    renderWithShell(<ContactPage />, { route: '/contact' });
    expect(screen.getByRole('heading', { level: 1, name: 'Contact' })).toBeTruthy();
    fill();
    const send = screen.getByRole('button', { name: 'Send' });
    await waitFor(() => expect((send as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(send);
    expect(await screen.findByText(/Thank you! Your message was sent/)).toBeTruthy();
    expect(posted).toHaveLength(1);
    const { altcha, ...rest } = posted[0];
    expect(rest).toEqual({ name: 'Visitor', email: 'v@example.org', message: 'Hello', website: '' });
    const sol = decode(altcha);
    expect(sol).toMatchObject({ number: 42, algorithm: 'SHA-256', signature: 'sig', salt: 'ab42?expires=9999999999&' });
    // The form is cleared and a new challenge is solved for the next message.
    expect((screen.getByLabelText('Your name') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(n).toBe(2));
  });

  it('keeps the hidden field out of reach of people', () => {
    stubFetch({ 'GET /api/contact/challenge': () => json(challenge(1)) });
    renderWithShell(<ContactPage />, { route: '/contact' });
    const trap = document.getElementById('contact-website') as HTMLInputElement;
    expect(trap.tabIndex).toBe(-1);
    expect(trap.closest('[aria-hidden="true"]')).toBeTruthy();
  });

  it('shows field errors and a rate refusal, and renews the challenge after a refusal', async () => {
    let n = 0;
    let answer = 0;
    stubFetch({
      'GET /api/contact/challenge': () => json(challenge(++n)),
      'POST /api/contact': () =>
        ++answer === 1
          ? json({ status: 400, message: 'validation failed', data: { email: { code: 'invalid', message: 'enter a valid e-mail address' } } }, 400)
          : json({ status: 429, message: 'too many messages from your network; try again later', data: {} }, 429),
    });
    renderWithShell(<ContactPage />, { route: '/contact' });
    fill();
    const send = screen.getByRole('button', { name: 'Send' });
    await waitFor(() => expect((send as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(send);
    expect(await screen.findByText('enter a valid e-mail address')).toBeTruthy();
    expect(screen.getByLabelText('Your e-mail').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(n).toBe(2));
    await waitFor(() => expect((send as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(send);
    expect(await screen.findByText('Too many messages from your network. Try again later.')).toBeTruthy();
  });

  it('says so when the check cannot be solved, and tries again', async () => {
    let n = 0;
    stubFetch({
      'GET /api/contact/challenge': () => json(++n === 1 ? { ...challenge(1), challenge: '00' } : challenge(3)),
    });
    renderWithShell(<ContactPage />, { route: '/contact' });
    expect(await screen.findByText('The anti-spam check failed.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Ready to send.')).toBeTruthy();
  });
});
