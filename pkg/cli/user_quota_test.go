package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/quota"
)

// TestUserQuota runs `devhub user quota` in sequence on one account: each
// step's --json answer shows the effective limit after it, and bad input
// fails with a message and changes nothing.
func TestUserQuota(t *testing.T) {
	ti := newTestInstance(t)
	t.Setenv("DEVHUB_FILES_QUOTA_BYTES", "1000")
	t.Setenv("DEVHUB_FILES_QUOTA_FILES", "0")
	userCLI(t, "password1\n", false, "user", "create", "--email", "u@example.com", "--name", "U", "--password-stdin")
	userCLI(t, "password1\n", false, "user", "create", "--email", "a@example.com", "--name", "A", "--admin", "--password-stdin")
	steps := []struct {
		name    string
		args    []string
		wantErr string // on stderr, with a non-zero exit
		limit   string // the JSON limit afterwards
	}{
		{"the default", []string{"u@example.com"}, "", `{"bytes":1000,"files":null}`},
		{"set both", []string{"u@example.com", "--bytes", "10GiB", "--files", "10000"}, "", `{"bytes":10737418240,"files":10000}`},
		{"lift bytes", []string{"u@example.com", "--bytes", "unlimited"}, "", `{"bytes":null,"files":10000}`},
		{"bad size", []string{"u@example.com", "--bytes", "ten gigs"}, "--bytes", `{"bytes":null,"files":10000}`},
		{"bad unit", []string{"u@example.com", "--bytes", "10XB"}, "unknown unit", `{"bytes":null,"files":10000}`},
		{"negative count", []string{"u@example.com", "--files", "-3"}, "--files", `{"bytes":null,"files":10000}`},
		{"back to defaults", []string{"u@example.com", "--bytes", "default", "--files", "default"}, "", `{"bytes":1000,"files":null}`},
		{"admins unlimited by default", []string{"a@example.com"}, "", `{"bytes":null,"files":null}`},
		{"unknown account", []string{"nobody@example.com"}, "no account", ""},
		{"no e-mail", []string{}, "accepts 1 arg", ""},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			args := append([]string{"user", "quota"}, st.args...)
			_, errOut, code := ti.run("", args...)
			if st.wantErr != "" {
				if code == 0 || !strings.Contains(errOut, st.wantErr) {
					t.Fatalf("exit %d, stderr %q; want an error with %q", code, errOut, st.wantErr)
				}
			} else if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if st.limit == "" || len(st.args) == 0 {
				return
			}
			out, errOut, code := ti.run("", "user", "quota", st.args[0], "--json")
			if code != 0 {
				t.Fatalf("--json: exit %d: %s", code, errOut)
			}
			var r struct {
				Used  quota.Amount    `json:"used"`
				Limit json.RawMessage `json:"limit"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			var compact bytes.Buffer
			json.Compact(&compact, r.Limit)
			if compact.String() != st.limit {
				t.Fatalf("limit %s, want %s", compact.String(), st.limit)
			}
		})
	}
	out, _, _ := ti.run("", "user", "quota", "u@example.com")
	if !strings.Contains(out, "u@example.com: 0 B of 1000 B, 0 of unlimited files") {
		t.Fatalf("text answer %q", out)
	}
}
