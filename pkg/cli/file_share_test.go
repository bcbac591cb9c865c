package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/shares"
)

func TestFileShareCommands(t *testing.T) {
	ti := newTestInstance(t)
	t.Setenv("DEVHUB_SERVER_PUBLIC_URL", "https://hub.example.com")
	src := filepath.Join(t.TempDir(), "talk.pdf")
	writeFile(t, src, []byte("%PDF-1.4\n"))
	if _, stderr, code := ti.run("", "file", "add", src); code != 0 {
		t.Fatalf("add: %d %s", code, stderr)
	}

	out, stderr, code := ti.run("s3cret pass\n", "file", "share", "1", "--expires", "36h", "--password-stdin", "--max-downloads", "3", "--json")
	if code != 0 {
		t.Fatalf("share: %d %s", code, stderr)
	}
	var link shares.Link
	if err := json.Unmarshal([]byte(out), &link); err != nil {
		t.Fatalf("share --json: %v\n%s", err, out)
	}
	if !shares.ValidToken(link.Token) || link.URL != "https://hub.example.com/s/"+link.Token || link.FileName != "talk.pdf" ||
		!link.HasPassword || link.MaxDownloads == nil || *link.MaxDownloads != 3 || link.State != shares.StateActive {
		t.Fatalf("link %+v", link)
	}
	if d := time.Until(link.ExpiresAt); d < 35*time.Hour || d > 37*time.Hour {
		t.Errorf("expires in %v", d)
	}
	// Plain output: the URL on stdout (for scripts), a summary on stderr.
	out, stderr, code = ti.run("", "file", "share", "1")
	if code != 0 || !strings.HasPrefix(out, "https://hub.example.com/s/") || !strings.Contains(stderr, "no password") {
		t.Fatalf("share: %d %q %q", code, out, stderr)
	}
	second := strings.TrimSpace(strings.TrimPrefix(out, "https://hub.example.com/s/"))

	out, stderr, code = ti.run("", "file", "shares", "--json")
	var links []shares.Link
	if code != 0 || json.Unmarshal([]byte(out), &links) != nil || len(links) != 2 {
		t.Fatalf("shares --json: %d %s %s", code, out, stderr)
	}
	if out, _, code = ti.run("", "file", "shares", "1"); code != 0 || !strings.Contains(out, link.Token) || !strings.Contains(out, "0/3") {
		t.Fatalf("shares 1: %d %s", code, out)
	}

	if out, stderr, code = ti.run("", "file", "unshare", second); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("unshare: %d %s %s", code, out, stderr)
	}
	out, _, _ = ti.run("", "file", "shares", "--json")
	json.Unmarshal([]byte(out), &links)
	for _, l := range links {
		want := shares.StateActive
		if l.Token == second {
			want = shares.StateRevoked
		}
		if l.State != want {
			t.Errorf("%s: state %s, want %s", l.Token, l.State, want)
		}
	}
	out, _, _ = ti.run("", "audit", "list", "--json", "--type", "share.created")
	if strings.Count(out, "share.created") != 2 || strings.Contains(out, link.Token) {
		t.Errorf("audit: %s", out)
	}

	bad := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"no id", "", []string{"file", "share"}, "accepts 1 arg"},
		{"bad id", "", []string{"file", "share", "x"}, "positive number"},
		{"unknown file", "", []string{"file", "share", "99"}, "not found"},
		{"bad expiry", "", []string{"file", "share", "1", "--expires", "soon"}, "--expires"},
		{"zero expiry", "", []string{"file", "share", "1", "--expires", "0d"}, "--expires"},
		{"expiry over a year", "", []string{"file", "share", "1", "--expires", "400d"}, "365 days"},
		{"zero downloads", "", []string{"file", "share", "1", "--max-downloads", "0"}, "--max-downloads"},
		{"no password on stdin", "", []string{"file", "share", "1", "--password-stdin"}, "no password"},
		{"shares of unknown file", "", []string{"file", "shares", "99"}, "not found"},
		{"shares bad id", "", []string{"file", "shares", "-1"}, ""},
		{"unshare malformed", "", []string{"file", "unshare", "../x"}, "not a share link token"},
		{"unshare unknown", "", []string{"file", "unshare", "AAAAAAAAAAAAAAAAAAAAAAAA"}, "no share link"},
		{"unshare no token", "", []string{"file", "unshare"}, "accepts 1 arg"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := ti.run(tc.stdin, tc.args...)
			if code == 0 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want an error with %q", code, out, stderr, tc.want)
			}
		})
	}
}

func TestFileShareThroughRunningServer(t *testing.T) {
	ti := newTestInstance(t)
	src := filepath.Join(t.TempDir(), "a.txt")
	writeFile(t, src, []byte("hello"))
	if _, stderr, code := ti.run("", "file", "add", src); code != 0 {
		t.Fatalf("add: %s", stderr)
	}
	_, svc, _ := runningServer(t)
	out, stderr, code := ti.run("", "file", "share", "1", "--json")
	if code != 0 {
		t.Fatalf("share via socket: %d %s", code, stderr)
	}
	var link shares.Link
	json.Unmarshal([]byte(out), &link)
	// Made by the server's own service: it knows the link at once.
	if _, err := svc.Shares.Active(link.Token); err != nil || link.URL != "/s/"+link.Token {
		t.Fatalf("link %+v: %v", link, err)
	}
}
