package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestContentCheck(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join("..", "..", "content", "profile.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	avatar, err := os.ReadFile(filepath.Join("..", "..", "content", "avatar.svg"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		profile  string // "" writes no file
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"shipped example", string(shipped), 0, "is valid: Olena Kovalenko — 6 services, 12 technologies, 4 tools, 5 tool groups, 3 projects", ""},
		{"no file", "", 0, "the portfolio shows no owner", ""},
		{"unknown key", string(shipped) + "colour: red\n", 1, "", "profile.yaml:" + lineCount(string(shipped)+"x") + ": colour: unknown key"},
		{"missing field", strings.Replace(string(shipped), "avatar: avatar.svg\n", "avatar: missing.png\n", 1), 1, "", `avatar: file "missing.png" does not exist`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ti := newTestInstance(t)
			dir := os.Getenv("DEVHUB_STORAGE_CONTENT_DIR")
			if err := os.MkdirAll(dir, 0o750); err != nil {
				t.Fatal(err)
			}
			if tc.profile != "" {
				if err := os.WriteFile(filepath.Join(dir, "profile.yaml"), []byte(tc.profile), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "avatar.svg"), avatar, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			out, errOut, code := ti.run("", "content", "check")
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) || !strings.Contains(errOut, tc.wantErr) {
				t.Fatalf("code %d, out %q, err %q", code, out, errOut)
			}
			if tc.wantCode != 0 {
				// serve refuses to start on the same problem, before it opens anything
				_, serveErr, serveCode := ti.run("", "serve", "--addr", "127.0.0.1:0")
				if serveCode == 0 || !strings.Contains(serveErr, tc.wantErr) {
					t.Fatalf("serve: code %d, err %q", serveCode, serveErr)
				}
			}
		})
	}
}

// lineCount is the number of the last line of s.
func lineCount(s string) string {
	return strconv.Itoa(strings.Count(s, "\n") + 1)
}
