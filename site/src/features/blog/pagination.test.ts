import { describe, expect, it } from 'vitest';
import { pageCount, pageItems } from './pagination';

const E = 'ellipsis' as const;

describe('pageItems', () => {
  it.each([
    [5, 20, [1, E, 4, 5, 6, E, 20]],
    [1, 20, [1, 2, E, 20]],
    [2, 20, [1, 2, 3, E, 20]],
    [3, 20, [1, 2, 3, 4, E, 20]],
    [4, 20, [1, E, 3, 4, 5, E, 20]],
    [18, 20, [1, E, 17, 18, 19, 20]],
    [19, 20, [1, E, 18, 19, 20]],
    [20, 20, [1, E, 19, 20]],
    [1, 1, [1]],
    [1, 2, [1, 2]],
    [2, 3, [1, 2, 3]],
    [3, 5, [1, 2, 3, 4, 5]],
  ])('page %i of %i', (current, pages, want) => {
    expect(pageItems(current, pages)).toEqual(want);
  });
});

describe('pageCount', () => {
  it.each([
    [0, 1],
    [1, 1],
    [5, 1],
    [6, 2],
    [10, 2],
    [11, 3],
    [100, 20],
    [-3, 1],
  ])('%i articles → %i pages of 5', (total, pages) => {
    expect(pageCount(total, 5)).toBe(pages);
  });
});
