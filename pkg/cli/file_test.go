package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/devhub/devhub/pkg/store/storetest"
)

// runFileCmd runs one command line with a chosen working directory and
// terminal flag, and returns stdout, stderr and the exit code.
func runFileCmd(t *testing.T, cwd string, tty bool, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		In: strings.NewReader(""), Out: &out, Err: &errb, Cwd: cwd, OutTTY: tty,
		log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	code := run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

type fileItem struct {
	ID           uint64 `json:"id"`
	OriginalName string `json:"originalName"`
	Size         int64  `json:"size"`
	Type         string `json:"type"`
	SHA256       string `json:"sha256"`
}

func listFiles(t *testing.T, cwd string, args ...string) []fileItem {
	t.Helper()
	out, stderr, code := runFileCmd(t, cwd, false, append([]string{"file", "list", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("list: %d %s", code, stderr)
	}
	var items []fileItem
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	return items
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var (
	cliPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")
	cliPDF = []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
)

func TestFileCommands(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	writeFile(t, filepath.Join(cwd, "photo.png"), cliPNG)
	writeFile(t, filepath.Join(cwd, "paper.pdf"), cliPDF)
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "notes.txt"), []byte("some notes\n"))

	// Relative paths resolve against the caller's directory.
	out, stderr, code := runFileCmd(t, cwd, false, "file", "add", "photo.png", "paper.pdf", filepath.Join(other, "notes.txt"))
	if code != 0 {
		t.Fatalf("add: %d %s", code, stderr)
	}
	if !strings.Contains(out, "added file 1: photo.png") || !strings.Contains(out, "added file 3: notes.txt") {
		t.Fatalf("add output:\n%s", out)
	}
	all := listFiles(t, cwd)
	if len(all) != 3 || all[0].OriginalName != "notes.txt" || all[2].Type != "image" {
		t.Fatalf("list: %+v", all)
	}
	for _, c := range []struct{ typ, want string }{{"images", "photo.png"}, {"documents", "notes.txt,paper.pdf"}, {"video", ""}, {"other", ""}} {
		var names []string
		for _, f := range listFiles(t, cwd, "--type", c.typ) {
			names = append(names, f.OriginalName)
		}
		if strings.Join(names, ",") != c.want {
			t.Fatalf("--type %s: %v, want %s", c.typ, names, c.want)
		}
	}
	if _, stderr, code := runFileCmd(t, cwd, false, "file", "list", "--type", "movies"); code == 0 || !strings.Contains(stderr, "unknown --type") {
		t.Fatalf("bad --type: %d %s", code, stderr)
	}
	out, _, _ = runFileCmd(t, cwd, false, "file", "list")
	if !strings.Contains(out, "ID") || !strings.Contains(out, "photo.png") || !strings.Contains(out, "image") {
		t.Fatalf("human list:\n%s", out)
	}

	// get: to -o, to the original name, to stdout.
	dst := t.TempDir()
	if out, stderr, code := runFileCmd(t, dst, false, "file", "get", "1", "-o", "copy.png"); code != 0 || !strings.Contains(out, "sha256 ok") {
		t.Fatalf("get -o: %d %s %s", code, out, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "copy.png")); !bytes.Equal(b, cliPNG) {
		t.Fatal("get -o wrote different bytes")
	}
	if _, stderr, code := runFileCmd(t, dst, false, "file", "get", "2"); code != 0 {
		t.Fatalf("get to original name: %s", stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "paper.pdf")); !bytes.Equal(b, cliPDF) {
		t.Fatal("get wrote different bytes")
	}
	if _, stderr, code := runFileCmd(t, dst, false, "file", "get", "2"); code == 0 || !strings.Contains(stderr, "already exists") {
		t.Fatalf("get over an existing file: %d %s", code, stderr)
	}
	if out, _, code := runFileCmd(t, dst, false, "file", "get", "3", "-o", "-"); code != 0 || out != "some notes\n" {
		t.Fatalf("get -o -: %d %q", code, out)
	}

	// rm, then the file is gone everywhere.
	if out, stderr, code := runFileCmd(t, cwd, false, "file", "rm", "1"); code != 0 || !strings.Contains(out, "deleted file 1") {
		t.Fatalf("rm: %d %s %s", code, out, stderr)
	}
	if len(listFiles(t, cwd)) != 2 {
		t.Fatal("rm left the record")
	}
	for _, args := range [][]string{{"file", "get", "1"}, {"file", "rm", "1"}, {"file", "rm", "abc"}, {"file", "get", "0"}, {"file", "get", "../1"}} {
		if _, stderr, code := runFileCmd(t, cwd, false, args...); code == 0 || stderr == "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestFileAddAllOrNothing(t *testing.T) {
	ti := newTestInstance(t)
	cwd := t.TempDir()
	writeFile(t, filepath.Join(cwd, "a.txt"), []byte("a"))
	os.Mkdir(filepath.Join(cwd, "dir"), 0o755)
	for _, args := range [][]string{
		{"file", "add", "a.txt", "missing.txt"},
		{"file", "add", "a.txt", "dir"},
		{"file", "add"},
	} {
		if _, stderr, code := runFileCmd(t, cwd, false, args...); code == 0 || stderr == "" {
			t.Fatalf("%v: exit %d", args, code)
		}
	}
	if n := len(listFiles(t, cwd)); n != 0 {
		t.Fatalf("%d files kept after failed adds", n)
	}
	// Over the configured limit: refused, nothing kept.
	t.Setenv("DEVHUB_FILES_MAX_UPLOAD_BYTES", "10")
	writeFile(t, filepath.Join(cwd, "big.bin"), make([]byte, 11))
	if _, stderr, code := runFileCmd(t, cwd, false, "file", "add", "big.bin"); code == 0 || !strings.Contains(stderr, "max_upload_bytes") {
		t.Fatalf("over the limit: %d %s", code, stderr)
	}
	if n := len(listFiles(t, cwd)); n != 0 {
		t.Fatalf("%d files kept", n)
	}
	entries := fileCloudEntries(t, filepath.Join(filepath.Dir(ti.dataDir), "uploads"))
	if len(entries) != 0 {
		t.Fatalf("uploads dir holds %d entries", len(entries))
	}
}

func TestFileGetDetectsCorruption(t *testing.T) {
	ti := newTestInstance(t)
	cwd := t.TempDir()
	writeFile(t, filepath.Join(cwd, "a.txt"), []byte("original"))
	if _, stderr, code := runFileCmd(t, cwd, false, "file", "add", "a.txt"); code != 0 {
		t.Fatal(stderr)
	}
	uploads := filepath.Join(filepath.Dir(ti.dataDir), "uploads")
	entries := fileCloudEntries(t, uploads)
	if len(entries) != 1 {
		t.Fatalf("uploads dir holds %d entries, want the one file", len(entries))
	}
	writeFile(t, filepath.Join(uploads, entries[0].Name()), []byte("tampered")) // same size
	_, stderr, code := runFileCmd(t, cwd, false, "file", "get", "1", "-o", "out.txt")
	if code == 0 || !strings.Contains(stderr, "sha256 mismatch") {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(cwd, "out.txt")); err == nil {
		t.Fatal("corrupt bytes left under the target name")
	}
	if left, _ := filepath.Glob(filepath.Join(cwd, ".devhub-get-*")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

func TestFileProgressOnTerminal(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	big := make([]byte, progressMinBytes+1)
	rand.Read(big)
	writeFile(t, filepath.Join(cwd, "big.bin"), big)
	writeFile(t, filepath.Join(cwd, "small.txt"), []byte("small"))

	out, stderr, code := runFileCmd(t, cwd, true, "file", "add", "big.bin", "small.txt")
	if code != 0 {
		t.Fatal(stderr)
	}
	if !strings.Contains(out, "\rbig.bin") || !strings.Contains(out, "100%") || !strings.Contains(out, "MiB/s") {
		t.Fatalf("no progress bar on a terminal:\n%q", out)
	}
	if strings.Contains(out, "\rsmall.txt") {
		t.Fatal("progress bar for a small file")
	}
	// Not a terminal, or --json: no bar.
	out, _, _ = runFileCmd(t, cwd, false, "file", "add", "big.bin")
	if strings.Contains(out, "%") {
		t.Fatalf("progress bar without a terminal: %q", out)
	}
	out, _, _ = runFileCmd(t, cwd, true, "file", "add", "big.bin", "--json")
	var items []fileItem
	if err := json.Unmarshal([]byte(out), &items); err != nil || len(items) != 1 {
		t.Fatalf("--json output is not clean JSON: %v %q", err, out)
	}
	// get on a terminal shows one too, and the bytes are right.
	out, _, code = runFileCmd(t, cwd, true, "file", "get", "1", "-o", "back.bin")
	if code != 0 || !strings.Contains(out, "100%") {
		t.Fatalf("get progress: %d %q", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(cwd, "back.bin")); !bytes.Equal(b, big) {
		t.Fatal("get wrote different bytes")
	}
}

// TestFileCommandsThroughRunningServer runs the commands while a "server"
// holds the store: they must run inside it over the owner socket.
func TestFileCommandsThroughRunningServer(t *testing.T) {
	newTestInstance(t)
	_, svc, _ := runningServer(t)

	cwd := t.TempDir()
	writeFile(t, filepath.Join(cwd, "photo.png"), cliPNG)
	if _, stderr, code := runFileCmd(t, cwd, false, "file", "add", "photo.png"); code != 0 {
		t.Fatalf("add through the socket: %s", stderr)
	}
	// The server's own service sees it at once.
	g, err := svc.Files.Grouped()
	if err != nil || len(g.Images) != 1 || g.Images[0].OriginalName != "photo.png" {
		t.Fatalf("server does not see the file: %+v %v", g, err)
	}
	if out, _, code := runFileCmd(t, cwd, false, "file", "get", "1", "-o", "-"); code != 0 || out != string(cliPNG) {
		t.Fatalf("get through the socket: %d", code)
	}
	if _, stderr, code := runFileCmd(t, cwd, false, "file", "rm", "1"); code != 0 {
		t.Fatalf("rm through the socket: %s", stderr)
	}
	if all, _ := svc.Files.List(); len(all) != 0 {
		t.Fatal("rm through the socket did not delete")
	}
}

// TestServeStartupSweepsUploads checks the wiring: the once-per-serve
// start-up removes what interrupted uploads left, and nothing else.
func TestServeStartupSweepsUploads(t *testing.T) {
	newTestInstance(t)
	cfg, svc := openInstance(t)
	defer svc.Close()
	kept, err := svc.Files.Save(context.Background(), "kept.txt", strings.NewReader("kept"), cliUploader)
	if err != nil {
		t.Fatal(err)
	}
	dir := cfg.Storage.UploadsDir
	writeFile(t, filepath.Join(dir, ".upload-deadbeef.tmp"), []byte("partial"))
	writeFile(t, filepath.Join(dir, strings.Repeat("0f", 16)), []byte("orphan"))
	// A save state's PUT killed mid-body leaves its temp file beside the slot.
	stateTemp := filepath.Join(cfg.Storage.DataDir, "gamestates", "1", "1", ".put-123")
	if err := os.MkdirAll(filepath.Dir(stateTemp), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, stateTemp, []byte("partial state"))
	if err := svc.startup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stateTemp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the save state's temp file survived start-up: %v", err)
	}
	entries := fileCloudEntries(t, dir)
	if len(entries) != 1 || entries[0].Name() != kept.StoredName {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("after start-up: %v", names)
	}
}

func TestProgressLabelKeepsWholeCharacters(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, strings.Repeat("звіт", 10)+".pdf", 10)
	p.add(10)
	p.done(true)
	if !utf8.ValidString(out.String()) {
		t.Fatalf("progress line is not valid UTF-8: %q", out.String())
	}
	if !strings.Contains(out.String(), strings.Repeat("звіт", 6)+"зві...") {
		t.Fatalf("label not cut to 27 characters: %q", out.String())
	}
}

// TestFileCommandsFailFastOnLockedStore: while a process that does not
// answer on the owner socket holds the store, every file command says so
// within seconds instead of hanging.
func TestFileCommandsFailFastOnLockedStore(t *testing.T) {
	ti := newTestInstance(t)
	storetest.OpenPath(t, filepath.Join(ti.dataDir, "devhub.db")) // held until the test ends
	cwd := t.TempDir()
	writeFile(t, filepath.Join(cwd, "a.txt"), []byte("a"))
	for _, args := range [][]string{{"file", "list"}, {"file", "add", "a.txt"}, {"file", "get", "1"}, {"file", "rm", "1"}} {
		start := time.Now()
		_, stderr, code := runFileCmd(t, cwd, false, args...)
		if code == 0 || !strings.Contains(stderr, "in use") {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%v took %s", args, d)
		}
	}
	if entries := fileCloudEntries(t, filepath.Join(filepath.Dir(ti.dataDir), "uploads")); len(entries) != 0 {
		t.Fatalf("uploads dir holds %d entries", len(entries))
	}
}

// fileCloudEntries lists the file cloud's own entries of an uploads
// directory: the download sections keep their files in its downloads/
// folder, which is theirs.
func fileCloudEntries(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []os.DirEntry
	for _, e := range entries {
		if !(e.IsDir() && e.Name() == "downloads") {
			out = append(out, e)
		}
	}
	return out
}
