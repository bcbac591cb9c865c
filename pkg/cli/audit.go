package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
)

func newAuditCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:          "audit",
		Short:        "Read the security audit log (sign-ins, two-factor, roles, sessions, deletions)",
		Example:      "  devhub audit list --since 24h --type signin.failed",
		SilenceUsage: true,
	}
	cmd.AddCommand(newAuditListCmd(env))
	return cmd
}

func newAuditListCmd(env *Env) *cobra.Command {
	var (
		asJSON     bool
		since, typ string
		limit      int
	)
	cmd := needsStore(&cobra.Command{
		Use:   "list [--json] [--since T] [--type T] [--limit N]",
		Short: "List audit events, newest first",
		Long: `list prints security events newest first. --since takes an RFC 3339 time or an age
("24h", "7d"); --type takes an event type or its prefix ("2fa" is every 2fa.* event).
--json prints one JSON object a line (id, at, type, actor, target, ip, details), for scripts
and log collectors.`,
		Example: `  devhub audit list
  devhub audit list --type signin.failed --since 24h
  devhub audit list --json --limit 0 > audit.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 0 {
				return fmt.Errorf("--limit must not be negative, got %d", limit)
			}
			q := audit.Query{Type: strings.TrimSpace(typ), Limit: limit}
			if limit == 0 {
				q.Limit = audit.MaxLimit
			}
			if since != "" {
				t, err := parseSince(since, time.Now())
				if err != nil {
					return fmt.Errorf("--since: %w", err)
				}
				q.Since = t
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			var events []audit.Event
			for {
				page, next, err := svc.Audit.List(cmd.Context(), q)
				if err != nil {
					return err
				}
				events = append(events, page...)
				if next == 0 || limit > 0 {
					break
				}
				q.Before = next
			}
			if asJSON {
				enc := json.NewEncoder(env.Out)
				for _, e := range events {
					if err := enc.Encode(e); err != nil {
						return err
					}
				}
				return nil
			}
			if len(events) == 0 {
				env.Printf("no audit events\n")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "TIME\tTYPE\tACTOR\tTARGET\tIP\tDETAILS")
			for _, e := range events {
				var details []string
				for k, v := range e.Details {
					details = append(details, termSafe(k)+"="+termSafe(v))
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.At.Local().Format(time.DateTime), e.Type, termSafe(e.Actor), termSafe(e.Target), e.IP,
					strings.Join(details, " "))
			}
			return tw.Flush()
		},
	})
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print one JSON object a line")
	f.StringVar(&since, "since", "", "only events since an RFC 3339 time or for an age such as 24h or 7d")
	f.StringVar(&typ, "type", "", "only events of this type or type prefix")
	f.IntVar(&limit, "limit", 0, "at most this many events (0 = all)")
	return cmd
}

// parseSince reads --since: an RFC 3339 time, or an age before now ("24h",
// "7d").
func parseSince(v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	d, err := auth.ParseTTL(v)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time nor an age such as 24h or 7d", v)
	}
	return now.Add(-d), nil
}

// termSafe shows the control characters of s (ESC, BEL, newlines, C1) and
// the bidirectional overrides as escapes (\x1b, \u202e): a failed sign-in
// records whatever e-mail the guest typed, a session whatever User-Agent
// its browser sent (`user sessions list`), and printed as it is its escape
// sequences would run in the owner's terminal (retitle it, recolour or
// erase the lines above, rewrite the clipboard) and reorder the row.
// --json escapes them already.
func termSafe(s string) string {
	unsafe := func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }
	if !strings.ContainsFunc(s, unsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafe(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
