// Paging rules of the blog list (spec §9): pages = ceil(total / 5), at least 1; the pager shows
// page 1, the current page ± 1, ellipses for the gaps, and the last page.

export type PageItem = number | 'ellipsis';

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
}

/** The pager's items, e.g. current 5 of 20 → [1, '…', 4, 5, 6, '…', 20]. */
export function pageItems(current: number, pages: number): PageItem[] {
  const shown = new Set<number>([1, pages]);
  for (let p = current - 1; p <= current + 1; p++) if (p >= 1 && p <= pages) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const items: PageItem[] = [];
  let prev = 0;
  for (const p of sorted) {
    if (p - prev > 1) items.push('ellipsis');
    items.push(p);
    prev = p;
  }
  return items;
}
