package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/mail/smtptest"
)

// A scheduled backup that fails is reported by the scheduler's health,
// counted, and mailed to every admin (and to no one else).
func TestFailedScheduledBackupIsMailedToAdmins(t *testing.T) {
	newTestInstance(t)
	srv := smtptest.Start(t)
	blocker := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(blocker, []byte("not a directory"), 0o600)
	for k, v := range map[string]string{
		"DEVHUB_MAIL_HOST": srv.Host, "DEVHUB_MAIL_PORT": strconv.Itoa(srv.Port), "DEVHUB_MAIL_SECURITY": "none",
		"DEVHUB_MAIL_FROM": "devhub <noreply@devhub.test>", "DEVHUB_SERVER_PUBLIC_URL": "https://devhub.test",
		"DEVHUB_BACKUP_SCHEDULE": "@daily", "DEVHUB_BACKUP_TO": filepath.Join(blocker, "backups"),
	} {
		t.Setenv(k, v)
	}
	_, svc := openInstance(t)
	defer svc.Close()
	for _, u := range []auth.NewUser{
		{Email: "admin@example.org", Name: "Admin", Password: "admin password 1", Role: auth.RoleAdmin},
		{Email: "user@example.org", Name: "User", Password: "user password 1"},
	} {
		if _, err := svc.Auth.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := svc.startBackupMail(ctx); err != nil {
		t.Fatal(err)
	}
	if svc.Backups == nil || svc.Backups.Health() != nil {
		t.Fatal("the schedule is not on, or unhealthy before running")
	}
	svc.Backups.RunOnce(ctx)
	if err := svc.Backups.Health(); err == nil || strings.Contains(err.Error(), blocker) {
		t.Fatalf("health %v: want a failure that names no path", err)
	}
	if svc.Backups.Failures() != 1 {
		t.Fatalf("failures %d", svc.Backups.Failures())
	}
	got := srv.Wait(t, 1, 10*time.Second)
	text, _, err := got[0].Parts()
	if err != nil {
		t.Fatal(err)
	}
	if got[0].To[0] != "admin@example.org" || !strings.Contains(text, "Заплановане резервне копіювання") {
		t.Fatalf("mail to %v:\n%s", got[0].To, text)
	}
	cancel()
	if n := len(srv.Messages()); n != 1 {
		t.Fatalf("%d mails, want one (the admin's)", n)
	}
}
