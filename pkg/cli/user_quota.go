package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/quota"
)

func newUserQuotaCmd(env *Env) *cobra.Command {
	var bytesFlag, filesFlag string
	var asJSON bool
	cmd := needsStore(&cobra.Command{
		Use:   "quota EMAIL [--bytes N] [--files N] [--json]",
		Short: "Show or set an account's storage quota",
		Long: `quota shows what an account stores beside what it may store, and with
--bytes or --files sets its own quota. A size is written like 10GiB, 500MB
or 1048576; "unlimited" lifts a limit and "default" goes back to the
configured one (files.quota_bytes, files.quota_files; admins are unlimited
by default). Uploads over the quota are refused with nothing kept.`,
		Example: `  devhub user quota me@example.com
  devhub user quota guest@example.com --bytes 10GiB --files 10000
  devhub user quota guest@example.com --bytes unlimited --json
  devhub user quota guest@example.com --bytes default --files default`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			u, err := svc.Auth.UserByEmail(args[0])
			if err != nil {
				return fmt.Errorf("no account with the e-mail %q", args[0])
			}
			if cmd.Flags().Changed("bytes") || cmd.Flags().Changed("files") {
				o, err := svc.Quota.Override(u.ID)
				if err != nil {
					return err
				}
				if cmd.Flags().Changed("bytes") {
					if o.Bytes, err = quotaSetting(bytesFlag, quota.ParseBytes); err != nil {
						return fmt.Errorf("--bytes: %w", err)
					}
				}
				if cmd.Flags().Changed("files") {
					if o.Files, err = quotaSetting(filesFlag, parseCount); err != nil {
						return fmt.Errorf("--files: %w", err)
					}
				}
				if err := svc.Quota.SetOverride(cmd.Context(), u.ID, o); err != nil {
					return err
				}
				svc.record(cmd.Context(), audit.Event{Type: audit.QuotaChanged, Target: u.Email,
					Details: map[string]string{"bytes": bytesFlag, "files": filesFlag}})
			}
			r, err := svc.Quota.Report(u.ID)
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(r)
			}
			env.Printf("%s: %s of %s, %d of %s files\n", u.Email, text.Bytes(r.Used.Bytes), limitText(r.Limit.Bytes, text.Bytes),
				r.Used.Files, limitText(r.Limit.Files, func(n int64) string { return strconv.FormatInt(n, 10) }))
			return nil
		},
	})
	cmd.Flags().StringVar(&bytesFlag, "bytes", "", `byte quota: a size (10GiB, 500MB, 1048576), "unlimited" or "default"`)
	cmd.Flags().StringVar(&filesFlag, "files", "", `file-count quota: a number, "unlimited" or "default"`)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {used, limit} as JSON (a null limit is unlimited)")
	return cmd
}

// quotaSetting reads one --bytes/--files value: "default" clears the
// override (nil), anything else is parsed (quota.Unlimited for "unlimited").
func quotaSetting(v string, parse func(string) (int64, error)) (*int64, error) {
	if strings.EqualFold(strings.TrimSpace(v), "default") {
		return nil, nil
	}
	n, err := parse(v)
	if err != nil {
		return nil, err
	}
	return &n, nil
}

func parseCount(v string) (int64, error) {
	t := strings.TrimSpace(v)
	if strings.EqualFold(t, "unlimited") {
		return quota.Unlimited, nil
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a number of files (say 10000, unlimited or default)", v)
	}
	return n, nil
}

func limitText(l *int64, format func(int64) string) string {
	if l == nil {
		return "unlimited"
	}
	return format(*l)
}
