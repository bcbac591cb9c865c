package cli

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/discuss"
)

// seedDiscussion stores an account, an article with one held comment and
// returns the comment's id; the store is closed again.
func seedDiscussion(t *testing.T) uint64 {
	t.Helper()
	_, svc := openInstance(t)
	defer svc.Close()
	ctx := context.Background()
	u, err := svc.Auth.CreateUser(ctx, auth.NewUser{Email: "a@example.com", Name: "Alice", Password: "password123", Role: auth.RoleUser})
	if err != nil {
		t.Fatal(err)
	}
	a, err := svc.Blog.Create(ctx, blog.Input{Name: "Post", Excerpt: "e", Category: "Go", Content: "body"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Discuss.AddComment(ctx, a.ID, 0, discuss.Poster{ID: u.ID, Name: u.Name, CreatedAt: u.CreatedAt}, "hello   there")
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

func TestCommentCommands(t *testing.T) {
	ti := newTestInstance(t)
	id := strconv.FormatUint(seedDiscussion(t), 10)
	steps := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"comment", "list", "--pending"}, 0, "pending  Alice", ""},
		{[]string{"comment", "approve", "x"}, 1, "", "ID must be a positive number"},
		{[]string{"comment", "approve", "99"}, 1, "", "not found"},
		{[]string{"comment", "approve", id}, 0, "comment " + id + " published", ""},
		{[]string{"comment", "list", "--pending"}, 0, "ID", ""},
		{[]string{"comment", "list", "--article", "abc"}, 1, "", "--article must be an article id"},
		{[]string{"comment", "rm", id}, 0, "comment " + id + " removed", ""},
		{[]string{"comment", "rm", id}, 1, "", "not found"},
		{[]string{"comment", "approve"}, 1, "", "accepts 1 arg"},
	}
	for _, s := range steps {
		out, errOut, code := ti.run("", s.args...)
		if code != s.code || !strings.Contains(out, s.out) || !strings.Contains(errOut, s.err) {
			t.Fatalf("%v: code %d out %q err %q; want %d %q %q", s.args, code, out, errOut, s.code, s.out, s.err)
		}
	}
	out, _, code := ti.run("", "comment", "list", "--json")
	var list []discuss.Comment
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 0 {
		t.Fatalf("list --json after rm: %d %q", code, out)
	}
}

func TestForumCommands(t *testing.T) {
	ti := newTestInstance(t)
	steps := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"forum", "category", "add"}, 1, "", "a category needs a name"},
		{[]string{"forum", "category", "add", "--name", "General", "--name-in", "uk=Загальне", "--description", "Anything"}, 0, "category 1 added: General", ""},
		{[]string{"forum", "category", "add", "--name", "Help", "--position", "0"}, 0, "category 2 added", ""},
		{[]string{"forum", "category", "list"}, 0, "General", ""},
		{[]string{"forum", "category", "rm", "7"}, 1, "", "not found"},
		{[]string{"forum", "category", "rm", "-1"}, 1, "", ""},
		{[]string{"forum", "thread", "list", "--category", "zero"}, 1, "", "--category must be a positive number"},
		{[]string{"forum", "thread", "rm", "5"}, 1, "", "not found"},
		{[]string{"forum", "thread", "list"}, 0, "ID", ""},
	}
	for _, s := range steps {
		out, errOut, code := ti.run("", s.args...)
		if code != s.code || !strings.Contains(out, s.out) || !strings.Contains(errOut, s.err) {
			t.Fatalf("%v: code %d out %q err %q; want %d %q %q", s.args, code, out, errOut, s.code, s.out, s.err)
		}
	}
	out, _, _ := ti.run("", "forum", "category", "list", "--json")
	var cats []discuss.Category
	if err := json.Unmarshal([]byte(out), &cats); err != nil || len(cats) != 2 || cats[0].Name != "Help" || cats[1].Names["uk"] != "Загальне" {
		t.Fatalf("categories: %v %+v", err, cats)
	}
	// A thread started on the site, listed and removed at the terminal.
	cfg, _ := loadConfig("", nil)
	svc := openServices(t, cfg)
	u, err := svc.Auth.CreateUser(context.Background(), auth.NewUser{Email: "b@example.com", Name: "Bob", Password: "password123", Role: auth.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Discuss.CreateThread(context.Background(), 1, discuss.Poster{ID: u.ID, Name: u.Name, Admin: true}, "Welcome", "hi"); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	out, _, code := ti.run("", "forum", "thread", "list", "--json")
	var threads []discuss.Thread
	if code != 0 || json.Unmarshal([]byte(out), &threads) != nil || len(threads) != 1 || threads[0].Title != "Welcome" {
		t.Fatalf("thread list: %d %q", code, out)
	}
	if out, _, code := ti.run("", "forum", "thread", "rm", "1"); code != 0 || !strings.Contains(out, "thread 1 removed: Welcome") {
		t.Fatalf("thread rm: %d %q", code, out)
	}
	if out, _, code := ti.run("", "forum", "category", "rm", "1"); code != 0 || !strings.Contains(out, "removed with 0 threads") {
		t.Fatalf("category rm: %d %q", code, out)
	}
}
