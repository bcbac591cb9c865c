package newsletter

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func TestLanguages(t *testing.T) {
	tests := []struct{ in, article, lang string }{
		{"uk", "uk", "uk"}, {"EN-gb", "en", "en"}, {"ru_RU", "ru", "ru"}, {"de", "de", "uk"}, {"", "", "uk"},
	}
	for _, tc := range tests {
		if got := ArticleLang(tc.in); got != tc.article {
			t.Errorf("ArticleLang(%q) = %q, want %q", tc.in, got, tc.article)
		}
		if got := Lang(tc.in); got != tc.lang {
			t.Errorf("Lang(%q) = %q, want %q", tc.in, got, tc.lang)
		}
	}
}

func TestValidEmail(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"ann@example.org", true}, {"a.b+c@sub.example.co", true},
		{"", false}, {"ann", false}, {"ann@localhost", false}, {"Ann <ann@example.org>", false},
		{"a b@example.org", false}, {"ann@example.org\r\nBcc: x@y.z", false}, {strings.Repeat("a", 250) + "@x.io", false},
	}
	for _, tc := range tests {
		if got := ValidEmail(tc.in); got != tc.ok {
			t.Errorf("ValidEmail(%q) = %v", tc.in, got)
		}
	}
}

func TestLettersAreInTheSubscribersLanguage(t *testing.T) {
	tests := []struct{ lang, confirm, article string }{
		{"uk", "Підтвердіть підписку", "Відписатися"},
		{"ru", "Подтвердите подписку", "Отписаться"},
		{"en", "Confirm your subscription", "Unsubscribe"},
	}
	for _, tc := range tests {
		c := ConfirmLetter(tc.lang, LetterData{Site: "devhub.test", Link: "https://devhub.test/c?token=a&b=<x>"})
		if !strings.HasPrefix(c.Subject, tc.confirm) || !strings.Contains(c.Text, "https://devhub.test/c?token=a&b=<x>") ||
			strings.Contains(c.HTML, "<x>") || c.Lang != tc.lang {
			t.Errorf("%s confirmation: %+v", tc.lang, c)
		}
		a := ArticleLetter(tc.lang, LetterData{Site: "devhub.test", Title: "<b>T</b>", Excerpt: "E", Link: "https://devhub.test/blog/1",
			Unsubscribe: "https://devhub.test/u"})
		if !strings.Contains(a.Text, tc.article) || !strings.Contains(a.HTML, "&lt;b&gt;T&lt;/b&gt;") || !strings.Contains(a.HTML, "https://devhub.test/u") {
			t.Errorf("%s article letter: %+v", tc.lang, a)
		}
	}
}

// The record of an article is written once, whatever calls follow, and the
// "since" of the newsletter survives a reopen.
func TestDispatchRecordsOnce(t *testing.T) {
	st := storetest.Open(t)
	s, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	// No subscribers: enqueue (nil here) is never called.
	for i := range 3 {
		done, err := s.Dispatch(context.Background(), 7, "en", false, nil)
		if err != nil || done != (i == 0) {
			t.Fatalf("call %d: %v %v", i, done, err)
		}
	}
	rec, err := s.SentRecord(7)
	if err != nil || rec.Recipients != 0 || rec.Lang != "en" {
		t.Fatalf("%+v %v", rec, err)
	}
	if _, err := s.SentRecord(8); err != store.ErrNotFound {
		t.Fatalf("no record: %v", err)
	}
	since := s.Since()
	time.Sleep(time.Millisecond)
	s2, err := New(st)
	if err != nil || !s2.Since().Equal(since) {
		t.Fatalf("since %v, then %v (%v)", since, s2.Since(), err)
	}
}

// Subscribe requests are bounded per client network and, from all networks
// together, per hour; a refusal says how long to wait, and the hour's
// allowance comes back with time.
func TestAllowPerNetworkAndSiteWide(t *testing.T) {
	s, err := New(storetest.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	s.perNet = ratelimit.New[netip.Prefix](MaxPerNetwork, NetworkWindow, 0, func() time.Time { return s.now() })
	s.all = ratelimit.NewBucket(MaxPerHour, time.Hour, func() time.Time { return s.now() })
	one := netip.MustParseAddr("198.51.100.7")
	for i := range MaxPerNetwork {
		if err := s.Allow(one); err != nil {
			t.Fatalf("request %d from one network: %v", i+1, err)
		}
	}
	var r *store.Refusal
	if err := s.Allow(one); !errors.As(err, &r) || r.Kind != store.KindRateLimited || r.RetryAfter <= 0 {
		t.Fatalf("one network past its limit: %v", err)
	}
	// Many networks, each within its own limit: the site's hour runs out.
	taken := MaxPerNetwork
	for i := 0; taken < MaxPerHour; i++ {
		ip := netip.AddrFrom4([4]byte{10, byte(i >> 8), byte(i), 1})
		if err := s.Allow(ip); err != nil {
			t.Fatalf("request %d (network %v): %v", taken+1, ip, err)
		}
		taken++
	}
	fresh := netip.MustParseAddr("203.0.113.9")
	if err := s.Allow(fresh); store.KindOf(err) != store.KindRateLimited {
		t.Fatalf("a new network past the site's hourly limit: %v", err)
	}
	now = now.Add(time.Hour)
	if err := s.Allow(fresh); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}
