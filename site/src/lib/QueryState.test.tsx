import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueryState, type QueryLike } from './QueryState';

function show(query: QueryLike<string[]>) {
  return render(
    <QueryState
      query={query}
      loading="Loading…"
      error={(e) => `Failed: ${(e as Error).message}`}
      empty="Nothing yet"
      isEmpty={(d) => d.length === 0}
      className="state"
    >
      {(items) => <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>}
    </QueryState>,
  );
}

describe('QueryState', () => {
  it('says it is loading while nothing has arrived', () => {
    show({ data: undefined, error: null, isPending: true, isError: false });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.getByRole('status').className).toBe('state');
  });

  it('shows the placeholder instead of the loading line when given one, and the data in its place', () => {
    const view = (query: QueryLike<string[]>) => (
      <QueryState query={query} loading="Loading…" placeholder={<div data-testid="skeleton" />} error="bad">
        {(items) => <p>{items.join()}</p>}
      </QueryState>
    );
    const { rerender } = render(view({ data: undefined, error: null, isPending: true, isError: false }));
    expect(screen.getByTestId('skeleton')).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
    rerender(view({ data: ['a', 'b'], error: null, isPending: false, isError: false }));
    expect(screen.queryByTestId('skeleton')).toBeNull();
    expect(screen.getByText('a,b')).toBeTruthy();
  });

  it('shows the error when the read failed', () => {
    show({ data: undefined, error: new Error('boom'), isPending: false, isError: true });
    expect(screen.getByRole('alert').textContent).toBe('Failed: boom');
  });

  it('gives the error line its own class when asked to', () => {
    render(
      <QueryState query={{ data: undefined, error: new Error('x'), isPending: false, isError: true }} loading="" error="bad" className="state" errorClassName="state--error">
        {() => null}
      </QueryState>,
    );
    expect(screen.getByRole('alert').className).toBe('state--error');
  });

  it('shows the empty message for an empty answer', () => {
    show({ data: [], error: null, isPending: false, isError: false });
    expect(screen.getByRole('status').textContent).toBe('Nothing yet');
  });

  it('shows the data, and keeps it when a refresh fails', () => {
    const { rerender } = show({ data: ['a', 'b'], error: null, isPending: false, isError: false });
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    rerender(
      <QueryState query={{ data: ['a'], error: new Error('x'), isPending: false, isError: true }} loading="" error="bad">
        {(items) => <p>{items.join()}</p>}
      </QueryState>,
    );
    expect(screen.getByText('a')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
