package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/store"
)

// The owner's CLI actions are audited, and `audit list` reads them back as
// a table or as JSON lines, filtered by type and age.
func TestAuditList(t *testing.T) {
	newTestInstance(t)
	if out, _, err := userCLI(t, "", false, "audit", "list"); err != nil || !strings.Contains(out, "no audit events") {
		t.Fatalf("empty log: %v %q", err, out)
	}
	userCLI(t, "password1\n", false, "user", "create", "--email", "a@example.com", "--name", "A", "--password-stdin")
	userCLI(t, "", false, "user", "set-role", "a@example.com", "admin")
	userCLI(t, "", false, "user", "sessions", "revoke", "a@example.com")

	out, _, err := userCLI(t, "", false, "audit", "list", "--json")
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e audit.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		if e.Actor != ownerActor || e.Target != "a@example.com" {
			t.Fatalf("event %+v", e)
		}
		types = append(types, e.Type)
	}
	if err != nil || strings.Join(types, ",") != "sessions.revoked,role.changed,user.created" {
		t.Fatalf("events %v %v", types, err)
	}
	if out, _, _ := userCLI(t, "", false, "audit", "list", "--type", "role"); !strings.Contains(out, "role.changed") || strings.Contains(out, "user.created") {
		t.Fatalf("--type role: %q", out)
	}
	if out, _, _ := userCLI(t, "", false, "audit", "list", "--json", "--limit", "1"); strings.Count(out, "\n") != 1 {
		t.Fatalf("--limit 1: %q", out)
	}
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	if out, _, _ := userCLI(t, "", false, "audit", "list", "--since", future); !strings.Contains(out, "no audit events") {
		t.Fatalf("--since the future: %q", out)
	}
	if out, _, _ := userCLI(t, "", false, "audit", "list", "--since", "1h"); !strings.Contains(out, "user.created") {
		t.Fatalf("--since 1h: %q", out)
	}
	for _, bad := range [][]string{{"--since", "yesterday"}, {"--since", "-1h"}, {"--limit", "-2"}, {"extra"}} {
		if _, _, err := userCLI(t, "", false, append([]string{"audit", "list"}, bad...)...); err == nil {
			t.Errorf("audit list %v: no error", bad)
		}
	}
}

// What a guest typed reaches the audit log (the e-mail of a failed
// sign-in); the table shows its control characters and bidirectional
// overrides as escapes, never as bytes the owner's terminal would run.
func TestAuditListEscapesControlCharacters(t *testing.T) {
	tests := []struct {
		name, actor, want string
	}{
		{"retitle and recolour", "evil\x1b]0;pwned\x07\x1b[31m@x.io", `evil\x1b]0;pwned\a\x1b[31m@x.io`},
		{"erase the line above", "\x1b[1A\x1b[2Kx@x.io", `\x1b[1A\x1b[2Kx@x.io`},
		{"C1 control and newline", "a\u009b31m\nb@x.io", `a\u009b31m\nb@x.io`},
		{"right-to-left override", "moc.x@\u202eevil", `moc.x@\u202eevil`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ti := newTestInstance(t)
			if err := os.MkdirAll(ti.dataDir, 0o700); err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(filepath.Join(ti.dataDir, "devhub.db"), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			log, err := audit.New(st, 0, nil)
			if err == nil {
				err = log.Record(context.Background(), audit.Event{Type: audit.SignInFailed, Actor: tc.actor, Target: tc.actor,
					Details: map[string]string{"reason": tc.actor}})
			}
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			out, _, code := ti.run("", "audit", "list")
			if code != 0 || strings.Count(out, tc.want) != 3 || strings.ContainsFunc(out, func(r rune) bool {
				return r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r))
			}) {
				t.Fatalf("%d %q", code, out)
			}
		})
	}
}
