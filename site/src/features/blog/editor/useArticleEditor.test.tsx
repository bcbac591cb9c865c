import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../test/utils';
import { fieldsOf, fromLocalInput, toLocalInput, useArticleEditor, type EditableArticle } from './useArticleEditor';

const draft: EditableArticle = {
  id: 4, name: 'N', excerpt: 'E', content: 'one', category: 'C', image_url: '', lang: 'uk', translationKey: '',
  status: 'draft', publishAt: null, version: 3,
};
const saved = (over: Partial<EditableArticle>) => ({ ...draft, slug: 'n', createdAt: '', updatedAt: '', ...over });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the pending promise callbacks run (fetch mock, state updates). */
async function flush() {
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });
}

describe('useArticleEditor', () => {
  it('autosaves a draft a moment after the last keystroke, naming its version', async () => {
    const fetch = stubFetch({ 'PATCH /api/blog/4': ({ body }) => json(saved({ ...(body as object), version: 4 })) });
    const { result } = renderHook(() => useArticleEditor({ article: draft, defaultLang: 'uk', autosaveMs: 1000 }));
    expect(result.current.state).toBe('saved');
    act(() => result.current.set('content', 'two'));
    expect(result.current.state).toBe('unsaved');
    act(() => vi.advanceTimersByTime(600));
    act(() => result.current.set('content', 'three'));
    act(() => vi.advanceTimersByTime(600));
    expect(fetch).not.toHaveBeenCalled(); // the timer restarted with the keystroke
    await act(async () => vi.advanceTimersByTime(400));
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    const sent = JSON.parse(String(fetch.mock.calls[0][1]?.body));
    expect(sent).toMatchObject({ content: 'three', version: 3, status: 'draft' });
    expect(result.current.state).toBe('saved');
    expect(result.current.version).toBe(4);
    expect(result.current.dirty).toBe(false);
  });

  it('shows a conflict on 409 and stops autosaving until a reload', async () => {
    const fetch = stubFetch({
      'PATCH /api/blog/4': () => json({ status: 409, message: 'the article was saved by someone else', data: null }, 409),
    });
    const { result } = renderHook(() => useArticleEditor({ article: draft, defaultLang: 'uk', autosaveMs: 100 }));
    act(() => result.current.set('content', 'mine'));
    await act(async () => vi.advanceTimersByTime(100));
    await flush();
    expect(result.current.state).toBe('conflict');
    expect(result.current.error?.status).toBe(409);
    act(() => result.current.set('content', 'mine, more'));
    await act(async () => vi.advanceTimersByTime(1000));
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(result.current.state).toBe('conflict');
    // the reload takes the server's version as the new start
    act(() => result.current.reset({ ...draft, content: 'theirs', version: 9 }));
    expect(result.current.state).toBe('saved');
    expect(result.current.fields.content).toBe('theirs');
    expect(result.current.version).toBe(9);
  });

  it('does not autosave a published article: it waits for Save', async () => {
    const fetch = stubFetch({ 'PATCH /api/blog/4': ({ body }) => json(saved({ ...(body as object), status: 'published', version: 4 })) });
    const { result } = renderHook(() =>
      useArticleEditor({ article: { ...draft, status: 'published' }, defaultLang: 'uk', autosaveMs: 100 }),
    );
    act(() => result.current.set('content', 'half an edit'));
    await act(async () => vi.advanceTimersByTime(1000));
    expect(fetch).not.toHaveBeenCalled();
    expect(result.current.state).toBe('unsaved');
    await act(async () => {
      await result.current.save();
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(result.current.state).toBe('saved');
  });

  it('creates a new draft once its required fields are filled, then edits it', async () => {
    const onCreated = vi.fn();
    const fetch = stubFetch({
      'POST /api/blog': ({ body }) => json(saved({ ...(body as object), id: 12, version: 1 }), 201),
    });
    const { result } = renderHook(() => useArticleEditor({ defaultLang: 'en', autosaveMs: 100, onCreated }));
    act(() => result.current.set('content', 'body'));
    await act(async () => vi.advanceTimersByTime(500));
    expect(fetch).not.toHaveBeenCalled(); // no title, summary or category yet
    act(() => {
      result.current.set('name', 'T');
      result.current.set('excerpt', 'E');
      result.current.set('category', 'C');
    });
    await act(async () => vi.advanceTimersByTime(100));
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toMatchObject({ status: 'draft', name: 'T', lang: 'en' });
    expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 12 }));
    expect(result.current.id).toBe(12);
  });

  it('sends a scheduled time as UTC and reads it back in local time', () => {
    const iso = fromLocalInput('2030-01-31T10:00');
    expect(iso).toMatch(/^2030-01-31T\d\d:00:00\.000Z$/);
    expect(toLocalInput(iso)).toBe('2030-01-31T10:00');
    expect(fromLocalInput('')).toBeNull();
  });
});

describe('the newsletter switch', () => {
  it('is on for a new article and an article that does not say, and keeps an article\'s off', () => {
    expect(fieldsOf(undefined, 'uk').newsletter).toBe(true);
    expect(fieldsOf(draft, 'uk').newsletter).toBe(true);
    expect(fieldsOf({ ...draft, newsletter: false }, 'uk').newsletter).toBe(false);
  });
});
