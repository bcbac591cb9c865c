package main

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oschwald/maxminddb-golang/v2"
)

func TestConvert(t *testing.T) {
	dir := t.TempDir()
	v4 := filepath.Join(dir, "v4.csv")
	v6 := filepath.Join(dir, "v6.csv")
	os.WriteFile(v4, []byte("1.0.0.0,1.0.0.255,13335,\"Cloudflare, Inc.\"\n1.0.4.0,1.0.7.255,38803,Gtelecom Pty Ltd\n"), 0o600)
	os.WriteFile(v6, []byte("2001:200::,2001:200:1b9:ffff:ffff:ffff:ffff:ffff,2500,WIDE Project\n"), 0o600)
	out := filepath.Join(dir, "asn.mmdb")
	if err := run(out, []string{v4, v6}); err != nil {
		t.Fatal(err)
	}
	db, err := maxminddb.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Metadata.DatabaseType != "GeoLite2-ASN" {
		t.Fatalf("type %q", db.Metadata.DatabaseType)
	}
	tests := []struct {
		ip    string
		asn   uint
		org   string
		found bool
	}{
		{"1.0.0.1", 13335, "Cloudflare, Inc.", true},
		{"1.0.6.200", 38803, "Gtelecom Pty Ltd", true},
		{"2001:200:1b9::1", 2500, "WIDE Project", true},
		{"1.0.8.1", 0, "", false},
	}
	for _, tc := range tests {
		var rec struct {
			ASN uint   `maxminddb:"autonomous_system_number"`
			Org string `maxminddb:"autonomous_system_organization"`
		}
		res := db.Lookup(netip.MustParseAddr(tc.ip))
		if err := res.Decode(&rec); err != nil {
			t.Fatal(err)
		}
		if res.Found() != tc.found || rec.ASN != tc.asn || rec.Org != tc.org {
			t.Errorf("%s: found %v, %+v", tc.ip, res.Found(), rec)
		}
	}
}

func TestRefusesBadLines(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("1.0.0.0,1.0.0.255,13335,A\nnot-an-ip,1.0.0.9,1,B\n"), 0o600)
	out := filepath.Join(dir, "asn.mmdb")
	err := run(out, []string{bad})
	if err == nil || !strings.Contains(err.Error(), "bad.csv:2") {
		t.Fatalf("err = %v", err)
	}
	if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
		t.Fatal("a database was written from a bad file")
	}
}
