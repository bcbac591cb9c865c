// Package paging is the one way every paged list in devhub (articles,
// games, downloads, forum threads and posts, files, accounts) reads a page
// request and answers a page: a Query (a 1-based page and a page size),
// normalised by the list's Rule, and a Page of the items on it with how
// many the list holds in all. The shapes the API answers in (the blog's
// {articles, totalCount}, the ROM service's meta, X-Total-Count…) are
// built from a Page by each adapter.
package paging

import (
	"fmt"

	"github.com/devhub/devhub/pkg/store"
)

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

// Query asks for one page of a list: Page is 1-based and Limit is the
// page's size; 0 in either means the client did not say.
type Query struct {
	Page, Limit int
}

// Offset is the index of the page's first item.
func (q Query) Offset() int { return Offset(q.Page, q.Limit) }

// Bounds are the slice bounds [start, end) of the page in a list of n
// items; a page past the end is empty (start == end == n). A Limit of 0
// (a rule with no Default) is the whole list.
func (q Query) Bounds(n int) (start, end int) {
	if q.Limit <= 0 {
		return 0, n
	}
	start = min(q.Offset(), n)
	return start, start + min(q.Limit, n-start)
}

// Over is what a Rule does with a limit above its Max.
type Over int

const (
	// Cap lowers the limit to Max.
	Cap Over = iota
	// Reset takes the limit as not given: Default.
	Reset
	// Refuse makes the query invalid.
	Refuse
)

// Rule is how one list normalises a Query: the page size when none is
// asked for (Default; 0 is the whole list), the largest (Max; 0 is none)
// and what a larger limit does (Over). A page or limit below 0 is invalid
// when Strict; otherwise it counts as not given.
type Rule struct {
	Default, Max int
	Over         Over
	Strict       bool
}

// Normalize applies r to q: the page is at least 1, the limit is Default
// when not given, and a limit above Max is capped, reset or refused. A
// refusal is a *store.ValidationError naming the field ("page", "limit").
func (r Rule) Normalize(q Query) (Query, error) {
	var v store.Validator
	q = r.Check(q, &v)
	return q, v.Err()
}

// Check is Normalize adding its refusals to v, beside the other fields of
// the list's query.
func (r Rule) Check(q Query, v *store.Validator) Query {
	if q.Page < 0 && r.Strict {
		v.Add("page", "invalid", "page must be a whole number of at least 1")
	}
	switch {
	case q.Limit < 0 && r.Strict:
		v.Add("limit", "invalid", r.limitMessage())
	case q.Limit <= 0:
		q.Limit = r.Default
	case r.Max > 0 && q.Limit > r.Max:
		switch r.Over {
		case Cap:
			q.Limit = r.Max
		case Reset:
			q.Limit = r.Default
		case Refuse:
			v.Add("limit", "invalid", r.limitMessage())
		}
	}
	q.Page = max(q.Page, 1)
	return q
}

// Size is the page size r gives a list read by cursor (the items before
// an id) rather than by page number: Normalize's limit, where a negative
// one counts as not given.
func (r Rule) Size(limit int) int {
	r.Strict = false
	if r.Over == Refuse {
		r.Over = Cap
	}
	q, _ := r.Normalize(Query{Limit: limit})
	return q.Limit
}

// limitMessage says which limits the rule takes.
func (r Rule) limitMessage() string {
	if r.Over == Refuse && r.Max > 0 {
		return fmt.Sprintf("limit must be between 1 and %d", r.Max)
	}
	return "limit must be a whole number of at least 1"
}

// Page is one page of a list: its items, how many items the list holds in
// all, and the (normalised) query that chose it.
type Page[T any] struct {
	Items       []T
	Total       int
	Page, Limit int
}

// Start is an empty page for q, to be filled item by item with Add while
// walking a list too large or too costly to build whole.
func Start[T any](q Query) Page[T] {
	return Page[T]{Items: []T{}, Page: q.Page, Limit: q.Limit}
}

// Add counts the list's next item and keeps it when it falls on the page.
func (p *Page[T]) Add(item T) {
	if p.Total >= Offset(p.Page, p.Limit) && (p.Limit <= 0 || len(p.Items) < p.Limit) {
		p.Items = append(p.Items, item)
	}
	p.Total++
}

// Cut is the page q selects from all (never nil, so that it answers as
// [] rather than null).
func Cut[T any](all []T, q Query) Page[T] {
	return Map(all, q, func(x T) T { return x })
}

// Map is Cut with each item on the page turned into what the page lists.
func Map[S, T any](all []S, q Query, f func(S) T) Page[T] {
	start, end := q.Bounds(len(all))
	p := Page[T]{Items: make([]T, 0, end-start), Total: len(all), Page: q.Page, Limit: q.Limit}
	for _, x := range all[start:end] {
		p.Items = append(p.Items, f(x))
	}
	return p
}
