package usecase

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// A copy of an account's data holds what it wrote and received everywhere
// on the site — and nothing of anyone else's beyond the conversations it
// is part of.
func TestExportHoldsTheAccountsActivity(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	a, err := auth.New(st, config.Default().Auth)
	must(err)
	au, err := audit.New(st, 0, nil)
	must(err)
	fs, err := files.New(st, filepath.Join(t.TempDir(), "uploads"), 1<<20, nil)
	must(err)
	t.Cleanup(func() { fs.Close() })
	opts := discuss.DefaultOptions()
	opts.Comments.Moderation, opts.Forum.Moderation, opts.RatePerUser, opts.RatePerNetwork = discuss.ModeNone, discuss.ModeNone, 1000, 1000
	d, err := discuss.New(st, opts)
	must(err)
	room, err := chat.New(st, chat.Options{RatePerMinute: 1000})
	must(err)
	soc, err := social.New(st, social.Options{PerMinute: 1000})
	must(err)
	hub := events.NewHub(events.Options{})
	n, err := notify.New(st, hub)
	must(err)
	h := &Hub{Auth: a, Audit: au, Files: fs, Discuss: d, Chat: room, Social: soc, Notify: n, Events: hub}
	mk := func(email, name string) *auth.User {
		u, err := a.CreateUser(ctx, auth.NewUser{Email: email, Name: name, Password: "a long password 1", Role: auth.RoleUser})
		must(err)
		return u
	}
	ann, bob, cyd := mk("ann@example.com", "ann"), mk("bob@example.com", "bob"), mk("cyd@example.com", "cyd")
	poster := func(u *auth.User) discuss.Poster {
		return discuss.Poster{ID: u.ID, Name: u.Name, CreatedAt: u.CreatedAt}
	}

	// Writing: a comment of ann's, one of bob's; a thread of ann's.
	_, err = d.AddComment(ctx, 7, 0, poster(ann), "ann's comment")
	must(err)
	_, err = d.AddComment(ctx, 7, 0, poster(bob), "bob's comment")
	must(err)
	name := "General"
	cat, err := d.SaveCategory(ctx, 0, discuss.CategoryInput{Name: &name})
	must(err)
	_, _, err = d.CreateThread(ctx, cat.ID, poster(ann), "Ann asks", "the first post")
	must(err)
	// The room: ann's message, and bob's mention of ann (a notification).
	_, err = h.PostChat(ctx, actorOf(ann), "hello room")
	must(err)
	_, err = h.PostChat(ctx, actorOf(bob), "hi @ann")
	must(err)
	// Friends, and a conversation longer than one page each way.
	req, err := h.RequestFriend(ctx, actorOf(ann), bob.ID)
	must(err)
	must(h.AnswerFriendRequest(ctx, actorOf(bob), req.ID, true))
	const sent = social.MaxPage + 20
	for i := range sent {
		from, to := ann, bob
		if i%2 == 1 {
			from, to = bob, ann
		}
		_, err := h.SendMessage(ctx, actorOf(from), to.ID, fmt.Sprintf("m%d", i))
		must(err)
	}
	// A conversation ann is not part of.
	req, err = h.RequestFriend(ctx, actorOf(bob), cyd.ID)
	must(err)
	must(h.AnswerFriendRequest(ctx, actorOf(cyd), req.ID, true))
	_, err = h.SendMessage(ctx, actorOf(bob), cyd.ID, "not ann's")
	must(err)

	ex, err := h.ExportOwnData(ctx, actorOf(ann))
	must(err)
	var buf bytes.Buffer
	must(ex.WriteZip(ctx, &buf))
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	must(err)
	docs := map[string]json.RawMessage{}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		r, err := f.Open()
		must(err)
		var raw json.RawMessage
		must(json.NewDecoder(r).Decode(&raw))
		docs[f.Name] = raw
	}
	want := []string{"account.json", "writing.json", "chat.json", "messages.json", "friends.json", "notifications.json"}
	if !slices.Equal(names, want) {
		t.Fatalf("entries %v, want %v", names, want)
	}
	for name, raw := range docs {
		if strings.Contains(string(raw), "not ann's") || strings.Contains(string(raw), "bob's comment") || strings.Contains(string(raw), "cyd@") {
			t.Fatalf("%s holds someone else's data: %s", name, raw)
		}
	}

	var writing struct {
		Comments   []struct{ Content string }
		ForumPosts []struct{ Content, ThreadTitle string }
	}
	must(json.Unmarshal(docs["writing.json"], &writing))
	if len(writing.Comments) != 1 || writing.Comments[0].Content != "ann's comment" ||
		len(writing.ForumPosts) != 1 || writing.ForumPosts[0].ThreadTitle != "Ann asks" {
		t.Fatalf("writing.json %s", docs["writing.json"])
	}
	var chatDoc struct{ Messages []struct{ Text string } }
	must(json.Unmarshal(docs["chat.json"], &chatDoc))
	if len(chatDoc.Messages) != 1 || chatDoc.Messages[0].Text != "hello room" {
		t.Fatalf("chat.json %s", docs["chat.json"])
	}
	var msgs struct {
		Conversations []struct {
			User     struct{ Name string }
			Messages []struct{ Text string }
		}
	}
	must(json.Unmarshal(docs["messages.json"], &msgs))
	if len(msgs.Conversations) != 1 || msgs.Conversations[0].User.Name != "bob" || len(msgs.Conversations[0].Messages) != sent {
		t.Fatalf("messages.json: %d conversations", len(msgs.Conversations))
	}
	for i, m := range msgs.Conversations[0].Messages {
		if m.Text != fmt.Sprintf("m%d", i) {
			t.Fatalf("message %d is %q: not every message, oldest first", i, m.Text)
		}
	}
	var friends struct {
		Friends []struct{ User struct{ Name string } }
	}
	must(json.Unmarshal(docs["friends.json"], &friends))
	if len(friends.Friends) != 1 || friends.Friends[0].User.Name != "bob" {
		t.Fatalf("friends.json %s", docs["friends.json"])
	}
	var notes struct {
		Settings      map[string]bool
		Notifications []struct{ Kind string }
	}
	must(json.Unmarshal(docs["notifications.json"], &notes))
	kinds := map[string]int{}
	for _, n := range notes.Notifications {
		kinds[n.Kind]++
	}
	if kinds[notify.KindMention] != 1 || len(notes.Settings) == 0 {
		t.Fatalf("notifications.json %s", docs["notifications.json"])
	}
}
