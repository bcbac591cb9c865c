import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import en from '../locales/en.json';
import ru from '../locales/ru.json';
import uk from '../locales/uk.json';
import { CHAT_REPLY_DELAY_MS } from '../useFakeChat';
import ChatPage from './ChatPage';

const REPLY = en.reply;

beforeEach(async () => {
  await initTestI18n('en');
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const log = () => screen.getByRole('log', { name: 'Messages' });
const input = () => screen.getByRole('textbox', { name: 'Message' });
const sendButton = () => screen.getByRole('button', { name: 'Send' });
const bubbles = () =>
  within(log())
    .queryAllByRole('listitem')
    .filter((li) => li.classList.contains('chat-msg'))
    .map((li) => li.textContent);

function type(text: string) {
  fireEvent.change(input(), { target: { value: text } });
}

describe('ChatPage', () => {
  it('shows a guest the local preview and invites them to sign in to the real room', () => {
    renderWithShell(<ChatPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Chat' })).toBeTruthy();
    const note = screen.getByRole('complementary', { name: 'Sign in to join the room' });
    expect(note.textContent).toMatch(/local preview/);
    expect(within(note).getByRole('link', { name: 'Sign in to join' }).getAttribute('href')).toBe('/profile');
    expect(within(log()).getByText(/No messages yet/)).toBeTruthy();
  });

  it('appends the message at once and the canned reply after exactly 1000 ms', () => {
    expect(CHAT_REPLY_DELAY_MS).toBe(1000);
    renderWithShell(<ChatPage />);
    type('  Hello there  ');
    fireEvent.click(sendButton());
    expect(bubbles()).toEqual(['YouHello there']);
    expect((input() as HTMLInputElement).value).toBe('');
    expect(within(log()).getByText('DevHub is typing…')).toBeTruthy();

    act(() => vi.advanceTimersByTime(999));
    expect(bubbles()).toEqual(['YouHello there']);

    act(() => vi.advanceTimersByTime(1));
    expect(bubbles()).toEqual(['YouHello there', `DevHub${REPLY}`]);
    expect(within(log()).queryByText('DevHub is typing…')).toBeNull();
  });

  it('sends with Enter (form submit) too, and each message gets its own reply', () => {
    renderWithShell(<ChatPage />);
    type('one');
    fireEvent.submit(input().closest('form')!);
    act(() => vi.advanceTimersByTime(500));
    type('two');
    fireEvent.submit(input().closest('form')!);
    act(() => vi.advanceTimersByTime(500)); // 1000 ms after "one", 500 ms after "two"
    expect(bubbles()).toEqual(['Youone', 'Youtwo', `DevHub${REPLY}`]);
    act(() => vi.advanceTimersByTime(499));
    expect(bubbles()).toHaveLength(3);
    act(() => vi.advanceTimersByTime(1));
    expect(bubbles()).toEqual(['Youone', 'Youtwo', `DevHub${REPLY}`, `DevHub${REPLY}`]);
  });

  it.each([[''], ['   '], ['\t \n ']])('ignores the blank message %j', (text) => {
    renderWithShell(<ChatPage />);
    type(text);
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(input().closest('form')!);
    act(() => vi.advanceTimersByTime(CHAT_REPLY_DELAY_MS * 2));
    expect(bubbles()).toEqual([]);
    expect(within(log()).getByText(/No messages yet/)).toBeTruthy();
    expect(within(log()).queryByText('DevHub is typing…')).toBeNull();
  });

  it('leaving the page cancels the pending reply', () => {
    const { unmount } = renderWithShell(<ChatPage />);
    type('bye');
    fireEvent.click(sendButton());
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is translated: Ukrainian and Russian texts, the reply in the current language', async () => {
    renderWithShell(<ChatPage />);
    await act(() => i18n.changeLanguage('uk'));
    expect(screen.getByRole('heading', { level: 1, name: 'Посиденьки' })).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'Увійдіть, щоб приєднатися' }).textContent).toMatch(
      /локальний попередній перегляд/,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Повідомлення' }), { target: { value: 'Привіт' } });
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати' }));
    act(() => vi.advanceTimersByTime(CHAT_REPLY_DELAY_MS));
    expect(screen.getByText(uk.reply)).toBeTruthy();
    await act(() => i18n.changeLanguage('ru'));
    expect(screen.getByRole('heading', { level: 1, name: 'Посиделки' })).toBeTruthy();
    expect(screen.getByText(ru.reply)).toBeTruthy();
  });

  it('uk, ru and en have the same keys', () => {
    expect(Object.keys(uk).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
  });
});
