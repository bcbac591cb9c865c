package server

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/activity"
	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/chat"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/gamecontrols"
	"github.com/devhub/devhub/pkg/gameshelf"
	"github.com/devhub/devhub/pkg/gamestates"
	"github.com/devhub/devhub/pkg/geoip"
	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// withRequired gives svc every required service it lacks (Services.check),
// on the test's own store when it has one, else on a temp store: a test
// sets up the services its area is about and leaves the rest to this.
// Filled-in services keep nothing outside the test's temp directories and
// limit nothing (no quota, no free-space reserve).
func withRequired(t testing.TB, svc *Services) *Services {
	t.Helper()
	if svc == nil {
		svc = &Services{}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Default()
	dir := t.TempDir()
	log := slog.New(slog.DiscardHandler)
	if svc.Store == nil {
		svc.Store = storetest.Open(t)
	}
	st := svc.Store
	var err error
	if svc.Reserve == nil {
		svc.Reserve = freespace.New(0, dir)
	}
	if svc.Roms == nil {
		svc.Roms, err = roms.New(st, filepath.Join(dir, "roms"))
		must(err)
	}
	if svc.Auth == nil {
		svc.Auth, err = auth.New(st, cfg.Auth)
		must(err)
	}
	if svc.Activity == nil {
		svc.Activity, err = activity.New(st, activity.Options{})
		must(err)
	}
	if svc.GeoIP == nil {
		svc.GeoIP = &geoip.Set{}
	}
	if svc.Files == nil {
		f, err := files.New(st, filepath.Join(dir, "uploads"), cfg.Files.MaxUploadBytes, log)
		must(err)
		t.Cleanup(func() { f.Close() })
		svc.Files = f
	}
	if svc.TusDir == "" {
		svc.TusDir = filepath.Join(dir, "tus")
	}
	if svc.Quota == nil {
		svc.Quota, err = quota.New(st, quota.Amount{}, func(uint64) bool { return false })
		must(err)
	}
	if svc.Shares == nil {
		svc.Shares, err = shares.New(st, svc.Auth, nil)
		must(err)
	}
	if svc.Blog == nil {
		svc.Blog, err = blog.New(st)
		must(err)
	}
	if svc.Audit == nil {
		svc.Audit, err = audit.New(st, 0, nil)
		must(err)
	}
	if svc.GameStates == nil {
		svc.GameStates, err = gamestates.New(filepath.Join(dir, "gamestates"), cfg.Emulator.MaxStateBytes)
		must(err)
	}
	if svc.Shelf == nil {
		svc.Shelf, err = gameshelf.New(st)
		must(err)
	}
	if svc.Controls == nil {
		svc.Controls, err = gamecontrols.New(st)
		must(err)
	}
	if svc.Discuss == nil {
		svc.Discuss, err = discuss.New(st, discuss.Options{})
		must(err)
	}
	if svc.Events == nil {
		svc.Events = events.NewHub(eventsOptions(cfg.Events, log))
	}
	if svc.Notify == nil {
		svc.Notify, err = notify.New(st, svc.Events)
		must(err)
	}
	if svc.Chat == nil {
		svc.Chat, err = chat.New(st, chat.Options{})
		must(err)
	}
	if svc.Downloads == nil {
		local, err := storage.NewLocal(filepath.Join(dir, "downloads"), downloads.IsKey)
		must(err)
		t.Cleanup(func() { local.Close() })
		svc.Downloads, err = downloads.New(st, local, log)
		must(err)
	}
	if svc.Social == nil {
		svc.Social, err = social.New(st, social.Options{})
		must(err)
	}
	if svc.Newsletter == nil {
		svc.Newsletter, err = newsletter.New(st)
		must(err)
	}
	return svc
}

// eventsOptions are an events hub's options from the configuration, as
// serve builds its hub.
func eventsOptions(cfg config.Events, log *slog.Logger) events.Options {
	return events.Options{Buffer: cfg.Buffer, MaxStreamsPerUser: cfg.MaxStreamsPerUser, MaxStreams: cfg.MaxStreams, Log: log}
}

// New refuses Services without a required service, naming what is
// missing, and takes them once they are all there.
func TestNewNeedsRequiredServices(t *testing.T) {
	tests := []struct {
		name    string
		svc     func(t *testing.T) *Services
		wantErr string
	}{
		{"none", func(*testing.T) *Services { return nil }, "no services"},
		{"empty", func(*testing.T) *Services { return &Services{} }, "required services missing: Store, Roms, Auth"},
		{"without the file cloud", func(t *testing.T) *Services {
			svc := withRequired(t, nil)
			svc.Files = nil
			return svc
		}, "required services missing: Files"},
		{"without the mail queue (optional)", func(t *testing.T) *Services { return withRequired(t, nil) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Options{Config: config.Default(), Services: tt.svc(t), Logger: slog.New(slog.DiscardHandler)})
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("New: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("New: %v, want %q", err, tt.wantErr)
			}
		})
	}
}
