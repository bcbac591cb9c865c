package usecase

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

type fixture struct {
	hub          *Hub
	owner, other *auth.User
	admin        *auth.User
	fileID       uint64
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st := storetest.Open(t)
	a, err := auth.New(st, config.Default().Auth)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := files.New(st, filepath.Join(t.TempDir(), "uploads"), 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	sh, err := shares.New(st, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	au, err := audit.New(st, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{hub: &Hub{Auth: a, Files: fs, Shares: sh, Audit: au}}
	mk := func(email, role string) *auth.User {
		u, err := a.CreateUser(context.Background(), auth.NewUser{Email: email, Name: "N", Password: "a long password 1", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	f.owner, f.other, f.admin = mk("up@example.com", auth.RoleUser), mk("other@example.com", auth.RoleUser), mk("admin@example.com", auth.RoleAdmin)
	saved, err := fs.Save(context.Background(), "a.txt", strings.NewReader("hello"), files.Uploader{ID: f.owner.ID, Name: f.owner.Email})
	if err != nil {
		t.Fatal(err)
	}
	f.fileID = saved.ID
	return f
}

func actorOf(u *auth.User) Actor { return User(&auth.Principal{User: *u}, "192.0.2.1") }

func (f *fixture) lastEvent(t *testing.T) audit.Event {
	t.Helper()
	evs, _, err := f.hub.Audit.List(context.Background(), audit.Query{Limit: 1})
	if err != nil || len(evs) == 0 {
		t.Fatalf("no audit event (%v)", err)
	}
	return evs[0]
}

// Who may make and end a share link, and what the audit log keeps of it:
// the same whoever asks (site or terminal).
func TestShares(t *testing.T) {
	f := newFixture(t)
	pw, three := "secret", 3
	cases := []struct {
		name  string
		actor Actor
		want  store.Kind // 0: made
	}{
		{"the uploader", actorOf(f.owner), 0},
		{"an admin", actorOf(f.admin), 0},
		{"the owner at the terminal", Owner(), 0},
		{"another user", actorOf(f.other), store.KindForbidden},
		{"a guest", User(nil, ""), store.KindForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sh, err := f.hub.CreateShare(context.Background(), c.actor, f.fileID, NewShare{Password: &pw, MaxDownloads: &three})
			if got := store.KindOf(err); got != c.want {
				t.Fatalf("kind %v (%v), want %v", got, err, c.want)
			}
			if c.want != 0 {
				return
			}
			ev := f.lastEvent(t)
			if ev.Type != audit.ShareCreated || ev.Actor != c.actor.Name() || ev.Target != "file 1" ||
				ev.Details["password"] != "true" || ev.Details["maxDownloads"] != "3" || strings.Contains(ev.Details["link"], sh.Token) {
				t.Fatalf("audit event %+v", ev)
			}
		})
	}
	t.Run("invalid inputs", func(t *testing.T) {
		empty, zero := "", 0
		for _, in := range []NewShare{{Password: &empty}, {MaxDownloads: &zero}} {
			_, err := f.hub.CreateShare(context.Background(), Owner(), f.fileID, in)
			if store.KindOf(err) != store.KindInvalid {
				t.Fatalf("%+v: %v", in, err)
			}
		}
	})
	t.Run("revoke", func(t *testing.T) {
		sh, err := f.hub.CreateShare(context.Background(), actorOf(f.owner), f.fileID, NewShare{})
		if err != nil {
			t.Fatal(err)
		}
		// Another user learns nothing of the link: not found, as for none.
		if _, err := f.hub.RevokeShare(context.Background(), actorOf(f.other), sh.Token); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another user revoking: %v", err)
		}
		if _, err := f.hub.RevokeShare(context.Background(), Owner(), sh.Token); err != nil {
			t.Fatal(err)
		}
		if ev := f.lastEvent(t); ev.Type != audit.ShareRevoked || ev.Actor != OwnerName {
			t.Fatalf("audit event %+v", ev)
		}
	})
}

// Deleting an account: admins and the owner only; its files go only when
// asked; the deletion runs to its end even when the asking request was
// cancelled meanwhile, and is audited the same from either adapter.
func TestDeleteAccount(t *testing.T) {
	cases := []struct {
		name        string
		actor       func(f *fixture) Actor
		deleteFiles bool
		cancelled   bool
		want        store.Kind
		wantFiles   int
	}{
		{"a user may not", func(f *fixture) Actor { return actorOf(f.other) }, false, false, store.KindForbidden, 1},
		{"an admin, keeping the files", func(f *fixture) Actor { return actorOf(f.admin) }, false, false, 0, 1},
		{"the owner, deleting the files", func(*fixture) Actor { return Owner() }, true, false, 0, 0},
		{"a cancelled request still deletes the files", func(f *fixture) Actor { return actorOf(f.admin) }, true, true, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			ctx, cancel := context.WithCancel(context.Background())
			if c.cancelled {
				cancel()
			} else {
				defer cancel()
			}
			_, err := f.hub.DeleteAccount(ctx, c.actor(f), f.owner.Email, c.deleteFiles)
			if got := store.KindOf(err); got != c.want {
				t.Fatalf("kind %v (%v), want %v", got, err, c.want)
			}
			list, _ := f.hub.Files.List()
			if n := len(list); n != c.wantFiles {
				t.Fatalf("%d files left, want %d", n, c.wantFiles)
			}
			if c.want != 0 {
				return
			}
			if _, err := f.hub.Auth.UserByEmail(f.owner.Email); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("the account is still there: %v", err)
			}
			mode := map[bool]string{true: "delete", false: "keep"}[c.deleteFiles]
			if ev := f.lastEvent(t); ev.Type != audit.UserDeleted || ev.Target != f.owner.Email || ev.Details["files"] != mode {
				t.Fatalf("audit event %+v", ev)
			}
		})
	}
}

// Role changes and the other account actions are the admins' and the
// owner's, and note what changed.
func TestAccountAdminActions(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.hub.SetRole(ctx, actorOf(f.other), f.owner.Email, auth.RoleAdmin); store.KindOf(err) != store.KindForbidden {
		t.Fatalf("a user changing a role: %v", err)
	}
	if _, err := f.hub.SetRole(ctx, Owner(), f.owner.Email, auth.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if ev := f.lastEvent(t); ev.Type != audit.RoleChanged || ev.Details["from"] != "user" || ev.Details["to"] != "admin" {
		t.Fatalf("audit event %+v", ev)
	}
	if _, err := f.hub.RevokeSessions(ctx, actorOf(f.other), f.owner.Email); store.KindOf(err) != store.KindForbidden {
		t.Fatalf("a user revoking sessions: %v", err)
	}
	if err := f.hub.ResetTwoFactor(ctx, actorOf(f.other), f.owner.Email); store.KindOf(err) != store.KindForbidden {
		t.Fatalf("a user resetting 2FA: %v", err)
	}
}
