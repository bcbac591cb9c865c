package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func validBase(t *testing.T) Config {
	c := Default()
	dir := t.TempDir()
	c.Storage.DataDir = filepath.Join(dir, "data")
	c.Storage.UploadsDir = filepath.Join(dir, "uploads")
	c.Storage.RomsDir = filepath.Join(dir, "roms")
	c.Storage.ContentDir = filepath.Join(dir, "content")
	return c
}

func TestValidate(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, []byte("x"), 0o600)
	tests := []struct {
		name    string
		mutate  func(*Config)
		wantErr string
	}{
		{"defaults are valid", func(*Config) {}, ""},
		{"empty addr", func(c *Config) { c.Server.Addr = "" }, "server.addr"},
		{"addr without port", func(c *Config) { c.Server.Addr = "localhost" }, "server.addr"},
		{"relative public url", func(c *Config) { c.Server.PublicURL = "dev.example.com" }, "server.public_url"},
		{"ftp public url", func(c *Config) { c.Server.PublicURL = "ftp://x" }, "server.public_url"},
		{"proxy CIDR ok", func(c *Config) { c.Server.TrustedProxies = []string{"10.0.0.0/8", "::1"} }, ""},
		{"bad proxy", func(c *Config) { c.Server.TrustedProxies = []string{"nope"} }, "server.trusted_proxies"},
		{"zero read timeout", func(c *Config) { c.Server.ReadTimeout = 0 }, "server.read_timeout"},
		{"short access ttl", func(c *Config) { c.Auth.AccessTTL = time.Second }, "auth.access_ttl"},
		{"refresh shorter than access", func(c *Config) { c.Auth.RefreshTTL = time.Minute; c.Auth.AccessTTL = time.Hour }, "auth.refresh_ttl"},
		{"short secret", func(c *Config) { c.Auth.JWTSecret = "abc" }, "auth.jwt_secret"},
		{"zero upload limit", func(c *Config) { c.Files.MaxUploadBytes = 0 }, "files.max_upload_bytes"},
		{"zero parts per request", func(c *Config) { c.Files.MaxPartsPerRequest = 0 }, "files.max_parts_per_request"},
		{"zero upload rate", func(c *Config) { c.Files.UploadsPerMinute = 0 }, "files.uploads_per_minute"},
		{"zero concurrent uploads", func(c *Config) { c.Files.MaxConcurrentUploads = 0 }, "files.max_concurrent_uploads"},
		{"zero concurrent uploads per user", func(c *Config) { c.Files.MaxConcurrentUploadsPerUser = 0 }, "files.max_concurrent_uploads_per_user"},
		{"negative minimum upload rate", func(c *Config) { c.Files.MinUploadRate = -1 }, "files.min_upload_rate"},
		{"no minimum upload rate", func(c *Config) { c.Files.MinUploadRate = 0 }, ""},
		{"negative byte quota", func(c *Config) { c.Files.QuotaBytes = -1 }, "files.quota_bytes"},
		{"negative file quota", func(c *Config) { c.Files.QuotaFiles = -5 }, "files.quota_files"},
		{"unknown backend", func(c *Config) { c.Storage.Backend = "ftp" }, "storage.backend"},
		{"negative free-space reserve", func(c *Config) { c.Storage.MinFreeBytes = -1 }, "storage.min_free_bytes"},
		{"no free-space reserve", func(c *Config) { c.Storage.MinFreeBytes = 0 }, ""},
		{"s3 without a bucket", func(c *Config) {
			c.Storage.Backend, c.Storage.S3 = "s3", S3{Endpoint: "http://127.0.0.1:9000", AccessKey: "a", SecretKey: "b"}
		}, "storage.s3.bucket"},
		{"s3 without keys", func(c *Config) {
			c.Storage.Backend, c.Storage.S3 = "s3", S3{Endpoint: "http://127.0.0.1:9000", Bucket: "b"}
		}, "DEVHUB_STORAGE_S3_ACCESS_KEY"},
		{"backup to a directory", func(c *Config) { c.Backup.To = "/var/backups/devhub" }, ""},
		{"backup to s3 without a bucket", func(c *Config) { c.Backup.To = "s3://" }, "want s3://BUCKET"},
		{"backup to s3 with a path", func(c *Config) { c.Backup.To = "s3://b/dir" }, "want s3://BUCKET"},
		{"backup to s3 without an endpoint", func(c *Config) { c.Backup.To = "s3://backups" }, "storage.s3.endpoint"},
		{"backup to s3 without keys", func(c *Config) {
			c.Backup.To, c.Storage.S3 = "s3://backups", S3{Endpoint: "http://127.0.0.1:9000"}
		}, "DEVHUB_STORAGE_S3_ACCESS_KEY"},
		{"backup to s3 complete", func(c *Config) {
			c.Backup.To, c.Storage.S3 = "s3://backups", S3{Endpoint: "http://127.0.0.1:9000", AccessKey: "a", SecretKey: "b"}
		}, ""},
		{"s3 complete", func(c *Config) {
			c.Storage.Backend, c.Storage.S3 = "s3", S3{Endpoint: "http://127.0.0.1:9000", Bucket: "b", AccessKey: "a", SecretKey: "b"}
		}, ""},
		{"no quotas", func(c *Config) { c.Files.QuotaBytes, c.Files.QuotaFiles = 0, 0 }, ""},
		{"tus expiry too short", func(c *Config) { c.Files.TusExpiry = time.Second }, "files.tus_expiry"},
		{"negative refused upload drain", func(c *Config) { c.Files.RefusedUploadDrain = -time.Second }, "files.refused_upload_drain"},
		{"no refused upload drain", func(c *Config) { c.Files.RefusedUploadDrain = 0 }, ""},
		{"activity log under 1 MiB", func(c *Config) { c.Activity.MaxBytes = 1000 }, "activity.max_bytes"},
		{"zero global activity rate", func(c *Config) { c.Activity.GlobalRatePerMinute = 0 }, "activity.global_rate_per_minute"},
		{"unknown log format", func(c *Config) { c.Log.Format = "xml" }, "log.format"},
		{"json log format", func(c *Config) { c.Log.Format = "json" }, ""},
		{"data dir is a file", func(c *Config) { c.Storage.DataDir = file }, "storage.data_dir"},
		{"data dir below a file", func(c *Config) { c.Storage.DataDir = filepath.Join(file, "x", "y") }, "storage.data_dir"},
		{"missing parents are created", func(c *Config) { c.Storage.UploadsDir = filepath.Join(t.TempDir(), "a", "b", "c") }, ""},
		{"roms dir is a file", func(c *Config) { c.Storage.RomsDir = file }, "storage.roms_dir"},
		{"missing geoip db", func(c *Config) { c.GeoIP.Database = filepath.Join(t.TempDir(), "none.mmdb") }, "geoip.database"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := validBase(t)
			tc.mutate(&c)
			err := c.Validate()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want mention of %q", err, tc.wantErr)
			}
		})
	}
}

func TestParseProxy(t *testing.T) {
	for in, want := range map[string]string{"10.1.2.3": "10.1.2.3/32", "10.1.2.3/8": "10.0.0.0/8", "::ffff:1.2.3.4": "1.2.3.4/32", "::1": "::1/128"} {
		p, err := ParseProxy(in)
		if err != nil || p.String() != want {
			t.Errorf("ParseProxy(%q) = %v, %v; want %s", in, p, err, want)
		}
	}
}

// TestFileCloudDefaults: the defaults docs/files.md and the issue state for
// the file cloud's second round (a changed default changes what users get
// without a word in their config).
func TestFileCloudDefaults(t *testing.T) {
	d := Default()
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"files.tus_expiry", d.Files.TusExpiry, 24 * time.Hour},
		{"files.quota_bytes", d.Files.QuotaBytes, int64(10 << 30)},
		{"files.quota_files", d.Files.QuotaFiles, int64(10000)},
		{"files.max_upload_bytes", d.Files.MaxUploadBytes, int64(4 << 30)},
		{"storage.backend", d.Storage.Backend, "local"},
		{"storage.min_free_bytes", d.Storage.MinFreeBytes, int64(256 << 20)},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: default %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
