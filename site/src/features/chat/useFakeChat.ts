import { useCallback, useEffect, useRef, useState } from 'react';

/** Hub the fake chat's canned reply follows the user's message after 1000 ms. */
export const CHAT_REPLY_DELAY_MS = 1000;

export type ChatAuthor = 'user' | 'bot';

export interface ChatMessage {
  id: number;
  author: ChatAuthor;
  /** The user's text; empty for the bot, whose canned reply is translated when shown. */
  text: string;
}

export interface FakeChat {
  messages: ChatMessage[];
  /** Replies still to come (the page shows "typing…" meanwhile). */
  pending: number;
  /** Appends the message and schedules the reply; false (and nothing happens) for blank text. */
  send: (text: string) => boolean;
}

/**
 * The guests' local chat: no server, nothing leaves the tab. Each message gets
 * its own reply timer, so quick messages each get their answer; timers end with the page.
 */
export function useFakeChat(delayMs = CHAT_REPLY_DELAY_MS): FakeChat {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [pending, setPending] = useState(0);
  const nextId = useRef(1);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const live = timers.current;
    return () => {
      for (const timer of live) clearTimeout(timer);
      live.clear();
    };
  }, []);

  const send = useCallback(
    (text: string) => {
      const body = text.trim();
      if (!body) return false; // empty or whitespace-only messages are ignored
      const id = nextId.current++;
      setMessages((list) => [...list, { id, author: 'user', text: body }]);
      setPending((n) => n + 1);
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        const replyId = nextId.current++;
        setMessages((list) => [...list, { id: replyId, author: 'bot', text: '' }]);
        setPending((n) => n - 1);
      }, delayMs);
      timers.current.add(timer);
      return true;
    },
    [delayMs],
  );

  return { messages, pending, send };
}
