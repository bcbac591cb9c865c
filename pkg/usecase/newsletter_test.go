package usecase

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/config"
	devmail "github.com/devhub/devhub/pkg/mail"
	"github.com/devhub/devhub/pkg/mail/smtptest"
	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// nlFixture is a hub with the blog and the newsletter on one temp store,
// mail delivered to an SMTP server in the test process, and one fake clock.
type nlFixture struct {
	hub  *Hub
	st   *store.Store
	smtp *smtptest.Server
	q    *devmail.Queue

	mu  sync.Mutex
	now time.Time
}

func newNLFixture(t *testing.T) *nlFixture {
	t.Helper()
	f := &nlFixture{st: storetest.Open(t), smtp: smtptest.Start(t), now: time.Now().UTC().Add(time.Minute)}
	sender, err := devmail.NewSMTP(config.Mail{Host: f.smtp.Host, Port: f.smtp.Port, Security: "none", From: "noreply@devhub.test"})
	if err != nil {
		t.Fatal(err)
	}
	if f.q, err = devmail.NewQueue(f.st, sender, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.q.Start(ctx)
	f.open(t)
	return f
}

// open (re)builds the hub's services over the store: a restart.
func (f *nlFixture) open(t *testing.T) {
	t.Helper()
	b, err := blog.New(f.st)
	if err != nil {
		t.Fatal(err)
	}
	nl, err := newsletter.New(f.st)
	if err != nil {
		t.Fatal(err)
	}
	b.SetClock(f.clock)
	nl.SetClock(f.clock)
	f.hub = &Hub{Blog: b, Newsletter: nl, Mail: f.q, PublicURL: "https://devhub.test",
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

func (f *nlFixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *nlFixture) advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// settled waits until the queue is empty and returns every message the
// SMTP server got.
func (f *nlFixture) settled(t *testing.T) []smtptest.Received {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for f.q.State().Pending != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the mail queue does not empty")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return f.smtp.Messages()
}

var confirmLink = regexp.MustCompile(`https://devhub\.test/api/newsletter/confirm\?token=([A-Za-z0-9_-]+)`)
var unsubLink = regexp.MustCompile(`https://devhub\.test/api/newsletter/unsubscribe\?token=([A-Za-z0-9_-]+)`)

func subjectOf(t *testing.T, r smtptest.Received) string {
	t.Helper()
	s, err := new(mime.WordDecoder).DecodeHeader(r.Header().Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func textOf(t *testing.T, r smtptest.Received) string {
	t.Helper()
	text, _, err := r.Parts()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func guest(ip string) Actor { return Actor{IP: ip} }

// subscribe subscribes email in lang and returns the confirmation token
// mailed (the n-th message the server got).
func (f *nlFixture) subscribe(t *testing.T, email, lang string, n int) string {
	t.Helper()
	if err := f.hub.SubscribeNewsletter(context.Background(), guest("198.51.100.7"), email, lang); err != nil {
		t.Fatal(err)
	}
	f.hub.Wait()
	got := f.smtp.Wait(t, n, 10*time.Second)[n-1]
	if got.To[0] != strings.ToLower(email) {
		t.Fatalf("confirmation to %v, want %s", got.To, email)
	}
	m := confirmLink.FindStringSubmatch(textOf(t, got))
	if m == nil {
		t.Fatalf("no confirmation link:\n%s", got.Raw)
	}
	return m[1]
}

func (f *nlFixture) confirmed(t *testing.T, email, lang string, n int) {
	t.Helper()
	if _, err := f.hub.ConfirmNewsletter(context.Background(), guest("198.51.100.7"), f.subscribe(t, email, lang, n)); err != nil {
		t.Fatal(err)
	}
}

func isBadLink(err error) bool { return store.KindOf(err) == store.KindNotFound }

func TestNewsletterSubscribeConfirmUnsubscribe(t *testing.T) {
	f := newNLFixture(t)
	ctx := context.Background()
	tok := f.subscribe(t, "Ann@Example.org", "ru", 1)
	first := f.smtp.Messages()[0]
	if s := subjectOf(t, first); s != "Подтвердите подписку на devhub.test" {
		t.Fatalf("subject %q", s)
	}
	if first.Header().Get("Content-Language") != "ru" {
		t.Fatalf("Content-Language %q", first.Header().Get("Content-Language"))
	}
	if _, html, _ := first.Parts(); !strings.Contains(html, "/api/newsletter/confirm?token=") {
		t.Fatalf("no link in the HTML part:\n%s", html)
	}
	if c, _ := f.hub.Newsletter.Count(); c.Pending != 1 || c.Confirmed != 0 {
		t.Fatalf("before confirming: %+v", c)
	}
	// A confirmation token does not unsubscribe.
	if _, err := f.hub.UnsubscribeNewsletter(ctx, guest(""), tok); !isBadLink(err) {
		t.Fatalf("unsubscribe with a confirmation token: %v", err)
	}
	sub, err := f.hub.ConfirmNewsletter(ctx, guest(""), tok)
	if err != nil || sub.Email != "ann@example.org" || sub.Lang != "ru" || !sub.Confirmed {
		t.Fatalf("confirm: %+v, %v", sub, err)
	}
	if _, err := f.hub.ConfirmNewsletter(ctx, guest(""), tok); !isBadLink(err) {
		t.Fatalf("a spent token confirmed again: %v", err)
	}
	for _, bad := range []string{"", "nope", strings.Repeat("x", 500)} {
		if _, err := f.hub.ConfirmNewsletter(ctx, guest(""), bad); !isBadLink(err) {
			t.Fatalf("token %q: %v", bad, err)
		}
	}
	// Subscribing a confirmed address again answers the same and mails nothing.
	if err := f.hub.SubscribeNewsletter(ctx, guest("198.51.100.7"), "ann@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	f.hub.Wait()
	if got := f.settled(t); len(got) != 1 {
		t.Fatalf("%d messages, want only the first confirmation", len(got))
	}
	// An article in Russian reaches her, with the one-click unsubscribe headers.
	if _, err := f.hub.CreateArticle(ctx, Owner(), blog.Input{Name: "Привет", Excerpt: "Кратко", Content: "x", Category: "News", Lang: "ru"}); err != nil {
		t.Fatal(err)
	}
	if n, err := f.hub.DispatchNewsletter(ctx); err != nil || n != 1 {
		t.Fatalf("dispatch: %d, %v", n, err)
	}
	letter := f.smtp.Wait(t, 2, 10*time.Second)[1]
	h := letter.Header()
	m := unsubLink.FindStringSubmatch(h.Get("List-Unsubscribe"))
	if m == nil || !strings.HasPrefix(h.Get("List-Unsubscribe"), "<https://") || h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("headers: %v", h)
	}
	if s := subjectOf(t, letter); s != "Привет — devhub.test" {
		t.Fatalf("subject %q", s)
	}
	if text := textOf(t, letter); !strings.Contains(text, "https://devhub.test/blog/1") || !strings.Contains(text, m[0]) || !strings.Contains(text, "Кратко") {
		t.Fatalf("article letter:\n%s", text)
	}
	// The unsubscribe token does not confirm, unsubscribes once.
	if _, err := f.hub.ConfirmNewsletter(ctx, guest(""), m[1]); !isBadLink(err) {
		t.Fatalf("confirm with an unsubscribe token: %v", err)
	}
	if sub, err := f.hub.UnsubscribeNewsletter(ctx, guest(""), m[1]); err != nil || sub.Email != "ann@example.org" {
		t.Fatalf("unsubscribe: %+v, %v", sub, err)
	}
	if _, err := f.hub.UnsubscribeNewsletter(ctx, guest(""), m[1]); !isBadLink(err) {
		t.Fatalf("unsubscribed twice: %v", err)
	}
	if c, _ := f.hub.Newsletter.Count(); c.Confirmed != 0 || c.Pending != 0 {
		t.Fatalf("after unsubscribing: %+v", c)
	}
}

func TestNewsletterSubscribeRefusals(t *testing.T) {
	f := newNLFixture(t)
	ctx := context.Background()
	for _, bad := range []string{"", "not an address", "a@b", "Ann <ann@example.org>", "a b@example.org"} {
		if err := f.hub.SubscribeNewsletter(ctx, guest("203.0.113.1"), bad, "en"); store.KindOf(err) != store.KindInvalid {
			t.Fatalf("%q: %v", bad, err)
		}
	}
	// The network's budget: MaxPerNetwork requests, then 429 with a wait,
	// whatever the address; another network is not affected.
	for i := range newsletter.MaxPerNetwork {
		if err := f.hub.SubscribeNewsletter(ctx, guest("203.0.113.2"), "x"+string(rune('a'+i))+"@example.org", "en"); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	err := f.hub.SubscribeNewsletter(ctx, guest("203.0.113.2"), "fresh@example.org", "en")
	var r *store.Refusal
	if !errors.As(err, &r) || r.Kind != store.KindRateLimited || r.RetryAfter <= 0 {
		t.Fatalf("over the budget: %v", err)
	}
	if err := f.hub.SubscribeNewsletter(ctx, guest("203.0.113.3"), "fresh@example.org", "en"); err != nil {
		t.Fatalf("another network: %v", err)
	}
	f.hub.Wait()
	// Mail off (or no public address): a clear refusal.
	off := &Hub{Newsletter: f.hub.Newsletter, PublicURL: "https://devhub.test"}
	if err := off.SubscribeNewsletter(ctx, guest("203.0.113.4"), "a@example.org", "en"); store.KindOf(err) != store.KindNotFound ||
		!strings.Contains(err.Error(), "not available") {
		t.Fatalf("mail off: %v", err)
	}
}

func TestNewsletterUnconfirmedExpires(t *testing.T) {
	f := newNLFixture(t)
	ctx := context.Background()
	tok := f.subscribe(t, "late@example.org", "en", 1)
	// Asking again right away sends no second letter.
	if err := f.hub.SubscribeNewsletter(ctx, guest("198.51.100.9"), "late@example.org", "en"); err != nil {
		t.Fatal(err)
	}
	f.hub.Wait()
	if got := f.settled(t); len(got) != 1 {
		t.Fatalf("%d confirmation letters, want 1", len(got))
	}
	f.advance(newsletter.ConfirmTTL + time.Minute)
	if _, err := f.hub.ConfirmNewsletter(ctx, guest(""), tok); !isBadLink(err) {
		t.Fatalf("an expired link confirmed: %v", err)
	}
	if err := f.hub.Newsletter.Expire(ctx); err != nil {
		t.Fatal(err)
	}
	if c, _ := f.hub.Newsletter.Count(); c.Pending != 0 {
		t.Fatalf("the lapsed subscription stays: %+v", c)
	}
	// Subscribing anew works with a new link.
	tok2 := f.subscribe(t, "late@example.org", "en", 2)
	if tok2 == tok {
		t.Fatal("the same token twice")
	}
	if _, err := f.hub.ConfirmNewsletter(ctx, guest(""), tok2); err != nil {
		t.Fatal(err)
	}
}

// Which articles are mailed, to whom, and that each is mailed once.
func TestNewsletterMailsEachArticleOnce(t *testing.T) {
	no := false
	cases := []struct {
		name string
		// steps act on the fixture; want is how many article letters each
		// recipient got in the end.
		steps func(t *testing.T, f *nlFixture)
		want  map[string]int
	}{
		{"published article, then dispatch again, edit and restart", func(t *testing.T, f *nlFixture) {
			a := f.article(t, blog.Input{Lang: "en"})
			f.dispatch(t, 1)
			f.dispatch(t, 0)
			name := "Renamed"
			if _, err := f.hub.EditArticle(context.Background(), Owner(), a.ID, blog.Patch{Name: &name}); err != nil {
				t.Fatal(err)
			}
			f.dispatch(t, 0)
			draft, pub := blog.StatusDraft, blog.StatusPublished
			f.edit(t, a.ID, blog.Patch{Status: &draft})
			f.edit(t, a.ID, blog.Patch{Status: &pub})
			f.dispatch(t, 0)
			f.open(t)
			f.dispatch(t, 0)
		}, map[string]int{"en@example.org": 1}},
		{"scheduled article when its time comes", func(t *testing.T, f *nlFixture) {
			at := f.clock().Add(time.Hour)
			f.article(t, blog.Input{Lang: "en", Status: blog.StatusScheduled, PublishAt: &at})
			f.dispatch(t, 0)
			f.advance(time.Hour)
			f.dispatch(t, 1)
			f.open(t)
			f.dispatch(t, 0)
		}, map[string]int{"en@example.org": 1}},
		{"draft: not until published", func(t *testing.T, f *nlFixture) {
			a := f.article(t, blog.Input{Lang: "en", Status: blog.StatusDraft})
			f.dispatch(t, 0)
			f.advance(time.Hour)
			pub := blog.StatusPublished
			f.edit(t, a.ID, blog.Patch{Status: &pub})
			f.dispatch(t, 1)
		}, map[string]int{"en@example.org": 1}},
		{"the switch off: never, even when switched on later", func(t *testing.T, f *nlFixture) {
			a := f.article(t, blog.Input{Lang: "en", Newsletter: &no})
			if a.SendsNewsletter() {
				t.Fatal("the switch was not kept")
			}
			f.dispatch(t, 1) // recorded as skipped
			yes := true
			f.edit(t, a.ID, blog.Patch{Newsletter: &yes})
			f.dispatch(t, 0)
		}, map[string]int{}},
		{"each language to its own subscribers", func(t *testing.T, f *nlFixture) {
			f.article(t, blog.Input{Lang: "uk", TranslationKey: "t"})
			f.article(t, blog.Input{Lang: "en-GB", TranslationKey: "t"})
			f.article(t, blog.Input{Lang: "de"})
			f.dispatch(t, 3)
		}, map[string]int{"en@example.org": 1, "uk@example.org": 1}},
		{"old news: public before the newsletter began", func(t *testing.T, f *nlFixture) {
			f.mu.Lock()
			f.now = f.hub.Newsletter.Since().Add(-time.Hour)
			f.mu.Unlock()
			f.article(t, blog.Input{Lang: "en"})
			f.advance(2 * time.Hour)
			f.dispatch(t, 0)
		}, map[string]int{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newNLFixture(t)
			f.confirmed(t, "en@example.org", "en", 1)
			f.confirmed(t, "uk@example.org", "uk", 2)
			f.confirmed(t, "ru@example.org", "ru", 3)
			tc.steps(t, f)
			got := map[string]int{}
			for _, m := range f.settled(t)[3:] {
				got[m.To[0]]++
				if m.Header().Get("List-Unsubscribe") == "" {
					t.Fatalf("an article letter without List-Unsubscribe:\n%s", m.Raw)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("letters %v, want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Fatalf("letters %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func (f *nlFixture) article(t *testing.T, in blog.Input) *blog.Article {
	t.Helper()
	in.Name, in.Excerpt, in.Content, in.Category = "A "+in.Lang, "E", "x", "News"
	a, err := f.hub.CreateArticle(context.Background(), Owner(), in)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (f *nlFixture) edit(t *testing.T, id uint64, p blog.Patch) {
	t.Helper()
	if _, err := f.hub.EditArticle(context.Background(), Owner(), id, p); err != nil {
		t.Fatal(err)
	}
}

func (f *nlFixture) dispatch(t *testing.T, want int) {
	t.Helper()
	n, err := f.hub.DispatchNewsletter(context.Background())
	if err != nil || n != want {
		t.Fatalf("dispatch dealt with %d articles (%v), want %d", n, err, want)
	}
}

func TestNewsletterCountIsForAdmins(t *testing.T) {
	f := newNLFixture(t)
	f.confirmed(t, "a@example.org", "uk", 1)
	if _, err := f.hub.NewsletterCount(guest("192.0.2.1")); store.KindOf(err) != store.KindForbidden {
		t.Fatalf("a guest: %v", err)
	}
	c, err := f.hub.NewsletterCount(Owner())
	if err != nil || c.Confirmed != 1 || c.ByLang["uk"] != 1 {
		t.Fatalf("%+v, %v", c, err)
	}
}
