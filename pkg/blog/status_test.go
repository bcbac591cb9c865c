package blog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// An article stored before statuses existed is a published one at version 1.
func TestArticlesFromBeforeStatusesArePublished(t *testing.T) {
	st := storetest.Open(t)
	if err := st.EnsureBuckets(string(bucketArticles), string(bucketSlugs)); err != nil {
		t.Fatal(err)
	}
	err := st.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketArticles).Put(store.Itob(1), []byte(`{"id":1,"slug":"old","name":"Old","excerpt":"e","content":"c","category":"x","createdAt":"2020-01-01T00:00:00Z","updatedAt":"2020-01-01T00:00:00Z"}`)); err != nil {
			return err
		}
		return tx.Bucket(bucketSlugs).Put([]byte("old"), store.Itob(1))
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.GetFor(1, false)
	if err != nil || a.Status != StatusPublished || a.Version != 1 || a.PublishAt != nil {
		t.Fatalf("%+v %v", a, err)
	}
	if p, _ := s.List(Query{}); p.TotalCount != 1 {
		t.Fatalf("the old article is not listed: %+v", p)
	}
}

func TestScheduleByTheClock(t *testing.T) {
	s := newTestService(t)
	now := time.Date(2031, 3, 1, 9, 0, 0, 0, time.UTC)
	s.SetClock(func() time.Time { return now })
	ctx := context.Background()
	at := now.Add(30 * time.Minute)
	old, _ := s.Create(ctx, Input{Name: "Old", Excerpt: "e", Category: "c", Content: "x"})
	sch, err := s.Create(ctx, Input{Name: "Soon", Excerpt: "e", Category: "c", Content: "x", Status: StatusScheduled, PublishAt: &at})
	if err != nil {
		t.Fatal(err)
	}
	if !sch.CreatedAt.Equal(at) || sch.Status != StatusScheduled {
		t.Fatalf("a scheduled article is dated its publication time: %+v", sch)
	}
	steps := []struct {
		now    time.Time
		public bool
		status string
	}{
		{now, false, StatusScheduled},
		{at.Add(-time.Nanosecond), false, StatusScheduled},
		{at, true, StatusPublished},
	}
	for _, st := range steps {
		now = st.now
		page, _ := s.List(Query{})
		if got := page.TotalCount == 2; got != st.public {
			t.Errorf("at %s: listed %v, want %v", st.now, got, st.public)
		}
		if _, err := s.GetFor(sch.ID, false); (err == nil) != st.public {
			t.Errorf("at %s: readable %v", st.now, err)
		}
		a, _ := s.GetFor(sch.ID, true)
		if a.Status != st.status {
			t.Errorf("at %s: status %s, want %s", st.now, a.Status, st.status)
		}
		if all := s.All("", "", true); all[0].ID != sch.ID || all[0].Status != st.status {
			t.Errorf("at %s: the admin's list %+v", st.now, all)
		}
	}
	// Publishing a draft dates it now; an edit of a public article keeps
	// its date.
	now = now.Add(time.Hour)
	draft, _ := s.Create(ctx, Input{Name: "D", Excerpt: "e", Category: "c", Content: "x", Status: StatusDraft})
	now = now.Add(time.Hour)
	pub := StatusPublished
	d, err := s.Update(ctx, draft.ID, Patch{Status: &pub})
	if err != nil || !d.CreatedAt.Equal(now) {
		t.Fatalf("published draft dated %v, want %v (%v)", d.CreatedAt, now, err)
	}
	name := "Old 2"
	o, _ := s.Update(ctx, old.ID, Patch{Name: &name})
	if !o.CreatedAt.Equal(old.CreatedAt) {
		t.Fatalf("an edit moved the date: %v → %v", old.CreatedAt, o.CreatedAt)
	}
}

func TestVersionConflictAndRevisions(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	a, _ := s.Create(ctx, Input{Name: "A", Excerpt: "e", Category: "c", Content: "v0", EditedBy: "first@example.com"})
	for i := 1; i <= MaxRevisions+5; i++ {
		body := fmt.Sprintf("v%d", i)
		v := i
		if _, err := s.Update(ctx, a.ID, Patch{Content: &body, Version: &v, EditedBy: fmt.Sprintf("e%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	stale, body := 3, "late"
	_, err := s.Update(ctx, a.ID, Patch{Content: &body, Version: &stale})
	var r *store.Refusal
	if !errors.As(err, &r) || r.Kind != store.KindConflict {
		t.Fatalf("a stale save: %v", err)
	}
	revs, _ := s.Revisions(a.ID)
	if len(revs) != MaxRevisions || revs[0].Content != fmt.Sprintf("v%d", MaxRevisions+4) || revs[0].Author != fmt.Sprintf("e%d", MaxRevisions+4) ||
		revs[0].Version != MaxRevisions+5 {
		t.Fatalf("%d revisions, newest %+v", len(revs), revs[0])
	}
	cur := MaxRevisions + 6
	got, err := s.Restore(ctx, a.ID, revs[len(revs)-1].ID, &cur, "me")
	if err != nil || got.Content != revs[len(revs)-1].Content || got.Version != cur+1 || got.EditedBy != "me" {
		t.Fatalf("restore: %+v %v", got, err)
	}
	if _, err := s.Restore(ctx, a.ID, 12345, nil, "me"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown revision: %v", err)
	}
}

// BenchmarkPreview50KB renders a 50 KB article as the editor's live preview
// does (the same renderer as publishing): prose, lists, links and tables,
// with a highlighted code block every few sections.
func BenchmarkPreview50KB(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 50<<10; i++ {
		fmt.Fprintf(&sb, "## Section %d\n\nSome *text* with **bold**, a [link](https://example.com/%d) and `code`. ", i, i)
		sb.WriteString(strings.Repeat("Сервер віддає сторінку, а стаття читається без скриптів. ", 4) + "\n\n")
		sb.WriteString("- one\n- two\n- three\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")
		if i%8 == 0 {
			sb.WriteString("```go\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tprintln(\"hi\", i)\n\t}\n}\n```\n\n")
		}
	}
	src := sb.String()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RenderMarkdown(src); err != nil {
			b.Fatal(err)
		}
	}
}
