package shares

import (
	"context"
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// plainSecrets stands in for pkg/auth: it "hashes" by prefixing and
// throttles after three wrong guesses.
type plainSecrets struct{ wrong int }

func (p *plainSecrets) HashSecret(_, s string) (string, error) { return "h:" + s, nil }
func (p *plainSecrets) CheckSecret(_, s, enc string, _ netip.Addr) (bool, error) {
	if p.wrong >= 3 {
		return false, errors.New("throttled")
	}
	if enc != "h:"+s {
		p.wrong++
		return false, nil
	}
	return true, nil
}

func newTestService(t *testing.T) (*Service, *time.Time) {
	t.Helper()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	s, err := New(storetest.Open(t), &plainSecrets{}, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	return s, &now
}

func TestCreateValidation(t *testing.T) {
	s, now := newTestService(t)
	for _, tc := range []struct {
		name string
		in   NewShare
		ok   bool
	}{
		{"defaults", NewShare{FileID: 1}, true},
		{"negative ttl", NewShare{FileID: 1, TTL: -time.Hour}, false},
		{"ttl over a year", NewShare{FileID: 1, TTL: MaxTTL + time.Hour}, false},
		{"negative max", NewShare{FileID: 1, MaxDownloads: -1}, false},
		{"huge max", NewShare{FileID: 1, MaxDownloads: MaxDownloadsLimit + 1}, false},
		{"all", NewShare{FileID: 1, TTL: time.Hour, Password: "pw", MaxDownloads: 2}, true},
	} {
		sh, err := s.Create(t.Context(), tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if err == nil {
			if !ValidToken(sh.Token) || len(sh.Token) < 24 {
				t.Errorf("%s: token %q", tc.name, sh.Token)
			}
			ttl := tc.in.TTL
			if ttl == 0 {
				ttl = DefaultTTL
			}
			if !sh.ExpiresAt.Equal(now.Add(ttl)) {
				t.Errorf("%s: expires %v", tc.name, sh.ExpiresAt)
			}
		}
	}
}

func TestLifecycle(t *testing.T) {
	s, now := newTestService(t)
	sh, _ := s.Create(t.Context(), NewShare{FileID: 1, TTL: time.Hour, Password: "pw", MaxDownloads: 2})
	if _, err := s.Unlock(sh.Token, "nope", netip.Addr{}); !errors.Is(err, ErrWrongPassword) {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := s.Unlock(sh.Token, "pw", netip.Addr{}); err != nil {
		t.Fatalf("right password: %v", err)
	}
	for i := 1; i <= 2; i++ {
		got, err := s.Use(t.Context(), sh.Token)
		if err != nil || got.Downloads != i {
			t.Fatalf("use %d: %v %+v", i, err, got)
		}
	}
	if _, err := s.Use(t.Context(), sh.Token); !errors.Is(err, ErrGone) {
		t.Fatalf("used up: %v", err)
	}
	if got, _ := s.Get(sh.Token); got.State(*now) != StateUsedUp {
		t.Fatalf("state %s", got.State(*now))
	}
	other, _ := s.Create(t.Context(), NewShare{FileID: 1, TTL: time.Hour})
	*now = now.Add(time.Hour)
	if _, err := s.Active(other.Token); !errors.Is(err, ErrGone) {
		t.Fatalf("expired: %v", err)
	}
	third, _ := s.Create(t.Context(), NewShare{FileID: 2})
	if _, err := s.Revoke(t.Context(), third.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Use(t.Context(), third.Token); !errors.Is(err, ErrGone) {
		t.Fatalf("revoked: %v", err)
	}
	if _, err := s.Get("../../etc"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("malformed token: %v", err)
	}
	if list, _ := s.List(Filter{FileID: 1}); len(list) != 2 {
		t.Fatalf("file 1 has %d links", len(list))
	}
	by := uint64(0)
	if list, _ := s.List(Filter{CreatedBy: &by}); len(list) != 3 {
		t.Fatalf("owner has %d links", len(list))
	}
}

func TestUnlockThrottled(t *testing.T) {
	s, _ := newTestService(t)
	sh, _ := s.Create(t.Context(), NewShare{FileID: 1, Password: "pw"})
	for range 3 {
		s.Unlock(sh.Token, "x", netip.Addr{})
	}
	if _, err := s.Unlock(sh.Token, "pw", netip.Addr{}); err == nil || errors.Is(err, ErrWrongPassword) {
		t.Fatalf("throttled check passed on as %v", err)
	}
}

func TestGrants(t *testing.T) {
	s, now := newTestService(t)
	g := s.Grant("tokenA", GrantUnlocked, now.Add(time.Minute))
	for _, tc := range []struct {
		name, token, kind, grant string
		want                     bool
	}{
		{"valid", "tokenA", GrantUnlocked, g, true},
		{"other link", "tokenB", GrantUnlocked, g, false},
		{"other kind", "tokenA", GrantCounted, g, false},
		{"tampered", "tokenA", GrantUnlocked, g + "x", false},
		{"empty", "tokenA", GrantUnlocked, "", false},
		{"no mac", "tokenA", GrantUnlocked, "99999999999", false},
	} {
		if got := s.CheckGrant(tc.token, tc.kind, tc.grant); got != tc.want {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
	*now = now.Add(2 * time.Minute)
	if s.CheckGrant("tokenA", GrantUnlocked, g) {
		t.Error("expired grant accepted")
	}
}

// A cancelled context makes, counts and revokes nothing.
func TestWritesHonourCancel(t *testing.T) {
	s, _ := newTestService(t)
	sh, err := s.Create(t.Context(), NewShare{FileID: 1, MaxDownloads: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Create(ctx, NewShare{FileID: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("create after cancel: %v", err)
	}
	if _, err := s.Use(ctx, sh.Token); !errors.Is(err, context.Canceled) {
		t.Fatalf("use after cancel: %v", err)
	}
	if _, err := s.Revoke(ctx, sh.Token); !errors.Is(err, context.Canceled) {
		t.Fatalf("revoke after cancel: %v", err)
	}
	if list, err := s.List(Filter{}); err != nil || len(list) != 1 {
		t.Fatalf("links after cancelled writes: %v %v", list, err)
	}
	if got, err := s.Active(sh.Token); err != nil || got.Downloads != 0 {
		t.Fatalf("link after cancelled writes: %+v %v", got, err)
	}
}

// TestTokensNeverLookLikeFlags: a token is a command-line argument
// (`devhub file unshare TOKEN`); one beginning with '-' would be read as a
// flag. Of 2 000 draws about 31 would begin with '-' without the redraw.
func TestTokensNeverLookLikeFlags(t *testing.T) {
	for i := 0; i < 2000; i++ {
		if tok := newToken(); tok[0] == '-' || !ValidToken(tok) {
			t.Fatalf("token %q", tok)
		}
	}
}
