package usecase

import (
	"context"
	"errors"
	"testing"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/store"
)

// The owner at the terminal has no account of its own to change.
func TestSelfNeedsAnAccount(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for name, err := range map[string]error{
		"name":   func() error { _, err := f.hub.SetOwnName(ctx, Owner(), "X"); return err }(),
		"avatar": func() error { _, err := f.hub.SetOwnAvatar(ctx, Owner(), []byte("x")); return err }(),
		"export": func() error { _, err := f.hub.ExportOwnData(ctx, Owner()); return err }(),
		"delete": func() error {
			_, err := f.hub.DeleteOwnAccount(ctx, Owner(), auth.Proof{Password: "x"}, true, auth.Client{})
			return err
		}(),
	} {
		if store.KindOf(err) != store.KindForbidden {
			t.Errorf("%s by the owner: %v", name, err)
		}
	}
}

// With mail configured (the hook set), a change of e-mail waits for the
// new address to confirm it: the account keeps its e-mail meanwhile.
func TestEmailChangeWaitsForConfirmation(t *testing.T) {
	f := newFixture(t)
	var asked string
	f.hub.ConfirmNewEmail = func(_ context.Context, u *auth.User, next, _ string) error {
		asked = u.Email + " → " + next
		return nil
	}
	res, err := f.hub.ChangeOwnEmail(context.Background(), actorOf(f.owner), "next@example.com",
		auth.Proof{Password: "a long password 1"}, auth.Client{})
	if err != nil || !res.Pending || res.User.Email != f.owner.Email || asked != "up@example.com → next@example.com" {
		t.Fatalf("%+v %v (%q)", res, err, asked)
	}
	if _, err := f.hub.Auth.UserByEmail("next@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("changed before the confirmation: %v", err)
	}
}
