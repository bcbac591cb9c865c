package chat

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newRoom(t *testing.T, opts Options) (*Service, *clock) {
	t.Helper()
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	opts.Now = c.Now
	s, err := New(storetest.Open(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

var ann = Author{ID: 1, Name: "ann"}

func TestPostRules(t *testing.T) {
	s, _ := newRoom(t, Options{MaxLength: 10})
	ctx := context.Background()
	tests := []struct {
		name     string
		text     string
		wantErr  error
		wantKind store.Kind
		wantText string
	}{
		{"plain", "hello", nil, 0, "hello"},
		{"trimmed", "  hi \n", nil, 0, "hi"},
		{"html stays text", "<b>x</b>", nil, 0, "<b>x</b>"},
		{"exactly the cap in letters", "ґґґґґґґґґґ", nil, 0, "ґґґґґґґґґґ"},
		{"empty", "", ErrEmpty, 0, ""},
		{"whitespace only", " \t\n ", ErrEmpty, 0, ""},
		{"too long", "01234567890", nil, store.KindInvalid, ""},
		{"not utf-8", "a\xffb", nil, store.KindInvalid, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := s.Post(ctx, ann, tt.text)
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err %v, want %v", err, tt.wantErr)
				}
			case tt.wantKind != 0:
				if store.KindOf(err) != tt.wantKind {
					t.Fatalf("err %v, want kind %v", err, tt.wantKind)
				}
			case err != nil:
				t.Fatal(err)
			case m.Text != tt.wantText || m.Author != ann || m.ID == 0:
				t.Fatalf("message %+v", m)
			}
		})
	}
	p, _ := s.History(0, 0)
	if len(p.Messages) != 4 {
		t.Fatalf("%d stored, want the 4 accepted", len(p.Messages))
	}
}

func TestRateAndMute(t *testing.T) {
	s, c := newRoom(t, Options{RatePerMinute: 2})
	ctx := context.Background()
	for range 2 {
		if _, err := s.Post(ctx, ann, "x"); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Post(ctx, ann, "x")
	var r *store.Refusal
	if !errors.As(err, &r) || r.Kind != store.KindRateLimited || r.RetryAfter <= 0 {
		t.Fatalf("over the rate: %v", err)
	}
	if _, err := s.Post(ctx, Author{ID: 2, Name: "bob"}, "x"); err != nil {
		t.Fatalf("another poster was limited: %v", err)
	}
	c.add(time.Minute)
	if _, err := s.Post(ctx, ann, "x"); err != nil {
		t.Fatalf("after a minute: %v", err)
	}

	if _, err := s.Mute(ctx, 2, -time.Second); store.KindOf(err) != store.KindInvalid {
		t.Fatalf("negative mute: %v", err)
	}
	until, err := s.Mute(ctx, 2, time.Hour)
	if err != nil || !until.Equal(c.Now().Add(time.Hour)) {
		t.Fatalf("mute %v %v", until, err)
	}
	if _, err := s.Post(ctx, Author{ID: 2, Name: "bob"}, "x"); store.KindOf(err) != store.KindForbidden {
		t.Fatalf("muted post: %v", err)
	}
	c.add(time.Hour)
	if u, _ := s.MutedUntil(2); !u.IsZero() {
		t.Fatal("mute did not end")
	}
	s.Mute(ctx, 2, time.Hour)
	if _, err := s.Mute(ctx, 2, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Post(ctx, Author{ID: 2, Name: "bob"}, "y"); err != nil {
		t.Fatalf("after the mute was lifted: %v", err)
	}
}

func TestHistoryPaging(t *testing.T) {
	s, c := newRoom(t, Options{RatePerMinute: 1000})
	ctx := context.Background()
	for i := range 25 {
		c.add(time.Second)
		if _, err := s.Post(ctx, ann, strings.Repeat("m", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	var got []Message
	before := uint64(0)
	for {
		p, err := s.History(before, 10)
		if err != nil {
			t.Fatal(err)
		}
		got = append(p.Messages, got...)
		if p.Next == 0 {
			break
		}
		before = p.Next
	}
	if len(got) != 25 {
		t.Fatalf("%d messages", len(got))
	}
	for i, m := range got {
		if len(m.Text) != i+1 {
			t.Fatalf("message %d is %q: pages out of order", i, m.Text)
		}
	}
}

func TestRetentionAndDelete(t *testing.T) {
	ctx := context.Background()
	t.Run("by count", func(t *testing.T) {
		s, _ := newRoom(t, Options{MaxMessages: 3, RatePerMinute: 1000})
		for i := range 5 {
			s.Post(ctx, ann, string(rune('a'+i)))
		}
		p, _ := s.History(0, 0)
		if len(p.Messages) != 3 || p.Messages[0].Text != "c" {
			t.Fatalf("kept %+v", p.Messages)
		}
	})
	t.Run("by bytes", func(t *testing.T) {
		s, _ := newRoom(t, Options{MaxBytes: 1000, MaxLength: 2000, RatePerMinute: 1000})
		for range 10 {
			if _, err := s.Post(ctx, ann, strings.Repeat("x", 300)); err != nil {
				t.Fatal(err)
			}
		}
		p, _ := s.History(0, 0)
		if len(p.Messages) != 2 {
			t.Fatalf("kept %d messages of ~390 bytes under 1000", len(p.Messages))
		}
		// A message bigger than the budget alone is still kept.
		big, err := s.Post(ctx, ann, strings.Repeat("y", 1500))
		if err != nil {
			t.Fatal(err)
		}
		p, _ = s.History(0, 0)
		if len(p.Messages) != 1 || p.Messages[0].ID != big.ID {
			t.Fatalf("kept %d", len(p.Messages))
		}
		if _, err := s.Delete(ctx, big.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Delete(ctx, big.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
		for range 2 {
			s.Post(ctx, ann, strings.Repeat("x", 300))
		}
		if p, _ := s.History(0, 0); len(p.Messages) != 2 {
			t.Fatalf("byte count drifted after a delete: kept %d", len(p.Messages))
		}
	})
}

func TestMentioned(t *testing.T) {
	tests := []struct {
		text, name string
		want       bool
	}{
		{"hi @ann and @Bob.", "ann", true},
		{"hi @ann and @Bob.", "bob", true},
		{"@ANN, look", "ann", true},
		{"@Anna Petrenko, look", "Anna Petrenko", true},
		{"@anna petrenko", "Anna Petrenko", true},
		{"@Anna Petrenko, look", "Anna", true},
		{"@Annabel", "Anna", false},
		{"@Anna-Maria", "Anna", false},
		{"@Anna_2", "Anna", false},
		{"@Anna Pet", "Anna Petrenko", false},
		{"mail me at anna@example.com", "example.com", false},
		{"x.@ann", "ann", false},
		{"@@ann", "ann", false},
		{"@Олена, привіт", "олена", true},
		{"(@x_y-z)", "x_y-z", true},
		{"@ alone", "alone", false},
		{"no mention of ann", "ann", false},
		{"@ann", "", false},
	}
	for _, tt := range tests {
		if got := Mentioned(tt.text, tt.name); got != tt.want {
			t.Errorf("Mentioned(%q, %q) = %v, want %v", tt.text, tt.name, got, tt.want)
		}
	}
}
