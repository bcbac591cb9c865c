package server

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/discuss"
)

// An article with 120 threads is read a page of threads at a time, newest
// page first, each thread with all its replies; the cursor walks to the
// oldest and the published count covers every page.
func TestDiscussCommentPages(t *testing.T) {
	da := newDiscussApp(t, nil)
	ctx := context.Background()
	admin := discuss.Poster{ID: da.ids["admin"], Name: "admin", Admin: true}
	top := map[int]uint64{} // thread number (1 the oldest) → its comment id
	for i := 1; i <= 120; i++ {
		c, err := da.discuss.AddComment(ctx, 1, 0, admin, fmt.Sprintf("c%d", i))
		if err != nil {
			t.Fatal(err)
		}
		top[i] = c.ID
	}
	// Replies written long after their threads: to the oldest, one in the
	// middle and the newest.
	for _, i := range []int{1, 70, 120} {
		if _, err := da.discuss.AddComment(ctx, 1, top[i], admin, fmt.Sprintf("r%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// alice's first comment waits: hers and the admins' pages count it, a
	// guest's does not.
	var pending discuss.Comment
	da.mustCall(t, "alice", "POST", "/api/blog/1/comments", `{"content":"mine"}`, 201, &pending)

	tests := []struct {
		name, who, query string
		// from and to are the page's threads (oldest, newest); mine is
		// alice's pending thread.
		from, to int
		mine     bool
		replies  []int
		next     int // the thread the next cursor names; 0: none
		older    int
	}{
		{name: "the default page is the newest 50", query: "", from: 71, to: 120, replies: []int{120}, next: 71, older: 70},
		{name: "a smaller page", query: "limit=10", from: 111, to: 120, replies: []int{120}, next: 111, older: 110},
		{name: "the page before it", query: fmt.Sprintf("limit=10&before=%d", top[111]), from: 101, to: 110, next: 101, older: 100},
		{name: "a reply stays with its thread", query: fmt.Sprintf("limit=5&before=%d", top[73]), from: 68, to: 72, replies: []int{70}, next: 68, older: 67},
		{name: "the oldest page", query: fmt.Sprintf("limit=50&before=%d", top[51]), from: 1, to: 50, replies: []int{1}},
		{name: "a limit past the cap is the cap", query: "limit=5000", from: 1, to: 120, replies: []int{1, 70, 120}},
		{name: "before the first thread is empty", query: fmt.Sprintf("before=%d", top[1])},
		{name: "the author's pending thread is on her newest page", who: "alice", query: "limit=2", from: 120, to: 120, mine: true, replies: []int{120}, next: 120, older: 119},
		{name: "and on the admin's", who: "admin", query: "limit=2", from: 120, to: 120, mine: true, replies: []int{120}, next: 120, older: 119},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got discuss.Comments
			da.mustCall(t, tc.who, "GET", "/api/blog/1/comments?"+tc.query, "", 200, &got)
			var want []string
			for i := tc.from; i >= 1 && i <= tc.to; i++ {
				want = append(want, fmt.Sprintf("c%d", i))
			}
			// Oldest first: the replies were written after all the threads,
			// alice's comment last.
			for _, r := range tc.replies {
				want = append(want, fmt.Sprintf("r%d", r))
			}
			if tc.mine {
				want = append(want, "mine")
			}
			var have []string
			for _, c := range got.Comments {
				have = append(have, c.Content)
				if c.ParentID != nil && !strings.HasPrefix(c.Content, "r") {
					t.Errorf("%q is a reply", c.Content)
				}
			}
			if strings.Join(have, " ") != strings.Join(want, " ") {
				t.Errorf("comments\n got %v\nwant %v", have, want)
			}
			var wantNext *uint64
			if tc.next != 0 {
				id := top[tc.next]
				wantNext = &id
			}
			if (got.Next == nil) != (wantNext == nil) || (got.Next != nil && *got.Next != *wantNext) {
				t.Errorf("next = %v, want %v", idOr0(got.Next), idOr0(wantNext))
			}
			if got.Older != tc.older {
				t.Errorf("older = %d, want %d", got.Older, tc.older)
			}
			if got.Published != 123 {
				t.Errorf("published = %d, want 123 on every page", got.Published)
			}
		})
	}

	// Walking the cursor from the newest page reaches every thread once.
	seen := map[string]bool{}
	query := "limit=7"
	for pages := 0; ; pages++ {
		if pages > 20 {
			t.Fatal("the cursor never ends")
		}
		var got discuss.Comments
		da.mustCall(t, "", "GET", "/api/blog/1/comments?"+query, "", 200, &got)
		for _, c := range got.Comments {
			if seen[c.Content] {
				t.Fatalf("%q on two pages", c.Content)
			}
			seen[c.Content] = true
		}
		if got.Next == nil {
			break
		}
		query = url.Values{"limit": {"7"}, "before": {fmt.Sprint(*got.Next)}}.Encode()
	}
	if len(seen) != 123 {
		t.Fatalf("walked %d comments, want 123", len(seen))
	}

	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "limit 0", URL: "/api/blog/1/comments?limit=0", ExpectedStatus: 400, ExpectedContent: []string{`"limit"`}},
		{Name: "limit not a number", URL: "/api/blog/1/comments?limit=many", ExpectedStatus: 400, ExpectedContent: []string{`"limit"`}},
		{Name: "before not an id", URL: "/api/blog/1/comments?before=x", ExpectedStatus: 400, ExpectedContent: []string{`"before"`}},
		{Name: "before 0", URL: "/api/blog/1/comments?before=0", ExpectedStatus: 400, ExpectedContent: []string{`"before"`}},
		{Name: "an empty page still has every field", URL: "/api/blog/1/comments?before=1", ExpectedStatus: 200,
			ExpectedContent: []string{`"comments":[]`, `"closed":false`, `"next":null`, `"older":0`, `"published":123`}},
	})
}

func idOr0(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}
