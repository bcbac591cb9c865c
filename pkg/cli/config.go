package cli

import (
	"fmt"
	"net"
	"os"
	"reflect"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/devhub/devhub/pkg/config"
)

// configHelp is printed in `devhub --help`: where settings come from and
// which source wins.
const configHelp = `Configuration, highest precedence first:
  1. command-line flags (e.g. serve --addr)
  2. environment variables DEVHUB_<SECTION>_<KEY>, e.g. DEVHUB_SERVER_ADDR,
     DEVHUB_STORAGE_DATA_DIR, DEVHUB_AUTH_ACCESS_TTL, DEVHUB_FILES_MAX_UPLOAD_BYTES
  3. the config file: --config FILE, else ./config.yaml when present
  4. built-in defaults (listed with comments in the shipped config.yaml)`

// loadConfig resolves the typed config from defaults, the config file, the
// environment and the flags that were set, then validates it. viper is used
// here and nowhere else.
func loadConfig(configFile string, flags map[string]*pflag.Flag) (config.Config, error) {
	v := viper.New()
	setDefaults(v, "", reflect.ValueOf(config.Default()))
	v.SetEnvPrefix("DEVHUB")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	switch {
	case configFile != "":
		v.SetConfigFile(configFile)
		if err := v.ReadInConfig(); err != nil {
			return config.Config{}, fmt.Errorf("read config %s: %w", configFile, err)
		}
	default:
		if _, err := os.Stat("config.yaml"); err == nil {
			v.SetConfigFile("config.yaml")
			if err := v.ReadInConfig(); err != nil {
				return config.Config{}, fmt.Errorf("read config config.yaml: %w", err)
			}
		}
	}
	for key, f := range flags {
		if f != nil && f.Changed {
			if err := v.BindPFlag(key, f); err != nil {
				return config.Config{}, err
			}
		}
	}

	var cfg config.Config
	err := v.Unmarshal(&cfg, func(dc *mapstructure.DecoderConfig) {
		dc.ErrorUnused = false
		dc.DecodeHook = mapstructure.ComposeDecodeHookFunc(
			mapstructure.StringToTimeDurationHookFunc(),
			mapstructure.StringToSliceHookFunc(","),
		)
	})
	if err != nil {
		return config.Config{}, fmt.Errorf("invalid config: %s", flattenDecodeError(err))
	}
	applyTLSDefaults(&cfg, func(key string) bool {
		if f := flags[key]; f != nil && f.Changed {
			return true
		}
		_, inEnv := os.LookupEnv("DEVHUB_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_")))
		return inEnv || v.InConfig(key)
	})
	if err := cfg.Validate(); err != nil {
		return config.Config{}, fmt.Errorf("invalid config: %s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return cfg, nil
}

// applyTLSDefaults fills what follows from serving https: serve
// --domain alone turns ACME on, server.addr defaults to :443 and
// server.public_url to https://<first domain> (with the port when it is not
// 443), so HSTS and Secure cookies follow. set reports whether the owner
// gave a key (flag, environment or file) rather than its default.
func applyTLSDefaults(cfg *config.Config, set func(key string) bool) {
	if set("server.domains") && !set("server.tls") && cfg.Server.TLS == "off" && len(cfg.Server.Domains) > 0 {
		cfg.Server.TLS = "acme"
	}
	if !cfg.Server.TLSOn() {
		return
	}
	if !set("server.addr") {
		cfg.Server.Addr = ":443"
	}
	if cfg.Server.PublicURL == "" && len(cfg.Server.Domains) > 0 {
		host := cfg.Server.Domains[0]
		if _, port, err := net.SplitHostPort(cfg.Server.Addr); err == nil && port != "443" {
			host = net.JoinHostPort(host, port)
		}
		cfg.Server.PublicURL = "https://" + host
	}
}

// setDefaults registers every leaf of the default config with viper, so
// that every key can be set from the environment.
func setDefaults(v *viper.Viper, prefix string, rv reflect.Value) {
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		key := rt.Field(i).Tag.Get("mapstructure")
		if key == "" {
			continue
		}
		if prefix != "" {
			key = prefix + "." + key
		}
		fv := rv.Field(i)
		if fv.Kind() == reflect.Struct {
			setDefaults(v, key, fv)
			continue
		}
		v.SetDefault(key, fv.Interface())
	}
}

func flattenDecodeError(err error) string {
	msg := strings.TrimSpace(err.Error())
	// mapstructure wraps the useful lines in a generic header; drop it.
	if _, rest, ok := strings.Cut(msg, "error(s):"); ok {
		msg = rest
	}
	var parts []string
	for _, line := range strings.Split(msg, "\n") {
		if line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "*")); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, "; ")
}
