package cli

import (
	"archive/tar"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/backup"
	"github.com/devhub/devhub/pkg/mail/smtptest"
	"github.com/devhub/devhub/pkg/store"
)

// archiveNames lists the entries of a backup file.
func archiveNames(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}

func TestBackupToAFileWithAndWithoutServer(t *testing.T) {
	for _, running := range []bool{false, true} {
		name := map[bool]string{false: "no server", true: "through the running server"}[running]
		t.Run(name, func(t *testing.T) {
			ti := newTestInstance(t)
			up := filepath.Join(filepath.Dir(ti.dataDir), "uploads")
			os.MkdirAll(up, 0o700)
			os.WriteFile(filepath.Join(up, "stored.bin"), []byte("bytes"), 0o600)
			if running {
				runningServer(t)
			}
			dst := filepath.Join(t.TempDir(), "site.tar")
			out, errOut, code := ti.run("", "backup", dst)
			if code != 0 || !strings.Contains(out, dst) {
				t.Fatalf("exit %d: %s%s", code, out, errOut)
			}
			names := archiveNames(t, dst)
			if len(names) != 3 || names[0] != backup.StoreEntry || names[1] != "uploads/stored.bin" || names[2] != backup.ManifestEntry {
				t.Fatalf("entries %v", names)
			}
			if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o600 {
				t.Fatalf("mode %v", fi.Mode())
			}
		})
	}
}

func TestBackupCommandsRefuseBadInput(t *testing.T) {
	ti := newTestInstance(t)
	dest := t.TempDir()
	notTar := filepath.Join(t.TempDir(), "not.tar")
	os.WriteFile(notTar, []byte("plain text, not a backup"), 0o600)
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		wantErr string
	}{
		{"no destination", nil, []string{"backup"}, "no backup destination"},
		{"file and --to", nil, []string{"backup", "x.tar", "--to", dest}, "not both"},
		{"s3 with a path", nil, []string{"backup", "--to", "s3://bucket/dir"}, "want s3://BUCKET"},
		{"two files", nil, []string{"backup", "a.tar", "b.tar"}, "accepts at most 1 arg"},
		{"list without destination", nil, []string{"backup", "list"}, "no backup destination"},
		{"restore nothing", nil, []string{"restore"}, "accepts 1 arg"},
		{"restore a missing file", nil, []string{"restore", "/nonexistent/site.tar"}, "open backup"},
		{"restore latest of an empty destination", nil, []string{"restore", "latest", "--from", dest}, "no backup in the destination"},
		{"restore a missing name", nil, []string{"restore", "devhub-backup-20260101T000000.000Z.tar", "--from", dest}, "no backup named"},
		{"restore not a backup", nil, []string{"restore", notTar}, "backup"},
		{"schedule without destination", map[string]string{"DEVHUB_BACKUP_SCHEDULE": "6h"}, []string{"backup", "list"}, "backup.schedule needs backup.to"},
		{"bad schedule", map[string]string{"DEVHUB_BACKUP_SCHEDULE": "sometimes", "DEVHUB_BACKUP_TO": dest}, []string{"backup", "list"}, "neither an interval"},
		{"too short an interval", map[string]string{"DEVHUB_BACKUP_SCHEDULE": "5s", "DEVHUB_BACKUP_TO": dest}, []string{"backup", "list"}, "at least 1m"},
		{"negative keep", map[string]string{"DEVHUB_BACKUP_KEEP": "-1"}, []string{"backup", "list"}, "backup.keep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, errOut, code := ti.run("", tc.args...)
			if code == 0 || !strings.Contains(errOut, tc.wantErr) {
				t.Fatalf("exit %d, stderr %q; want %q", code, errOut, tc.wantErr)
			}
		})
	}
}

func TestBackupKeepsTheNewestAndRestoresByName(t *testing.T) {
	ti := newTestInstance(t)
	dest := t.TempDir()
	t.Setenv("DEVHUB_BACKUP_TO", dest)
	t.Setenv("DEVHUB_BACKUP_KEEP", "2")
	st, err := store.Open(filepath.Join(ti.dataDir, "devhub.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	seed(t, st, "k", "first")
	st.Close()

	var names []string
	for i := 0; i < 3; i++ {
		out, errOut, code := ti.run("", "backup")
		if code != 0 {
			t.Fatalf("backup %d: %s", i, errOut)
		}
		names = append(names, strings.Fields(out)[1])
		time.Sleep(2 * time.Millisecond) // names are to the millisecond
	}
	out, _, code := ti.run("", "backup", "list", "--json")
	var list []backup.Info
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("list: %s", out)
	}
	if len(list) != 2 || list[0].Name != names[2] || list[1].Name != names[1] || list[0].Size == 0 {
		t.Fatalf("list %+v, want the newest two of %v", list, names)
	}

	// A later change, then the second backup by name brings "first" back.
	st, _ = store.Open(filepath.Join(ti.dataDir, "devhub.db"), time.Second)
	seed(t, st, "k", "changed")
	st.Close()
	out, errOut, code := ti.run("", "restore", names[1])
	if code != 0 || !strings.Contains(out, "restored "+names[1]) {
		t.Fatalf("restore: exit %d %s%s", code, out, errOut)
	}
	if got := readMarker(t, filepath.Join(ti.dataDir, "devhub.db"), "k"); got != "first" {
		t.Fatalf("store holds %q", got)
	}
}

func TestRestoreRefusesWhileTheServerRuns(t *testing.T) {
	ti := newTestInstance(t)
	dst := filepath.Join(t.TempDir(), "site.tar")
	if _, errOut, code := ti.run("", "backup", dst); code != 0 {
		t.Fatal(errOut)
	}
	runningServer(t)
	_, errOut, code := ti.run("", "restore", dst)
	if code == 0 || !strings.Contains(errOut, "stop it before restoring") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestRestoreRefusesAStoreHeldByAnotherProcess(t *testing.T) {
	ti := newTestInstance(t)
	dst := filepath.Join(t.TempDir(), "site.tar")
	if _, errOut, code := ti.run("", "backup", dst); code != 0 {
		t.Fatal(errOut)
	}
	st, err := store.Open(filepath.Join(ti.dataDir, "devhub.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, errOut, code := ti.run("", "restore", dst)
	if code == 0 || !strings.Contains(errOut, "in use by another process") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestMailTest(t *testing.T) {
	ti := newTestInstance(t)
	srv := smtptest.Start(t)
	mailOn := map[string]string{"DEVHUB_MAIL_HOST": srv.Host, "DEVHUB_MAIL_PORT": strconv.Itoa(srv.Port), "DEVHUB_MAIL_SECURITY": "none",
		"DEVHUB_MAIL_FROM": "devhub <noreply@devhub.test>"}
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		down     bool
		wantOut  string
		wantErr  string
		wantMail bool
	}{
		{name: "sent", env: mailOn, args: []string{"mail", "test", "me@example.org", "--lang", "en"}, wantOut: "test message sent to me@example.org", wantMail: true},
		{name: "mail off", args: []string{"mail", "test", "me@example.org"}, wantErr: "mail is off"},
		{name: "no address", env: mailOn, args: []string{"mail", "test"}, wantErr: "accepts 1 arg"},
		{name: "bad address", env: mailOn, args: []string{"mail", "test", "not an address"}, wantErr: "not sent"},
		{name: "server refuses", env: mailOn, down: true, args: []string{"mail", "test", "me@example.org"}, wantErr: "not sent"},
		{name: "bad security", env: map[string]string{"DEVHUB_MAIL_HOST": "127.0.0.1", "DEVHUB_MAIL_SECURITY": "ssl", "DEVHUB_MAIL_FROM": "a@b.c"},
			args: []string{"mail", "test", "me@example.org"}, wantErr: "mail.security must be none, starttls or tls"},
		{name: "bad from", env: map[string]string{"DEVHUB_MAIL_HOST": "127.0.0.1", "DEVHUB_MAIL_FROM": "nobody"},
			args: []string{"mail", "test", "me@example.org"}, wantErr: "mail.from"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			srv.SetDown(tc.down)
			before := len(srv.Messages())
			out, errOut, code := ti.run("", tc.args...)
			if tc.wantErr != "" {
				if code == 0 || !strings.Contains(errOut, tc.wantErr) {
					t.Fatalf("exit %d, stderr %q; want %q", code, errOut, tc.wantErr)
				}
			} else if code != 0 || !strings.Contains(out, tc.wantOut) {
				t.Fatalf("exit %d: %s%s", code, out, errOut)
			}
			if got := len(srv.Messages()) - before; got != map[bool]int{false: 0, true: 1}[tc.wantMail] {
				t.Fatalf("%d messages received", got)
			}
		})
	}
}
