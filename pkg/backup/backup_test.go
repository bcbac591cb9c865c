package backup

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// site is a data layout of one instance in a temp dir.
type site struct {
	db    string
	trees []Tree
}

func newSite(t *testing.T) site {
	t.Helper()
	dir := t.TempDir()
	return site{db: filepath.Join(dir, "data", "devhub.db"), trees: []Tree{
		{Name: "uploads", Dir: filepath.Join(dir, "uploads")},
		{Name: "roms", Dir: filepath.Join(dir, "roms")},
		{Name: "gamestates", Dir: filepath.Join(dir, "data", "gamestates")},
	}}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree returns every regular file under root by slash path.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(raw)
		return nil
	})
	return out
}

func putMarker(t *testing.T, st *store.Store, v string) {
	t.Helper()
	if err := st.EnsureBuckets("t"); err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("t")).Put([]byte("k"), []byte(v)) }); err != nil {
		t.Fatal(err)
	}
}

func marker(t *testing.T, path string) string {
	t.Helper()
	st, err := store.Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v string
	st.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("t")); b != nil {
			v = string(b.Get([]byte("k")))
		}
		return nil
	})
	return v
}

// backupOf seeds a site (store marker, files) and returns its archive.
func backupOf(t *testing.T, s site, value string, files map[string]map[string]string) []byte {
	t.Helper()
	st, err := store.Open(s.db, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	putMarker(t, st, value)
	for _, tr := range s.trees {
		writeFiles(t, tr.Dir, files[tr.Name])
	}
	var buf bytes.Buffer
	if _, err := Write(context.Background(), &buf, Source{Store: st, Trees: s.trees, Storage: "local"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRestoreBringsBackStoreAndFilesAndDropsLaterOnes(t *testing.T) {
	s := newSite(t)
	want := map[string]map[string]string{
		"uploads":    {"a1b2c3.bin": "upload bytes", ".upload-x.tmp": "half written"},
		"roms":       {"nes/game.nes": "NES\x1a rom", "nes/.hidden": "no"},
		"gamestates": {"7/12/1.state": "state"},
	}
	archive := backupOf(t, s, "before", want)

	// Everything changes after the backup.
	st, err := store.Open(s.db, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	putMarker(t, st, "after")
	st.Close()
	writeFiles(t, s.trees[0].Dir, map[string]string{"a1b2c3.bin": "overwritten", "new.bin": "later upload"})
	os.RemoveAll(s.trees[2].Dir)

	m, err := Restore(context.Background(), bytes.NewReader(archive), s.db, s.trees)
	if err != nil {
		t.Fatal(err)
	}
	if m.SchemaVersion != store.SchemaVersion || len(m.Entries) != 4 {
		t.Fatalf("manifest: schema %d, %d entries: %+v", m.SchemaVersion, len(m.Entries), m.Entries)
	}
	if got := marker(t, s.db); got != "before" {
		t.Fatalf("store holds %q, want the backup's", got)
	}
	for _, tr := range s.trees {
		got := readTree(t, tr.Dir)
		wantFiles := map[string]string{}
		for k, v := range want[tr.Name] {
			if !strings.HasPrefix(filepath.Base(k), ".") {
				wantFiles[k] = v
			}
		}
		if len(got) != len(wantFiles) {
			t.Fatalf("%s: got %v, want %v", tr.Name, got, wantFiles)
		}
		for k, v := range wantFiles {
			if got[k] != v {
				t.Fatalf("%s/%s = %q, want %q", tr.Name, k, got[k], v)
			}
		}
	}
	// Nothing of the staging or the aside copies is left.
	for _, dir := range []string{filepath.Dir(s.db), filepath.Dir(s.trees[0].Dir)} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), "restore") {
				t.Fatalf("left behind: %s", filepath.Join(dir, e.Name()))
			}
		}
	}
}

// rewrite passes an archive through edit, entry by entry.
func rewrite(t *testing.T, archive []byte, edit func(h *tar.Header, body []byte) (*tar.Header, []byte)) []byte {
	t.Helper()
	tr := tar.NewReader(bytes.NewReader(archive))
	var out bytes.Buffer
	tw := tar.NewWriter(&out)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		h, body = edit(h, body)
		if h == nil {
			continue
		}
		h.Size = int64(len(body))
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	tw.Close()
	return out.Bytes()
}

func TestRestoreRefusesBadBackupsAndChangesNothing(t *testing.T) {
	files := map[string]map[string]string{"uploads": {"f.bin": "original bytes"}}
	editManifest := func(f func(m *Manifest)) func(h *tar.Header, body []byte) (*tar.Header, []byte) {
		return func(h *tar.Header, body []byte) (*tar.Header, []byte) {
			if h.Name != ManifestEntry {
				return h, body
			}
			var m Manifest
			json.Unmarshal(body, &m)
			f(&m)
			raw, _ := json.Marshal(m)
			return h, raw
		}
	}
	tests := []struct {
		name string
		edit func(h *tar.Header, body []byte) (*tar.Header, []byte)
		cut  bool
		want string
	}{
		{name: "a file's bytes changed", want: "does not match its checksum", edit: func(h *tar.Header, body []byte) (*tar.Header, []byte) {
			if h.Name == "uploads/f.bin" {
				return h, []byte("tampered bytes")
			}
			return h, body
		}},
		{name: "a file missing", want: "missing from the backup", edit: func(h *tar.Header, body []byte) (*tar.Header, []byte) {
			if h.Name == "uploads/f.bin" {
				return nil, nil
			}
			return h, body
		}},
		{name: "no manifest", want: "no manifest", edit: func(h *tar.Header, body []byte) (*tar.Header, []byte) {
			if h.Name == ManifestEntry {
				return nil, nil
			}
			return h, body
		}},
		{name: "newer schema", want: "newer than this binary", edit: editManifest(func(m *Manifest) { m.SchemaVersion = store.SchemaVersion + 1 })},
		{name: "other format", want: "not a devhub backup", edit: editManifest(func(m *Manifest) { m.Format = "zip" })},
		{name: "path leaving its directory", want: "unsafe or unknown path", edit: func(h *tar.Header, body []byte) (*tar.Header, []byte) {
			if h.Name == "uploads/f.bin" {
				h.Name = "uploads/../../escape"
			}
			return h, body
		}},
		{name: "unknown area", want: "no directory for", edit: func(h *tar.Header, body []byte) (*tar.Header, []byte) {
			if h.Name == "uploads/f.bin" {
				h.Name = "etc/passwd"
			}
			return h, body
		}},
		{name: "cut short", cut: true, want: "cut short"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t)
			archive := backupOf(t, s, "live", files)
			if tc.edit != nil {
				archive = rewrite(t, archive, tc.edit)
			}
			if tc.cut {
				archive = archive[:len(archive)/2]
			}
			_, err := Restore(context.Background(), bytes.NewReader(archive), s.db, s.trees)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if got := marker(t, s.db); got != "live" {
				t.Fatalf("store changed to %q", got)
			}
			if got := readTree(t, s.trees[0].Dir); got["f.bin"] != "original bytes" || len(got) != 1 {
				t.Fatalf("uploads changed: %v", got)
			}
			entries, _ := os.ReadDir(filepath.Dir(s.trees[0].Dir))
			for _, e := range entries {
				if strings.Contains(e.Name(), "restore") {
					t.Fatalf("staging left behind: %s", e.Name())
				}
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(s.trees[0].Dir), "escape")); err == nil {
				t.Fatal("a file was written outside the site")
			}
		})
	}
}

func TestStoreOfNewerSchemaIsRefusedEvenWithAnOldManifest(t *testing.T) {
	s := newSite(t)
	st, err := store.Open(s.db, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	st.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), store.Itob(store.SchemaVersion+1))
	})
	var buf bytes.Buffer
	if _, err := Write(context.Background(), &buf, Source{Store: st, Trees: s.trees}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	archive := rewrite(t, buf.Bytes(), func(h *tar.Header, body []byte) (*tar.Header, []byte) {
		if h.Name == ManifestEntry {
			var m Manifest
			json.Unmarshal(body, &m)
			m.SchemaVersion = store.SchemaVersion
			body, _ = json.Marshal(m)
		}
		return h, body
	})
	other := newSite(t)
	if _, err := Restore(context.Background(), bytes.NewReader(archive), other.db, other.trees); err == nil ||
		!strings.Contains(err.Error(), "newer than this binary") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(other.db); err == nil {
		t.Fatal("a store was put in place")
	}
}

func TestParseSchedule(t *testing.T) {
	from := time.Date(2026, 1, 2, 10, 30, 0, 0, time.Local)
	tests := []struct {
		in      string
		next    time.Time
		wantErr string
	}{
		{in: "", next: time.Time{}},
		{in: "off", next: time.Time{}},
		{in: "6h", next: from.Add(6 * time.Hour)},
		{in: "@every 2h", next: from.Add(2 * time.Hour)},
		{in: "0 3 * * *", next: time.Date(2026, 1, 3, 3, 0, 0, 0, time.Local)},
		{in: "@daily", next: time.Date(2026, 1, 3, 0, 0, 0, 0, time.Local)},
		{in: "10s", wantErr: "at least"},
		{in: "every day", wantErr: "neither an interval"},
		{in: "61 * * * *", wantErr: "neither an interval"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			s, err := ParseSchedule(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.next.IsZero() {
				if s != nil {
					t.Fatal("want no schedule")
				}
				return
			}
			if got := s.Next(from); !got.Equal(tc.next) {
				t.Fatalf("next = %s, want %s", got, tc.next)
			}
		})
	}
}

func TestSchedulerReportsAFailureUntilABackupSucceeds(t *testing.T) {
	fail := true
	var told []error
	s := NewScheduler(nil, func(context.Context) error {
		if fail {
			return os.ErrPermission
		}
		return nil
	}, nil)
	s.OnFailure = func(_ context.Context, _ time.Time, err error) { told = append(told, err) }
	if s.Health() != nil || s.Failures() != 0 {
		t.Fatal("a scheduler that has not run is healthy")
	}
	s.RunOnce(context.Background())
	if err := s.Health(); err == nil || !strings.Contains(err.Error(), "last scheduled backup failed") {
		t.Fatalf("health = %v", err)
	}
	if s.Failures() != 1 || len(told) != 1 || !s.LastSuccess().IsZero() {
		t.Fatalf("failures %d, told %v", s.Failures(), told)
	}
	fail = false
	s.RunOnce(context.Background())
	if s.Health() != nil || s.Failures() != 1 || s.LastSuccess().IsZero() {
		t.Fatalf("after a success: health %v, failures %d", s.Health(), s.Failures())
	}
	var none *Scheduler
	if none.Health() != nil || none.Failures() != 0 {
		t.Fatal("no schedule is healthy")
	}
}
