// The SPA's one pagination helper. Pages = ceil(total / pageSize), at least 1 — a missing,
// negative or non-numeric total counts as none. The pager shows page 1, the current page ± 1,
// ellipses for the gaps, and the last page. Each page keeps its own page size (blog 5,
// games 100); the cases are testdata/rules/pagination.json.

export type PageItem = number | 'ellipsis';

/** How many pages `total` items fill at `pageSize` per page: at least 1. */
export function pageCount(total: number, pageSize: number): number {
  const t = Number.isFinite(total) ? Math.max(0, total) : 0;
  const size = Number.isFinite(pageSize) && pageSize >= 1 ? Math.floor(pageSize) : 1;
  return Math.max(1, Math.ceil(t / size));
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
