package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/downloads"
)

func TestReleaseFileArg(t *testing.T) {
	for _, c := range []struct{ arg, path, system, arch string }{
		{"a.exe", "a.exe", "any", "any"},
		{"dist/a.exe@windows/x64", "dist/a.exe", "windows", "x64"},
		{"a.exe@linux", "a.exe", "linux", "any"},
		{"me@host/dir/a.exe", "me@host/dir/a.exe", "any", "any"},
	} {
		p, s, a := releaseFileArg(c.arg, "any", "any")
		if p != c.path || s != c.system || a != c.arch {
			t.Errorf("%q: %q %q %q", c.arg, p, s, a)
		}
	}
}

// The download commands, with the store held by this process and through a
// running server's owner socket, and their bad inputs.
func TestDownloadCommands(t *testing.T) {
	for _, mode := range []string{"local", "socket"} {
		t.Run(mode, func(t *testing.T) {
			newTestInstance(t)
			var svc *services
			if mode == "socket" {
				_, svc, _ = runningServer(t)
			}
			cwd := t.TempDir()
			exe, zip := []byte("MZ windows program"), []byte("PK portable")
			writeFile(t, filepath.Join(cwd, "tool.exe"), exe)
			writeFile(t, filepath.Join(cwd, "tool.zip"), zip)
			writeFile(t, filepath.Join(cwd, "NOTES.md"), []byte("Fixed *everything*."))
			run := func(args ...string) (string, string, int) { return runFileCmd(t, cwd, false, args...) }
			ok := func(args ...string) string {
				t.Helper()
				out, stderr, code := run(args...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, stderr)
				}
				return out
			}
			ok("download", "add", "tool", "--section", "programs", "--name", "Tool", "--summary", "Does it",
				"--systems", "windows-10,windows-11")
			out := ok("download", "release", "tool", "--version", "1.0", "--notes", "NOTES.md", "tool.exe@windows/x64", "tool.zip")
			h := sha256.Sum256(exe)
			if !strings.Contains(out, hex.EncodeToString(h[:])) {
				t.Fatalf("release output lacks the checksum: %s", out)
			}
			ok("download", "edit", "tool", "--hidden")
			var list []downloads.EntryView
			if err := json.Unmarshal([]byte(ok("download", "list", "--json")), &list); err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || !list[0].Hidden || list[0].Summary != "Does it" || len(list[0].Releases) != 1 {
				t.Fatalf("list %+v", list)
			}
			r := list[0].Releases[0]
			if r.Notes != "Fixed *everything*." || len(r.Files) != 2 || r.Files[0].System != "windows" || r.Files[0].Arch != "x64" ||
				r.Files[1].System != "any" || r.Files[1].SHA256 != hex.EncodeToString(sha256Of(zip)) {
				t.Fatalf("release %+v", r)
			}
			if svc != nil {
				if e, err := svc.Downloads.Get("tool"); err != nil || !e.Hidden {
					t.Fatalf("the server does not see the change: %v", err)
				}
			}
			for _, bad := range []struct {
				args []string
				want string
			}{
				{[]string{"download", "add", "../x", "--section", "programs", "--name", "X"}, "slug"},
				{[]string{"download", "add", "x", "--section", "music", "--name", "X"}, "section"},
				{[]string{"download", "add", "tool", "--section", "programs", "--name", "X"}, "taken"},
				{[]string{"download", "add", "y", "--section", "programs", "--name", "X", "--systems", "beos"}, "systems"},
				{[]string{"download", "edit", "nope", "--name", "X"}, "not found"},
				{[]string{"download", "release", "tool", "tool.exe"}, "--version"},
				{[]string{"download", "release", "tool", "--version", "1.0", "tool.exe"}, "already exists"},
				{[]string{"download", "release", "tool", "--version", "2", "missing.exe"}, "no such file"},
				{[]string{"download", "release", "tool", "--version", "2", "tool.exe@beos/x64"}, "system"},
				{[]string{"download", "release", "nope", "--version", "2", "tool.exe"}, "not found"},
				{[]string{"download", "rm", "nope"}, "not found"},
			} {
				_, stderr, code := run(bad.args...)
				if code == 0 || !strings.Contains(stderr, bad.want) {
					t.Errorf("%v: exit %d, stderr %q, want it to mention %q", bad.args, code, stderr, bad.want)
				}
			}
			// Nothing of the refused releases stays in the storage.
			if n := countObjects(t, filepath.Join(os.Getenv("DEVHUB_STORAGE_UPLOADS_DIR"), "downloads")); n != 2 {
				t.Fatalf("%d objects, want the release's 2", n)
			}
			ok("download", "rm", "tool", "--version", "1.0")
			ok("download", "rm", "tool")
			if out := ok("download", "list"); strings.Contains(out, "tool") {
				t.Fatalf("still listed: %s", out)
			}
			if n := countObjects(t, filepath.Join(os.Getenv("DEVHUB_STORAGE_UPLOADS_DIR"), "downloads")); n != 0 {
				t.Fatalf("%d objects left", n)
			}
		})
	}
}

func sha256Of(b []byte) []byte { h := sha256.Sum256(b); return h[:] }

func countObjects(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		if downloads.IsKey(e.Name()) {
			n++
		}
	}
	return n
}

// The example entries of content/ are imported once into an empty
// catalogue, marked as examples; a release whose files are missing is left
// out.
func TestDownloadsSeedExamples(t *testing.T) {
	newTestInstance(t)
	content := os.Getenv("DEVHUB_STORAGE_CONTENT_DIR")
	if err := os.MkdirAll(filepath.Join(content, "downloads", "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(content, "downloads", "files", "a.exe"), []byte("MZ"))
	writeFile(t, filepath.Join(content, "downloads", "catalogue.yaml"), []byte(`entries:
  - {section: programs, slug: aa, name: A, systems: [windows-11], releases: [{version: "1", files: [{path: files/a.exe, system: windows, arch: x64}]}, {version: "2", files: [{path: files/gone.exe, system: windows, arch: x64}]}]}
  - {section: alavar, slug: bb, name: B}
`))
	_, svc, _ := runningServer(t)
	if n, err := svc.Downloads.SeedFrom(t.Context(), content, 1<<20); n != 2 || err != nil {
		t.Fatalf("seeded %d: %v", n, err)
	}
	a, err := svc.Downloads.Get("aa")
	if err != nil || !a.Example || len(a.Releases) != 1 || a.Releases[0].Version != "1" {
		t.Fatalf("a: %+v %v", a, err)
	}
	if _, err := svc.Downloads.Get("bb"); err != nil {
		t.Fatal(err)
	}
	// Deleted, they are not imported again.
	svc.Downloads.Delete(t.Context(), "aa")
	svc.Downloads.Delete(t.Context(), "bb")
	svc.downloadsStartup(t.Context())
	if svc.Downloads.Count() != 0 {
		t.Fatal("examples imported again")
	}
}
