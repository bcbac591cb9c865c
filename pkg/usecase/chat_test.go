package usecase

import (
	"context"
	"slices"
	"testing"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// The chat's use-cases: who may post, what an empty message does, who a
// mention notifies, and that a deleted account's notifications go with it.
func TestChatAndNotifications(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	a, err := auth.New(st, config.Default().Auth)
	if err != nil {
		t.Fatal(err)
	}
	au, err := audit.New(st, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	hub := events.NewHub(events.Options{})
	n, err := notify.New(st, hub)
	if err != nil {
		t.Fatal(err)
	}
	room, err := chat.New(st, chat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{hub: &Hub{Auth: a, Audit: au, Events: hub, Notify: n, Chat: room}}
	mk := func(email, name, role string) *auth.User {
		u, err := a.CreateUser(ctx, auth.NewUser{Email: email, Name: name, Password: "a long password 1", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	f.owner, f.other, f.admin = mk("ann@example.com", "ann", auth.RoleUser), mk("bob@example.com", "bob", auth.RoleUser),
		mk("root@example.com", "root", auth.RoleAdmin)

	if _, err := f.hub.PostChat(ctx, Owner(), "from the terminal"); store.KindOf(err) != store.KindForbidden {
		t.Fatalf("the owner at the terminal has no account to post as: %v", err)
	}
	if m, err := f.hub.PostChat(ctx, actorOf(f.owner), "  \n "); m != nil || err != nil {
		t.Fatalf("empty: %v %v", m, err)
	}
	m, err := f.hub.PostChat(ctx, actorOf(f.owner), "hi @BOB and @ann and @nobody")
	if err != nil || m.Author.Name != "ann" {
		t.Fatalf("post: %+v %v", m, err)
	}
	if p, _ := n.List(f.other.ID, 0, 0); len(p.Items) != 1 || p.Items[0].Kind != notify.KindMention {
		t.Fatalf("bob's notifications %+v", p.Items)
	}
	if p, _ := n.List(f.owner.ID, 0, 0); len(p.Items) != 0 {
		t.Fatal("the author was notified of their own mention")
	}
	// A display name with a space is mentioned whole; a longer word that
	// starts with a name mentions nobody.
	anna := mk("anna@example.com", "Anna Petrenko", auth.RoleUser)
	if _, err := f.hub.PostChat(ctx, actorOf(f.owner), "@anna petrenko, see this; @bobby too"); err != nil {
		t.Fatal(err)
	}
	if p, _ := n.List(anna.ID, 0, 0); len(p.Items) != 1 {
		t.Fatalf("Anna Petrenko's notifications %+v", p.Items)
	}
	if p, _ := n.List(f.other.ID, 0, 0); len(p.Items) != 1 {
		t.Fatalf("@bobby reached bob: %+v", p.Items)
	}
	// An account that blocked the author is not reached by their mentions.
	soc, err := social.New(st, social.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.hub.Social = soc
	if err := soc.Block(ctx, f.other.ID, f.owner.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.hub.PostChat(ctx, actorOf(f.owner), "still there, @bob?"); err != nil {
		t.Fatal(err)
	}
	if p, _ := n.List(f.other.ID, 0, 0); len(p.Items) != 1 {
		t.Fatalf("a blocked author's mention reached bob: %+v", p.Items)
	}
	// Nor does bob see ann's presence, or she his.
	streams := map[uint64]*events.Stream{}
	for _, u := range []*auth.User{f.owner, f.other, f.admin} {
		s, err := hub.Subscribe(events.Sub{UserID: u.ID})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		streams[u.ID] = s
	}
	f.hub.PresenceChanged(f.owner.ID, true)
	presence := func(u *auth.User) (n int) {
		for {
			select {
			case ev := <-streams[u.ID].C():
				if ev.Type == EventPresence {
					n++
				}
			default:
				return n
			}
		}
	}
	if got := []int{presence(f.other), presence(f.admin), presence(f.owner)}; got[0] != 0 || got[1] != 1 || got[2] != 1 {
		t.Fatalf("presence events for bob, root, ann: %v, want [0 1 1]", got)
	}
	online := func(u *auth.User) (names []string) {
		list, err := f.hub.ChatOnline(actorOf(u))
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range list {
			names = append(names, a.Name)
		}
		return names
	}
	if got := online(f.other); slices.Contains(got, "ann") || !slices.Contains(got, "root") {
		t.Fatalf("bob sees online: %v", got)
	}
	if got := online(f.admin); !slices.Contains(got, "ann") || !slices.Contains(got, "bob") {
		t.Fatalf("root sees online: %v", got)
	}
	if err := f.hub.DeleteChatMessage(ctx, actorOf(f.other), m.ID); store.KindOf(err) != store.KindForbidden {
		t.Fatalf("a user deleted a message: %v", err)
	}
	if err := f.hub.DeleteChatMessage(ctx, actorOf(f.admin), m.ID); err != nil {
		t.Fatal(err)
	}
	if ev := f.lastEvent(t); ev.Type != AuditChatDeleted || ev.Actor != f.admin.Email {
		t.Fatalf("audit %+v", ev)
	}
	if _, err := f.hub.DeleteAccount(ctx, Owner(), f.other.Email, false); err != nil {
		t.Fatal(err)
	}
	if c, _ := n.Unread(f.other.ID); c != 0 {
		t.Fatal("a deleted account's notifications stayed")
	}
}
