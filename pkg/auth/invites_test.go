package auth

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
)

func inviteService(t *testing.T) (*Service, *clock) {
	t.Helper()
	clk := &clock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	cfg := config.Default().Auth
	cfg.Registration = RegistrationInvite
	s, err := New(openStore(t), cfg, WithHashParams(cheapParams), WithClock(clk.Now), WithSleep(clk.Sleep))
	if err != nil {
		t.Fatal(err)
	}
	return s, clk
}

func TestInviteExpiresAndIsSingleUse(t *testing.T) {
	s, clk := inviteService(t)
	inv, err := s.CreateInvite(context.Background(), "boss", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	in := RegisterInput{Name: "N", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1", Invite: inv.Code}
	clk.Add(time.Hour)
	if _, err := s.Register(context.Background(), in, client); fieldCode(t, err, "invite") != "invalid" {
		t.Fatalf("an expired code: %v", err)
	}
	inv, _ = s.CreateInvite(context.Background(), "boss", time.Hour)
	in.Invite = inv.Code
	// Two registrations race with one code: exactly one gets in.
	var wg sync.WaitGroup
	ok := make(chan bool, 2)
	for _, email := range []string{"b@example.com", "c@example.com"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := in
			x.Email = email
			_, err := s.Register(context.Background(), x, Client{IP: client.IP})
			ok <- err == nil
		}()
	}
	wg.Wait()
	close(ok)
	n := 0
	for v := range ok {
		if v {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d registrations got in with one code", n)
	}
	for _, bad := range []time.Duration{time.Second, 400 * 24 * time.Hour} {
		if _, err := s.CreateInvite(context.Background(), "boss", bad); err == nil {
			t.Errorf("an invitation lasting %s was made", bad)
		}
	}
}

func TestParseTTL(t *testing.T) {
	for in, want := range map[string]time.Duration{"7d": 7 * 24 * time.Hour, "36h": 36 * time.Hour, "90m": 90 * time.Minute, " 1d ": 24 * time.Hour} {
		if got, err := ParseTTL(in); err != nil || got != want {
			t.Errorf("ParseTTL(%q) = %s, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "d", "x7d", "-1d", "7 days", "1.5d"} {
		if _, err := ParseTTL(bad); err == nil {
			t.Errorf("ParseTTL(%q) accepted", bad)
		}
	}
}
