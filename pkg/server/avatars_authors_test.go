package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// Every place that names who wrote something carries the author's avatar
// URL when the account has an avatar, and none when it has not: comments,
// forum posts and chat messages as author.avatarUrl (absent without one),
// a conversation row as user.avatar (null without one). "pic" has an
// avatar, "plain" has none; each wrote one of everything.
func TestAuthorsCarryAvatars(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t)
	cfg := config.Default()
	cfg.Auth.JWTSecret = authTestSecret
	a := newTestAuth(t, st, cfg.Auth)
	b, err := blog.New(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Create(ctx, blog.Input{Name: "First", Excerpt: "e", Category: "Go", Content: "body"}); err != nil {
		t.Fatal(err)
	}
	opts := discuss.DefaultOptions()
	opts.NewAccountAge = 0
	opts.Comments.Moderation, opts.Forum.Moderation = discuss.ModeNone, discuss.ModeNone
	d, err := discuss.New(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	hub := events.NewHub(eventsOptions(cfg.Events, nil))
	t.Cleanup(hub.Close)
	n, err := notify.New(st, hub)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := chat.New(st, chat.Options{MaxMessages: cfg.Chat.MaxMessages, MaxBytes: cfg.Chat.MaxBytes,
		MaxLength: cfg.Chat.MaxLength, RatePerMinute: cfg.Chat.RatePerMinute})
	if err != nil {
		t.Fatal(err)
	}
	so, err := social.New(st, social.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids, toks := map[string]uint64{}, map[string]string{}
	for _, name := range []string{"admin", "pic", "plain"} {
		role := auth.RoleUser
		if name == "admin" {
			role = auth.RoleAdmin
		}
		u, err := a.CreateUser(ctx, auth.NewUser{Email: name + "@example.com", Name: name, Password: "correct horse battery", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Login(ctx, u.Email, "correct horse battery", auth.Client{})
		if err != nil {
			t.Fatal(err)
		}
		ids[name], toks[name] = u.ID, res.Tokens.AccessToken
	}
	withAvatar, err := a.SetAvatar(ctx, ids["pic"], []byte("\xff\xd8 a jpeg"))
	if err != nil {
		t.Fatal(err)
	}
	avatar := withAvatar.AvatarURL
	if avatar == "" {
		t.Fatal("SetAvatar gave no URL")
	}
	app := newTestApp(t, func(o *Options) {
		o.Config = cfg
		o.Services = &Services{Store: st, Auth: a, Authenticate: a.Authenticate, Blog: b, Discuss: d, Notify: n,
			Events: hub, Chat: ch, Social: so}
	})
	call := func(t *testing.T, who, method, path, body string, want int) []byte {
		t.Helper()
		resp, raw := app.do(t, jsonRequest(method, path, toks[who], body))
		if resp.StatusCode != want {
			t.Fatalf("%s %s as %s: %d %s", method, path, who, resp.StatusCode, raw)
		}
		return raw
	}

	// What each wrote, and the answers to the writing itself.
	var cat discuss.Category
	if err := json.Unmarshal(call(t, "admin", "POST", "/api/forum/categories", `{"name":"General"}`, 201), &cat); err != nil {
		t.Fatal(err)
	}
	var thread struct{ Thread discuss.Thread }
	started := call(t, "pic", "POST", fmt.Sprintf("/api/forum/categories/%d/threads", cat.ID), `{"title":"Hello","content":"pic's post"}`, 201)
	if err := json.Unmarshal(started, &thread); err != nil {
		t.Fatal(err)
	}
	written := map[string][]byte{
		"pic's comment":     call(t, "pic", "POST", "/api/blog/1/comments", `{"content":"pic's comment"}`, 201),
		"plain's comment":   call(t, "plain", "POST", "/api/blog/1/comments", `{"content":"plain's comment"}`, 201),
		"plain's post":      call(t, "plain", "POST", fmt.Sprintf("/api/forum/threads/%d/posts", thread.Thread.ID), `{"content":"plain's post"}`, 201),
		"pic's message":     call(t, "pic", "POST", "/api/chat/messages", `{"text":"pic's message"}`, 201),
		"plain's message":   call(t, "plain", "POST", "/api/chat/messages", `{"text":"plain's message"}`, 201),
		"pic's thread post": started,
	}
	call(t, "pic", "POST", fmt.Sprintf("/api/conversations/%d/messages", ids["plain"]), `{"text":"hi plain"}`, 201)

	// The single answers to writing: an author with an avatar names it.
	for what, raw := range written {
		t.Run("answer to "+what, func(t *testing.T) {
			if strings.HasPrefix(what, "pic") != strings.Contains(string(raw), `"avatarUrl":"`+avatar+`"`) {
				t.Fatalf("avatar in the answer is wrong: %s", raw)
			}
			if strings.HasPrefix(what, "plain") && strings.Contains(string(raw), "avatarUrl") {
				t.Fatalf("an account without an avatar has an avatarUrl: %s", raw)
			}
		})
	}

	// The lists: every item by pic carries the URL, every item by plain
	// lacks the field altogether.
	type item struct {
		Author struct {
			Name      string
			AvatarURL *string `json:"avatarUrl"`
		}
	}
	lists := []struct {
		name, who, path, key string
	}{
		{"comments under an article", "", "/api/blog/1/comments", "comments"},
		{"posts of a thread", "", fmt.Sprintf("/api/forum/threads/%d", thread.Thread.ID), "posts"},
		{"chat history", "plain", "/api/chat/messages", "messages"},
	}
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			var page map[string]json.RawMessage
			if err := json.Unmarshal(call(t, tc.who, "GET", tc.path, "", http.StatusOK), &page); err != nil {
				t.Fatal(err)
			}
			var items []item
			if err := json.Unmarshal(page[tc.key], &items); err != nil {
				t.Fatal(err)
			}
			byAuthor := map[string]int{}
			for _, it := range items {
				byAuthor[it.Author.Name]++
				switch it.Author.Name {
				case "pic":
					if it.Author.AvatarURL == nil || *it.Author.AvatarURL != avatar {
						t.Errorf("pic's item: avatarUrl %v, want %q", it.Author.AvatarURL, avatar)
					}
				case "plain":
					if it.Author.AvatarURL != nil {
						t.Errorf("plain's item has avatarUrl %q", *it.Author.AvatarURL)
					}
				}
			}
			if byAuthor["pic"] == 0 || byAuthor["plain"] == 0 {
				t.Fatalf("the list lacks an author: %v", byAuthor)
			}
		})
	}

	// Conversation rows: each side sees the other as its row's user.
	rows := []struct {
		who, other string
		want       *string
	}{
		{"plain", "pic", &avatar},
		{"pic", "plain", nil},
	}
	for _, tc := range rows {
		t.Run("conversation row of "+tc.other, func(t *testing.T) {
			var list []struct {
				User struct {
					ID     uint64
					Avatar *string
				}
			}
			raw := call(t, tc.who, "GET", "/api/conversations", "", http.StatusOK)
			if err := json.Unmarshal(raw, &list); err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || list[0].User.ID != ids[tc.other] {
				t.Fatalf("conversations of %s: %s", tc.who, raw)
			}
			got := list[0].User.Avatar
			if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
				t.Fatalf("row of %s: avatar %s", tc.other, raw)
			}
		})
	}

	// An avatar removed is gone from what the account wrote before.
	if _, err := a.RemoveAvatar(ctx, ids["pic"]); err != nil {
		t.Fatal(err)
	}
	if raw := call(t, "", "GET", "/api/blog/1/comments", "", http.StatusOK); strings.Contains(string(raw), "avatarUrl") {
		t.Fatalf("a removed avatar is still named: %s", raw)
	}
}
