// Package config holds devhub's typed configuration, its defaults and its
// validation. It imports nothing internal: pkg/cli fills it from flags, the
// environment and config.yaml (through viper), and every other package only
// ever sees the typed, validated struct.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// Config is the whole configuration of one devhub instance.
type Config struct {
	Server   Server   `mapstructure:"server"`
	Storage  Storage  `mapstructure:"storage"`
	Auth     Auth     `mapstructure:"auth"`
	Files    Files    `mapstructure:"files"`
	Activity Activity `mapstructure:"activity"`
	GeoIP    GeoIP    `mapstructure:"geoip"`
	Emulator Emulator `mapstructure:"emulator"`
	Site     Site     `mapstructure:"site"`
	Log      Log      `mapstructure:"log"`
	Metrics  Metrics  `mapstructure:"metrics"`
	Backup   Backup   `mapstructure:"backup"`
	Mail     Mail     `mapstructure:"mail"`
	Events   Events   `mapstructure:"events"`
	Chat     Chat     `mapstructure:"chat"`
	Messages Messages `mapstructure:"messages"`
	Contact  Contact  `mapstructure:"contact"`
	// Comments, Forum and Moderation configure what visitors write and
	// its one moderation mechanism.
	Comments   Discussion `mapstructure:"comments"`
	Forum      Discussion `mapstructure:"forum"`
	Moderation Moderation `mapstructure:"moderation"`
}

// Discussion limits one kind of visitors' text (comments, forum posts).
type Discussion struct {
	// Moderation is first (an account's items wait for approval until one
	// was approved), all (every item waits) or none.
	Moderation string `mapstructure:"moderation"`
	MaxBytes   int    `mapstructure:"max_bytes"`
	MaxLinks   int    `mapstructure:"max_links"`
}

// Moderation is the policy comments and the forum share.
type Moderation struct {
	// RatePerUser and RatePerNetwork are items (comments and posts
	// together) per minute per account and per client network; 0 is no
	// limit.
	RatePerUser    int `mapstructure:"rate_per_user"`
	RatePerNetwork int `mapstructure:"rate_per_network"`
	// NewAccountAge is how long an account counts as new; a new account may
	// put at most NewAccountMaxLinks links in one item.
	NewAccountAge      time.Duration `mapstructure:"new_account_age"`
	NewAccountMaxLinks int           `mapstructure:"new_account_max_links"`
}

// Events bounds the live event streams (GET /api/events).
type Events struct {
	// MaxStreamsPerUser and MaxStreams bound the open streams of one
	// account and of everyone together; beyond them a new stream is 429.
	MaxStreamsPerUser int `mapstructure:"max_streams_per_user"`
	MaxStreams        int `mapstructure:"max_streams"`
	// Buffer is how many recent events are kept for a reconnecting client.
	Buffer int `mapstructure:"buffer"`
	// Heartbeat is how often an idle stream is written to; a closed client
	// is noticed within about three heartbeats.
	Heartbeat time.Duration `mapstructure:"heartbeat"`
}

// Chat bounds the chat room.
type Chat struct {
	// MaxMessages and MaxBytes bound the history kept; the oldest
	// messages go first.
	MaxMessages int   `mapstructure:"max_messages"`
	MaxBytes    int64 `mapstructure:"max_bytes"`
	// MaxLength is the longest message, in characters.
	MaxLength int `mapstructure:"max_length"`
	// RatePerMinute is how many messages one account may post a minute.
	RatePerMinute int `mapstructure:"rate_per_minute"`
}

// Messages configures direct messages between accounts.
type Messages struct {
	// From is who may message an account: "friends" (its friends only) or
	// "anyone" (any account it has not blocked).
	From string `mapstructure:"from"`
	// MaxLength caps one message, in characters.
	MaxLength int `mapstructure:"max_length"`
	// PerMinute is how many messages one account may send a minute.
	PerMinute int `mapstructure:"per_minute"`
}

// Contact configures the contact form's spam guards.
type Contact struct {
	// PerHour is how many messages one client network may send an hour.
	PerHour int `mapstructure:"per_hour"`
	// MaxLength caps one message, in characters.
	MaxLength int `mapstructure:"max_length"`
	// PowMaxNumber is the proof of work's size: the browser tries half as
	// many SHA-256 hashes on average.
	PowMaxNumber int `mapstructure:"pow_max_number"`
}

// Backup configures scheduled backups (`devhub backup` without a file
// writes to the same destination).
type Backup struct {
	// Schedule is an interval ("6h") or a cron expression ("0 3 * * *",
	// "@daily"); empty (the default) takes no scheduled backups.
	Schedule string `mapstructure:"schedule"`
	// Keep is how many backups the destination keeps; older ones are
	// deleted after each new one. 0 keeps all.
	Keep int `mapstructure:"keep"`
	// To is a directory or s3://BUCKET on the object store of storage.s3
	// (its endpoint, region and keys).
	To string `mapstructure:"to"`
}

// Mail configures outgoing e-mail over SMTP; it is off while Host is empty.
type Mail struct {
	Host string `mapstructure:"host"`
	Port int    `mapstructure:"port"`
	// Security is "none", "starttls" (upgrade a plain connection, refusing
	// a server that cannot) or "tls" (TLS from the first byte, port 465).
	Security string `mapstructure:"security"`
	// User signs in to the server when set; the password comes from
	// DEVHUB_MAIL_PASSWORD so it stays out of config.yaml.
	User     string `mapstructure:"user"`
	Password string `mapstructure:"password"`
	// From is the sender's address, optionally with a name:
	// "devhub <noreply@example.org>".
	From string `mapstructure:"from"`
}

// Enabled is whether mail is configured.
func (m Mail) Enabled() bool { return m.Host != "" }

// Metrics configures GET /metrics (Prometheus text format).
type Metrics struct {
	// Enabled turns the page on; it is off by default.
	Enabled bool `mapstructure:"enabled"`
	// Token, when set, is the bearer token a scraper must send; when empty
	// only direct requests from this machine are answered.
	Token string `mapstructure:"token"`
}

// Log configures serve's log lines.
type Log struct {
	// Format is "text" (key=value lines) or "json" (one object a line, for
	// log collectors).
	Format string `mapstructure:"format"`
}

// Server configures the HTTP listener.
type Server struct {
	Addr           string        `mapstructure:"addr"`
	PublicURL      string        `mapstructure:"public_url"`
	TrustedProxies []string      `mapstructure:"trusted_proxies"`
	ReadTimeout    time.Duration `mapstructure:"read_timeout"`
	WriteTimeout   time.Duration `mapstructure:"write_timeout"`
	IdleTimeout    time.Duration `mapstructure:"idle_timeout"`
	BodyLimit      int           `mapstructure:"body_limit"`
	// TLS is how the server gets its certificate: "off" (plain HTTP on
	// Addr, e.g. behind a reverse proxy), "acme" (from an ACME CA for
	// Domains) or "files" (TLSFiles, reloaded when they change on disk).
	// With TLS on, Addr is the https address and HTTPAddr answers ACME's
	// HTTP-01 challenge and redirects everything else to https.
	TLS      string   `mapstructure:"tls"`
	Domains  []string `mapstructure:"domains"`
	HTTPAddr string   `mapstructure:"http_addr"`
	ACME     ACME     `mapstructure:"acme"`
	TLSFiles TLSFiles `mapstructure:"tls_files"`
}

// TLSOn reports whether the server serves https itself.
func (s Server) TLSOn() bool { return s.TLS == "acme" || s.TLS == "files" }

// ACME configures the CA certificates come from with server.tls: acme.
type ACME struct {
	// Email is the account's contact address at the CA (optional).
	Email string `mapstructure:"email"`
	// Directory is the CA's ACME directory URL; empty is Let's Encrypt.
	Directory string `mapstructure:"directory"`
	// CARoots is a PEM file of CA certificates trusted for the ACME
	// server itself (a private CA); empty trusts the system's.
	CARoots string `mapstructure:"ca_roots"`
}

// TLSFiles are the owner's certificate chain and key (PEM) for
// server.tls: files.
type TLSFiles struct {
	Cert string `mapstructure:"cert"`
	Key  string `mapstructure:"key"`
}

// Storage names the directories devhub reads and writes.
type Storage struct {
	DataDir    string `mapstructure:"data_dir"`
	UploadsDir string `mapstructure:"uploads_dir"`
	RomsDir    string `mapstructure:"roms_dir"`
	ContentDir string `mapstructure:"content_dir"`
	// MinFreeBytes is the free space kept on the filesystems of DataDir and
	// UploadsDir: uploads, resumable uploads' staging, save states and ROMs
	// that would go below it are refused (507), so the store keeps room for
	// sign-ins on a disk filled by uploads. 0 keeps none.
	MinFreeBytes int64 `mapstructure:"min_free_bytes"`
	// Backend is where new file-cloud uploads go: "local" (uploads_dir) or
	// "s3" (an S3-compatible object store). Files already stored stay where
	// they are until `devhub storage migrate` moves them.
	Backend string `mapstructure:"backend"`
	S3      S3     `mapstructure:"s3"`
}

// S3 locates the object store of storage.backend: s3. The keys come from
// the environment (DEVHUB_STORAGE_S3_ACCESS_KEY, DEVHUB_STORAGE_S3_SECRET_KEY)
// so they stay out of config.yaml.
type S3 struct {
	// Endpoint is host[:port] or a URL; "http://" turns TLS off (a MinIO
	// on this machine), no scheme means https.
	Endpoint  string `mapstructure:"endpoint"`
	Bucket    string `mapstructure:"bucket"`
	Region    string `mapstructure:"region"`
	PathStyle bool   `mapstructure:"path_style"`
	AccessKey string `mapstructure:"access_key"`
	SecretKey string `mapstructure:"secret_key"`
	// ServeDirect answers downloads of files kept on S3 (public and shared
	// files, the owner's own, release files) with a redirect to a
	// short-lived presigned URL at the store, once authorised and counted,
	// instead of passing the bytes through devhub. The endpoint must be one
	// the clients can reach. Inline previews are still served by devhub.
	ServeDirect bool `mapstructure:"serve_direct"`
}

// Auth configures tokens and sessions.
type Auth struct {
	JWTSecret  string        `mapstructure:"jwt_secret"`
	AccessTTL  time.Duration `mapstructure:"access_ttl"`
	RefreshTTL time.Duration `mapstructure:"refresh_ttl"`
	// Registration is who may create an account from the site: "open"
	// (anyone), "invite" (with a code an admin made) or "closed" (only the
	// owner, with `devhub user create`).
	Registration string `mapstructure:"registration"`
	// VerifyEmail is whether a registered account proves its e-mail with a
	// link mailed to it: "off", "optional" (it may sign in meanwhile) or
	// "required" (it may not sign in until it did). Accounts the owner or
	// an admin made count as verified. It takes effect only where mail and
	// server.public_url are set; "required" without them stops serve.
	VerifyEmail string `mapstructure:"verify_email"`
}

// Files configures the file cloud.
type Files struct {
	MaxUploadBytes int64 `mapstructure:"max_upload_bytes"`
	// MaxPartsPerRequest caps the parts of one multipart upload.
	MaxPartsPerRequest int `mapstructure:"max_parts_per_request"`
	// UploadsPerMinute is how many uploads one user, and one client
	// network, may start per minute.
	UploadsPerMinute int `mapstructure:"uploads_per_minute"`
	// MaxConcurrentUploads caps uploads in progress on the server, and
	// MaxConcurrentUploadsPerUser those of one user.
	MaxConcurrentUploads        int `mapstructure:"max_concurrent_uploads"`
	MaxConcurrentUploadsPerUser int `mapstructure:"max_concurrent_uploads_per_user"`
	// MinUploadRate is the slowest an upload may arrive, in bytes per
	// second averaged over 30 s; slower ones are ended and nothing is kept.
	MinUploadRate int64 `mapstructure:"min_upload_rate"`
	// QuotaBytes and QuotaFiles are what one user may store unless their
	// own quota says otherwise (`devhub user quota`); 0 is unlimited.
	// Admins are unlimited unless given a quota of their own.
	QuotaBytes int64 `mapstructure:"quota_bytes"`
	QuotaFiles int64 `mapstructure:"quota_files"`
	// TusExpiry is how long an unfinished resumable upload is kept after
	// its last byte arrived; then its bytes are reclaimed.
	TusExpiry time.Duration `mapstructure:"tus_expiry"`
	// RefusedUploadDrain bounds how long, after an answer sent before its
	// request's body ended, what still arrives is read and thrown away
	// before the connection closes (nginx's lingering_time, also 30 s by
	// default); 0 closes at once.
	RefusedUploadDrain time.Duration `mapstructure:"refused_upload_drain"`
	// ZipMaxFiles and ZipMaxBytes bound one "download selected" zip: how
	// many files, and how many bytes before packing, it may hold.
	ZipMaxFiles int   `mapstructure:"zip_max_files"`
	ZipMaxBytes int64 `mapstructure:"zip_max_bytes"`
	// ZipMaxConcurrent and ZipMaxConcurrentPerClient cap the zips being
	// packed at once (selected files and account exports together), in
	// all and per account (per client network for guests): each one keeps
	// a core busy deflating for as long as it streams.
	ZipMaxConcurrent          int `mapstructure:"zip_max_concurrent"`
	ZipMaxConcurrentPerClient int `mapstructure:"zip_max_concurrent_per_client"`
}

// Activity bounds the activity log.
type Activity struct {
	MaxEvents           int   `mapstructure:"max_events"`
	MaxBytes            int64 `mapstructure:"max_bytes"`
	RatePerMinute       int   `mapstructure:"rate_per_minute"`
	GlobalRatePerMinute int   `mapstructure:"global_rate_per_minute"`
}

// GeoIP points at a local MaxMind-format database (mmdb).
type GeoIP struct {
	Database string `mapstructure:"database"`
	// CityDatabase and ASNDatabase are optional MaxMind-format databases
	// for the place (region, city, coordinates, time zone) and the network
	// (organisation, AS number) of an address.
	CityDatabase string `mapstructure:"city_database"`
	ASNDatabase  string `mapstructure:"asn_database"`
}

// Emulator configures extra emulator cores and players' save states.
type Emulator struct {
	ExtraCoresDir string `mapstructure:"extra_cores_dir"`
	// MaxStateBytes is the size limit of one save state a signed-in player
	// keeps on the server (they live under <data_dir>/gamestates).
	MaxStateBytes int64 `mapstructure:"max_state_bytes"`
	// MaxROMBytes bounds one ROM an admin uploads from the games page
	// (`devhub rom add` copies files of any size).
	MaxROMBytes int64 `mapstructure:"max_rom_bytes"`
}

// Site is the public, owner-specific content the SPA shows (footer, donation).
type Site struct {
	Contacts Contacts `mapstructure:"contacts" json:"contacts"`
	Donation Donation `mapstructure:"donation" json:"donation"`
}

// Contacts are shown in the footer of every page.
type Contacts struct {
	Email    string   `mapstructure:"email" json:"email"`
	Phones   []string `mapstructure:"phones" json:"phones"`
	City     string   `mapstructure:"city" json:"city"`
	GitHub   string   `mapstructure:"github" json:"github"`
	LinkedIn string   `mapstructure:"linkedin" json:"linkedin"`
	Telegram string   `mapstructure:"telegram" json:"telegram"`
}

// Donation is shown in the banner of the games page.
type Donation struct {
	TRC20Wallet string `mapstructure:"trc20_wallet" json:"trc20Wallet"`
	CardUAH     string `mapstructure:"card_uah" json:"cardUAH"`
	CardUSD     string `mapstructure:"card_usd" json:"cardUSD"`
}

// Default returns the built-in defaults; config.yaml at the repository root
// lists the same values with a comment each.
func Default() Config {
	return Config{
		Server: Server{
			Addr:         ":8080",
			ReadTimeout:  30 * time.Second,
			WriteTimeout: 0, // downloads of large files must not be cut off; idle timeout still applies
			IdleTimeout:  120 * time.Second,
			BodyLimit:    1 << 20,
			TLS:          "off",
			Domains:      []string{},
			HTTPAddr:     ":80",
		},
		Storage: Storage{
			DataDir:      "./data",
			UploadsDir:   "./uploads",
			RomsDir:      "./roms",
			ContentDir:   "./content",
			MinFreeBytes: 256 << 20,
			Backend:      "local",
			S3:           S3{Region: "us-east-1", PathStyle: true},
		},
		Auth: Auth{
			AccessTTL:    15 * time.Minute,
			RefreshTTL:   30 * 24 * time.Hour,
			Registration: "open",
			VerifyEmail:  "off",
		},
		Log:    Log{Format: "text"},
		Backup: Backup{Keep: 7},
		Mail:   Mail{Port: 587, Security: "starttls"},
		Files: Files{MaxUploadBytes: 4 << 30, MaxPartsPerRequest: 100, UploadsPerMinute: 30,
			MaxConcurrentUploads: 32, MaxConcurrentUploadsPerUser: 4, MinUploadRate: 1024,
			QuotaBytes: 10 << 30, QuotaFiles: 10000, TusExpiry: 24 * time.Hour, RefusedUploadDrain: 30 * time.Second,
			ZipMaxFiles: 500, ZipMaxBytes: 4 << 30, ZipMaxConcurrent: 8, ZipMaxConcurrentPerClient: 2},
		Emulator: Emulator{MaxStateBytes: 16 << 20, MaxROMBytes: 512 << 20},
		Activity: Activity{MaxEvents: 10000, MaxBytes: 32 << 20, RatePerMinute: 60, GlobalRatePerMinute: 1200},
		Events:   Events{MaxStreamsPerUser: 16, MaxStreams: 10000, Buffer: 1024, Heartbeat: 15 * time.Second},
		Chat:     Chat{MaxMessages: 10000, MaxBytes: 8 << 20, MaxLength: 2000, RatePerMinute: 20},
		Site: Site{
			Contacts: Contacts{Phones: []string{}},
		},
		Messages:   Messages{From: "friends", MaxLength: 2000, PerMinute: 20},
		Contact:    Contact{PerHour: 5, MaxLength: 5000, PowMaxNumber: 50000},
		Comments:   Discussion{Moderation: "first", MaxBytes: 8 << 10, MaxLinks: 3},
		Forum:      Discussion{Moderation: "first", MaxBytes: 32 << 10, MaxLinks: 10},
		Moderation: Moderation{RatePerUser: 6, RatePerNetwork: 20, NewAccountAge: 24 * time.Hour, NewAccountMaxLinks: 1},
	}
}

// DBPath is where the bbolt store lives.
func (c Config) DBPath() string { return filepath.Join(c.Storage.DataDir, "devhub.db") }

// SocketPath is the owner socket through which CLI commands reach a running server.
func (c Config) SocketPath() string { return filepath.Join(c.Storage.DataDir, "devhub.sock") }

// Validate reports every problem with the configuration at once, so the owner
// fixes them in one go. Directories that devhub creates (data, uploads) must be
// creatable; directories it only reads may be missing.
func (c Config) Validate() error {
	var errs []error
	if c.Server.Addr == "" {
		errs = append(errs, errors.New("server.addr must not be empty"))
	} else if _, _, err := net.SplitHostPort(c.Server.Addr); err != nil {
		errs = append(errs, fmt.Errorf("server.addr %q: %v", c.Server.Addr, err))
	}
	if c.Server.PublicURL != "" {
		u, err := url.Parse(c.Server.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("server.public_url %q must be an absolute http(s) URL", c.Server.PublicURL))
		}
	}
	errs = append(errs, c.Server.validateTLS()...)
	for _, p := range c.Server.TrustedProxies {
		if _, err := ParseProxy(p); err != nil {
			errs = append(errs, fmt.Errorf("server.trusted_proxies: %v", err))
		}
	}
	for name, d := range map[string]time.Duration{
		"server.read_timeout": c.Server.ReadTimeout,
		"server.idle_timeout": c.Server.IdleTimeout,
	} {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %s", name, d))
		}
	}
	if c.Server.WriteTimeout < 0 {
		errs = append(errs, fmt.Errorf("server.write_timeout must not be negative, got %s", c.Server.WriteTimeout))
	}
	if c.Server.BodyLimit <= 0 {
		errs = append(errs, fmt.Errorf("server.body_limit must be positive, got %d", c.Server.BodyLimit))
	}
	switch c.Auth.Registration {
	case "open", "invite", "closed":
	default:
		errs = append(errs, fmt.Errorf("auth.registration must be open, invite or closed, got %q", c.Auth.Registration))
	}
	switch c.Auth.VerifyEmail {
	case "off", "optional", "required":
	default:
		errs = append(errs, fmt.Errorf("auth.verify_email must be off, optional or required, got %q", c.Auth.VerifyEmail))
	}
	if c.Auth.AccessTTL < time.Minute {
		errs = append(errs, fmt.Errorf("auth.access_ttl must be at least 1m, got %s", c.Auth.AccessTTL))
	}
	if c.Auth.RefreshTTL < c.Auth.AccessTTL {
		errs = append(errs, fmt.Errorf("auth.refresh_ttl (%s) must not be shorter than auth.access_ttl (%s)", c.Auth.RefreshTTL, c.Auth.AccessTTL))
	}
	if s := c.Auth.JWTSecret; s != "" && len(s) < 32 {
		errs = append(errs, errors.New("auth.jwt_secret must be at least 32 bytes (256 bits), or empty to generate one"))
	}
	if c.Emulator.MaxROMBytes <= 0 {
		errs = append(errs, fmt.Errorf("emulator.max_rom_bytes must be positive, got %d", c.Emulator.MaxROMBytes))
	}
	if c.Emulator.MaxStateBytes <= 0 {
		errs = append(errs, fmt.Errorf("emulator.max_state_bytes must be positive, got %d", c.Emulator.MaxStateBytes))
	}
	if c.Files.MaxUploadBytes <= 0 {
		errs = append(errs, fmt.Errorf("files.max_upload_bytes must be positive, got %d", c.Files.MaxUploadBytes))
	}
	for name, n := range map[string]int{
		"files.max_parts_per_request": c.Files.MaxPartsPerRequest, "files.uploads_per_minute": c.Files.UploadsPerMinute,
		"files.max_concurrent_uploads": c.Files.MaxConcurrentUploads, "files.max_concurrent_uploads_per_user": c.Files.MaxConcurrentUploadsPerUser,
	} {
		if n <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %d", name, n))
		}
	}
	switch c.Storage.Backend {
	case "local":
	case "s3":
		if c.Storage.S3.Endpoint == "" || c.Storage.S3.Bucket == "" {
			errs = append(errs, errors.New("storage.backend s3 needs storage.s3.endpoint and storage.s3.bucket"))
		}
		if c.Storage.S3.AccessKey == "" || c.Storage.S3.SecretKey == "" {
			errs = append(errs, errors.New("storage.backend s3 needs DEVHUB_STORAGE_S3_ACCESS_KEY and DEVHUB_STORAGE_S3_SECRET_KEY in the environment"))
		}
	default:
		errs = append(errs, fmt.Errorf("storage.backend must be local or s3, got %q", c.Storage.Backend))
	}
	if c.Storage.MinFreeBytes < 0 {
		errs = append(errs, fmt.Errorf("storage.min_free_bytes must not be negative (0 keeps no reserve), got %d", c.Storage.MinFreeBytes))
	}
	if c.Files.QuotaBytes < 0 || c.Files.QuotaFiles < 0 {
		errs = append(errs, fmt.Errorf("files.quota_bytes and files.quota_files must not be negative (0 is unlimited), got %d and %d",
			c.Files.QuotaBytes, c.Files.QuotaFiles))
	}
	if c.Files.TusExpiry < time.Minute {
		errs = append(errs, fmt.Errorf("files.tus_expiry must be at least 1m, got %s", c.Files.TusExpiry))
	}
	if c.Files.ZipMaxConcurrent <= 0 || c.Files.ZipMaxConcurrentPerClient <= 0 {
		errs = append(errs, fmt.Errorf("files.zip_max_concurrent and files.zip_max_concurrent_per_client must be positive, got %d and %d",
			c.Files.ZipMaxConcurrent, c.Files.ZipMaxConcurrentPerClient))
	}
	if c.Files.ZipMaxFiles <= 0 || c.Files.ZipMaxBytes <= 0 {
		errs = append(errs, fmt.Errorf("files.zip_max_files and files.zip_max_bytes must be positive, got %d and %d",
			c.Files.ZipMaxFiles, c.Files.ZipMaxBytes))
	}
	if c.Files.RefusedUploadDrain < 0 {
		errs = append(errs, fmt.Errorf("files.refused_upload_drain must not be negative, got %s", c.Files.RefusedUploadDrain))
	}
	if c.Files.MinUploadRate < 0 {
		errs = append(errs, fmt.Errorf("files.min_upload_rate must not be negative, got %d", c.Files.MinUploadRate))
	}
	if t := c.Metrics.Token; t != "" && len(t) < 16 {
		errs = append(errs, fmt.Errorf("metrics.token must be at least 16 characters, got %d", len(t)))
	}
	errs = append(errs, c.Backup.validate()...)
	// Backups to S3 use storage.s3's endpoint and keys: found missing at
	// start, not at the first scheduled backup hours later.
	if bucket, ok := strings.CutPrefix(c.Backup.To, "s3://"); ok {
		switch {
		case bucket == "" || strings.Contains(bucket, "/"):
			errs = append(errs, fmt.Errorf("backup.to %q: want s3://BUCKET", c.Backup.To))
		case c.Storage.S3.Endpoint == "":
			errs = append(errs, errors.New("backup.to s3://… needs storage.s3.endpoint"))
		case c.Storage.S3.AccessKey == "" || c.Storage.S3.SecretKey == "":
			errs = append(errs, errors.New("backup.to s3://… needs DEVHUB_STORAGE_S3_ACCESS_KEY and DEVHUB_STORAGE_S3_SECRET_KEY in the environment"))
		}
	}
	errs = append(errs, c.Mail.validate()...)
	if c.Log.Format != "text" && c.Log.Format != "json" {
		errs = append(errs, fmt.Errorf("log.format must be text or json, got %q", c.Log.Format))
	}
	for name, d := range map[string]Discussion{"comments": c.Comments, "forum": c.Forum} {
		if m := d.Moderation; m != "first" && m != "all" && m != "none" {
			errs = append(errs, fmt.Errorf("%s.moderation must be first, all or none, got %q", name, m))
		}
		if d.MaxBytes < 1 || d.MaxLinks < 0 {
			errs = append(errs, fmt.Errorf("%s.max_bytes must be positive and %s.max_links not negative, got %d and %d", name, name, d.MaxBytes, d.MaxLinks))
		}
	}
	if m := c.Moderation; m.RatePerUser < 0 || m.RatePerNetwork < 0 || m.NewAccountAge < 0 || m.NewAccountMaxLinks < 0 {
		errs = append(errs, errors.New("moderation.rate_per_user, rate_per_network, new_account_age and new_account_max_links must not be negative"))
	}
	if c.Events.MaxStreamsPerUser <= 0 || c.Events.MaxStreams <= 0 || c.Events.Buffer <= 0 {
		errs = append(errs, fmt.Errorf("events.max_streams_per_user, events.max_streams and events.buffer must be positive, got %d, %d and %d",
			c.Events.MaxStreamsPerUser, c.Events.MaxStreams, c.Events.Buffer))
	}
	if c.Events.Heartbeat < time.Second {
		errs = append(errs, fmt.Errorf("events.heartbeat must be at least 1s, got %s", c.Events.Heartbeat))
	}
	if c.Chat.MaxMessages <= 0 || c.Chat.MaxBytes <= 0 || c.Chat.MaxLength <= 0 || c.Chat.RatePerMinute <= 0 {
		errs = append(errs, fmt.Errorf("chat.max_messages, chat.max_bytes, chat.max_length and chat.rate_per_minute must be positive"))
	}
	if c.Messages.From != "friends" && c.Messages.From != "anyone" {
		errs = append(errs, fmt.Errorf("messages.from must be friends or anyone, got %q", c.Messages.From))
	}
	for name, n := range map[string]int{"messages.max_length": c.Messages.MaxLength, "messages.per_minute": c.Messages.PerMinute,
		"contact.per_hour": c.Contact.PerHour, "contact.max_length": c.Contact.MaxLength, "contact.pow_max_number": c.Contact.PowMaxNumber} {
		if n <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %d", name, n))
		}
	}
	if c.Activity.MaxEvents <= 0 {
		errs = append(errs, fmt.Errorf("activity.max_events must be positive, got %d", c.Activity.MaxEvents))
	}
	if c.Activity.MaxBytes < 1<<20 {
		errs = append(errs, fmt.Errorf("activity.max_bytes must be at least 1 MiB, got %d", c.Activity.MaxBytes))
	}
	if c.Activity.GlobalRatePerMinute <= 0 {
		errs = append(errs, fmt.Errorf("activity.global_rate_per_minute must be positive, got %d", c.Activity.GlobalRatePerMinute))
	}
	if c.Activity.RatePerMinute <= 0 {
		errs = append(errs, fmt.Errorf("activity.rate_per_minute must be positive, got %d", c.Activity.RatePerMinute))
	}
	for name, dir := range map[string]string{
		"storage.data_dir":    c.Storage.DataDir,
		"storage.uploads_dir": c.Storage.UploadsDir,
	} {
		if err := checkWritableDir(dir); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", name, err))
		}
	}
	for name, dir := range map[string]string{
		"storage.roms_dir":         c.Storage.RomsDir,
		"storage.content_dir":      c.Storage.ContentDir,
		"emulator.extra_cores_dir": c.Emulator.ExtraCoresDir,
	} {
		if err := checkReadableDir(dir); err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", name, err))
		}
	}
	for _, db := range []struct{ key, paths string }{
		{"geoip.database", c.GeoIP.Database}, {"geoip.city_database", c.GeoIP.CityDatabase}, {"geoip.asn_database", c.GeoIP.ASNDatabase},
	} {
		for _, p := range strings.Split(db.paths, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if f, err := os.Open(p); err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", db.key, err))
			} else {
				f.Close()
			}
		}
	}
	return errors.Join(errs...)
}

func (s Server) validateTLS() []error {
	var errs []error
	switch s.TLS {
	case "off":
		return nil
	case "acme":
		if len(s.Domains) == 0 {
			errs = append(errs, errors.New("server.tls acme needs server.domains (or serve --domain example.org)"))
		}
		for _, d := range s.Domains {
			if !validDomain(d) {
				errs = append(errs, fmt.Errorf("server.domains: %q is not a domain name", d))
			}
		}
		if d := s.ACME.Directory; d != "" {
			if u, err := url.Parse(d); err != nil || u.Scheme != "https" || u.Host == "" {
				errs = append(errs, fmt.Errorf("server.acme.directory %q must be an https URL", d))
			}
		}
		if f := s.ACME.CARoots; f != "" {
			if _, err := os.Stat(f); err != nil {
				errs = append(errs, errors.New("server.acme.ca_roots: the file cannot be read"))
			}
		}
	case "files":
		if s.TLSFiles.Cert == "" || s.TLSFiles.Key == "" {
			errs = append(errs, errors.New("server.tls files needs server.tls_files.cert and server.tls_files.key"))
		}
	default:
		return []error{fmt.Errorf("server.tls must be off, acme or files, got %q", s.TLS)}
	}
	if _, _, err := net.SplitHostPort(s.HTTPAddr); err != nil {
		errs = append(errs, fmt.Errorf("server.http_addr %q: %v", s.HTTPAddr, err))
	}
	return errs
}

// validDomain accepts a host name of dot-separated labels (letters,
// digits, hyphens; "localhost" included) and no port, scheme or path.
func validDomain(d string) bool {
	if d == "" || len(d) > 253 || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// ParseProxy accepts an IP address or a CIDR prefix.
func ParseProxy(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is neither an IP address nor a CIDR prefix", s)
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

func checkWritableDir(dir string) error {
	if dir == "" {
		return errors.New("must not be empty")
	}
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		// devhub creates it (and missing parents) on start: the nearest
		// existing ancestor must be a directory.
		for p := filepath.Dir(filepath.Clean(dir)); ; p = filepath.Dir(p) {
			pfi, perr := os.Stat(p)
			if perr == nil {
				if !pfi.IsDir() {
					return fmt.Errorf("%q cannot be created: %q is not a directory", dir, p)
				}
				return nil
			}
			if !errors.Is(perr, os.ErrNotExist) {
				return fmt.Errorf("%q cannot be created: %v", dir, perr)
			}
			if p == filepath.Dir(p) {
				return fmt.Errorf("%q cannot be created", dir)
			}
		}
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%q is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".devhub-write-check-*")
	if err != nil {
		return fmt.Errorf("%q is not writable: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

func checkReadableDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil // optional: nothing to import or serve
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%q is not a directory", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("%q is not readable: %v", dir, err)
	}
	f.Close()
	return nil
}

func (b Backup) validate() []error {
	var errs []error
	if b.Keep < 0 {
		errs = append(errs, fmt.Errorf("backup.keep must not be negative (0 keeps all), got %d", b.Keep))
	}
	s := strings.TrimSpace(b.Schedule)
	if s == "" || s == "off" {
		return errs
	}
	if b.To == "" {
		errs = append(errs, errors.New("backup.schedule needs backup.to (a directory or s3://BUCKET)"))
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < time.Minute {
			errs = append(errs, fmt.Errorf("backup.schedule %q: the interval must be at least 1m", s))
		}
	} else if _, err := cron.ParseStandard(s); err != nil {
		errs = append(errs, fmt.Errorf("backup.schedule %q: neither an interval (6h) nor a cron expression (0 3 * * *)", s))
	}
	return errs
}

func (m Mail) validate() []error {
	if !m.Enabled() {
		return nil
	}
	var errs []error
	if m.Port <= 0 || m.Port > 65535 {
		errs = append(errs, fmt.Errorf("mail.port must be between 1 and 65535, got %d", m.Port))
	}
	switch m.Security {
	case "none", "starttls", "tls":
	default:
		errs = append(errs, fmt.Errorf("mail.security must be none, starttls or tls, got %q", m.Security))
	}
	if _, err := mail.ParseAddress(m.From); err != nil {
		errs = append(errs, fmt.Errorf("mail.from %q must be an e-mail address (\"Name <user@host>\" or user@host)", m.From))
	}
	return errs
}
