package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// BenchmarkRomservGames20k measures whole HTTP answers of the games list and search over a
// console of 20 000 ROMs (budget: 5 ms at the median), through the app's handler.
func BenchmarkRomservGames20k(b *testing.B) {
	root := filepath.Join(b.TempDir(), "roms")
	dir := filepath.Join(root, "nes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	words := []string{"Super", "Mega", "Марио", "Танки", "Quest", "Fighter", "Racer", "Ігри"}
	for i := 0; i < 20000; i++ {
		name := fmt.Sprintf("%s %s %05d.nes", words[i%len(words)], words[(i/8)%len(words)], i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte{1}, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	st := storetest.Open(b)
	svc, err := roms.New(st, root)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.Scan(context.Background()); err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	cfg.Storage.RomsDir = root
	// A request log line per call would drown the figures.
	app, err := New(Options{Config: cfg, Services: withRequired(b, &Services{Roms: svc}), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, target string }{
		{"list-page-1", "/romserv/consoles/nes/games"},
		{"list-page-150", "/romserv/consoles/nes/games?page=150"},
		{"search-cyrillic", "/romserv/consoles/nes/games?search=" + url.QueryEscape("марио танки")},
		{"search-latin-paged", "/romserv/consoles/nes/games?search=mega&page=3"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				resp, err := app.Test(httptest.NewRequest(http.MethodGet, c.target, nil), fiber.TestConfig{Timeout: 0})
				if err != nil || resp.StatusCode != 200 {
					b.Fatalf("%v %v", resp, err)
				}
				resp.Body.Close()
			}
		})
	}
}
