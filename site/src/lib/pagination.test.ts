import { describe, expect, it } from 'vitest';
import rules from '../../../testdata/rules/pagination.json';
import { pageCount, pageItems } from './pagination';

describe('pageCount (testdata/rules/pagination.json)', () => {
  it.each(rules.pageCount.map((c) => [c.total, c.pageSize, c.pages] as const))('%i items at %i per page → %i pages', (total, size, pages) => {
    expect(pageCount(total, size)).toBe(pages);
  });

  it('counts a missing total as none', () => {
    expect(pageCount(Number.NaN, 5)).toBe(1);
  });
});

describe('pageItems (testdata/rules/pagination.json)', () => {
  it.each(rules.pageItems.map((c) => [c.current, c.pages, c.items] as const))('page %i of %i', (current, pages, items) => {
    expect(pageItems(current, pages)).toEqual(items.map((i) => (i === '…' ? 'ellipsis' : i)));
  });
});
