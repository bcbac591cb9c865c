// Package paging turns a 1-based page number and a page size into the
// offset of the page's first item, the one way every paged list in devhub
// (articles, games, files, accounts) counts it.
package paging

// MaxOffset is past the end of any list devhub holds: the offset an absurd
// page gets.
const MaxOffset = 1<<31 - 1

// Offset is where page (1-based; below 1 counts as 1) of limit items
// starts: (page-1)*limit, or MaxOffset when that would be beyond it. A page
// number from a query string can be anything up to the integer's limit,
// and multiplied out it wrapped round to a negative offset (a panicking
// slice, a 500); an absurd page is simply past the end, an empty page.
func Offset(page, limit int) int {
	page = max(page, 1)
	if limit <= 0 {
		return 0
	}
	if page-1 > MaxOffset/limit {
		return MaxOffset
	}
	return (page - 1) * limit
}
