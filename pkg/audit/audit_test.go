package audit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/devhub/devhub/pkg/store/storetest"
)

func newService(t *testing.T, max int) (*Service, *time.Time) {
	t.Helper()
	st := storetest.Open(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := New(st, max, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	return s, &now
}

func TestRecordAndList(t *testing.T) {
	s, now := newService(t, 0)
	types := []string{SignIn, SignInFailed, TwoFactorOn, RoleChanged, TwoFactorOff, SignIn}
	for i, typ := range types {
		*now = now.Add(time.Minute)
		if err := s.Record(t.Context(), Event{Type: typ, Actor: "a@example.com", Target: "t" + string(rune('0'+i)), IP: "192.0.2.1"}); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(evs []Event) string {
		var b strings.Builder
		for _, e := range evs {
			b.WriteString(e.Target)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name     string
		q        Query
		want     string
		wantNext bool
	}{
		{"all, newest first", Query{}, "t5t4t3t2t1t0", false},
		{"a page", Query{Limit: 2}, "t5t4", true},
		{"the next page", Query{Limit: 2, Before: 6}, "t4t3", true},
		{"by type (a prefix: signin takes signin.failed)", Query{Type: SignIn}, "t5t1t0", false},
		{"by exact subtype", Query{Type: SignInFailed}, "t1", false},
		{"by type prefix", Query{Type: "2fa"}, "t4t2", false},
		{"since", Query{Since: time.Date(2026, 1, 1, 0, 4, 0, 0, time.UTC)}, "t5t4t3", false},
		{"before the first", Query{Before: 1}, "", false},
	} {
		evs, next, err := s.List(context.Background(), tc.q)
		if err != nil || ids(evs) != tc.want || (next != 0) != tc.wantNext {
			t.Errorf("%s: %s next=%d %v, want %s", tc.name, ids(evs), next, err, tc.want)
		}
	}
	// Paging with next walks every event once.
	var all []Event
	for before := uint64(0); ; {
		evs, next, _ := s.List(context.Background(), Query{Limit: 4, Before: before})
		all = append(all, evs...)
		if next == 0 {
			break
		}
		before = next
	}
	if ids(all) != "t5t4t3t2t1t0" {
		t.Fatalf("paged: %s", ids(all))
	}
}

func TestRetentionAndFieldCaps(t *testing.T) {
	s, _ := newService(t, 3)
	for i := 0; i < 5; i++ {
		s.Record(t.Context(), Event{Type: SignInFailed, Target: strings.Repeat("я", 300), Details: map[string]string{"k": strings.Repeat("x", 1000)}})
	}
	evs, _, _ := s.List(context.Background(), Query{})
	if len(evs) != 3 || evs[0].ID != 5 || evs[2].ID != 3 {
		t.Fatalf("kept %+v", evs)
	}
	if len(evs[0].Target) > maxField || !utf8.ValidString(evs[0].Target) || len(evs[0].Details["k"]) != maxField {
		t.Fatalf("fields not capped: %d %d", len(evs[0].Target), len(evs[0].Details["k"]))
	}
}

// A cancelled context records nothing.
func TestRecordHonoursCancel(t *testing.T) {
	s, _ := newService(t, 0)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Record(ctx, Event{Type: SignIn, Actor: "a@example.com"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("record after cancel: %v", err)
	}
	if evs, _, err := s.List(t.Context(), Query{}); err != nil || len(evs) != 0 {
		t.Fatalf("after a cancelled record: %v %v", evs, err)
	}
}
