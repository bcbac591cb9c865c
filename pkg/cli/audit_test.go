package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/audit"
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
