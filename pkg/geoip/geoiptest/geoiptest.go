// Package geoiptest writes tiny MaxMind-format databases for tests, so the
// geo lookup path is tested against real mmdb files without shipping one.
// Only tests import it (it pulls in mmdbwriter, which the binary never needs).
package geoiptest

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// Record is one database record: string, float64, uint32, []any and
// map[string]any values, as the layouts in pkg/geoip expect.
type Record map[string]any

// Write builds an IPv6 database (IPv4 networks are aliased into it, as in
// the real ones) holding records by CIDR and returns its path in a temp dir.
// Reserved networks are allowed so tests can prove they are never looked up.
func Write(tb testing.TB, records map[string]Record) string {
	tb.Helper()
	w, err := mmdbwriter.New(mmdbwriter.Options{
		DatabaseType:            "devhub-test",
		IncludeReservedNetworks: true,
		RecordSize:              24,
	})
	if err != nil {
		tb.Fatal(err)
	}
	for cidr, rec := range records {
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			tb.Fatalf("geoiptest: %s: %v", cidr, err)
		}
		if err := w.Insert(n, toMMDB(tb, map[string]any(rec))); err != nil {
			tb.Fatalf("geoiptest: insert %s: %v", cidr, err)
		}
	}
	path := filepath.Join(tb.TempDir(), "test.mmdb")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := w.WriteTo(f); err != nil {
		tb.Fatal(err)
	}
	return path
}

func toMMDB(tb testing.TB, v any) mmdbtype.DataType {
	switch x := v.(type) {
	case string:
		return mmdbtype.String(x)
	case float64:
		return mmdbtype.Float64(x)
	case uint32:
		return mmdbtype.Uint32(x)
	case int:
		return mmdbtype.Uint32(uint32(x))
	case []any:
		s := make(mmdbtype.Slice, len(x))
		for i, e := range x {
			s[i] = toMMDB(tb, e)
		}
		return s
	case map[string]any:
		m := mmdbtype.Map{}
		for k, e := range x {
			m[mmdbtype.String(k)] = toMMDB(tb, e)
		}
		return m
	case Record:
		return toMMDB(tb, map[string]any(x))
	default:
		tb.Fatalf("geoiptest: unsupported value %T", v)
		return nil
	}
}
