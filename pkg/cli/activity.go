package cli

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/activity"
)

func newActivityCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:          "activity",
		Short:        "Inspect the activity log the web interface writes",
		Example:      "  devhub activity list --action route_change --limit 20",
		SilenceUsage: true,
	}
	cmd.AddCommand(newActivityListCmd(env))
	return cmd
}

func newActivityListCmd(env *Env) *cobra.Command {
	var (
		asJSON bool
		action string
		limit  int
	)
	cmd := needsStore(&cobra.Command{
		Use:   "list",
		Short: "List activity events, newest first",
		Long: `list prints stored activity events (page loads, guest visits, route changes…),
newest first. --json prints an array of objects with the fields id, action,
details, clientInfo, clientTimestamp, at, ip and userId (0 for anonymous).`,
		Example: `  devhub activity list
  devhub activity list --action route_change --limit 5
  devhub activity list --json --limit 0 > activity.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 0 {
				return fmt.Errorf("--limit must not be negative, got %d", limit)
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			events, err := svc.Activity.List(cmd.Context(), activity.Filter{Action: action, Limit: limit})
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(events)
			}
			if len(events) == 0 {
				env.Printf("no activity events\n")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tAT\tACTION\tIP\tUSER\tDEVICE\tDETAILS")
			for _, ev := range events {
				user := "-"
				if ev.UserID != 0 {
					user = strconv.FormatUint(ev.UserID, 10)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", ev.ID, ev.At.Local().Format(time.DateTime), ev.Action,
					activityOrDash(ev.IP), user, activityOrDash(ev.ClientInfo.DeviceType), activityShorten(string(ev.Details), 60))
			}
			return tw.Flush()
		},
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&action, "action", "", "only events with this action")
	cmd.Flags().IntVar(&limit, "limit", 50, "at most this many events (0 = all)")
	return cmd
}

func activityOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// activityShorten keeps table rows on one line.
func activityShorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
