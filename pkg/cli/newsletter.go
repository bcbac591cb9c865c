package cli

import (
	"fmt"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/newsletter"
	"github.com/devhub/devhub/pkg/usecase"
)

func newNewsletterCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "newsletter",
		Short: "See the blog newsletter's subscribers",
		Example: `  devhub newsletter count
  devhub newsletter list --json`,
		SilenceUsage: true,
	}
	cmd.AddCommand(newNewsletterCountCmd(env), newNewsletterListCmd(env))
	return cmd
}

func newNewsletterCountCmd(env *Env) *cobra.Command {
	return readCmd(env, &cobra.Command{
		Use:     "count [--json]",
		Short:   "Count the subscribers: confirmed (per language) and awaiting confirmation",
		Example: "  devhub newsletter count",
	}, "print the counts as JSON", func(_ *cobra.Command, svc *services) (newsletter.Counts, error) {
		return svc.hub.NewsletterCount(usecase.Owner())
	}, func(c newsletter.Counts) error {
		env.Printf("%d confirmed, %d awaiting confirmation\n", c.Confirmed, c.Pending)
		langs := make([]string, 0, len(c.ByLang))
		for l := range c.ByLang {
			langs = append(langs, l)
		}
		sort.Strings(langs)
		for _, l := range langs {
			env.Printf("  %s: %d\n", l, c.ByLang[l])
		}
		return nil
	})
}

// newsletterRow is a subscriber as `newsletter list --json` prints it
// (never their unsubscribe token).
type newsletterRow struct {
	Email       string    `json:"email"`
	Lang        string    `json:"lang"`
	Confirmed   bool      `json:"confirmed"`
	CreatedAt   time.Time `json:"createdAt"`
	ConfirmedAt time.Time `json:"confirmedAt,omitzero"`
}

func newNewsletterListCmd(env *Env) *cobra.Command {
	return readCmd(env, &cobra.Command{
		Use:     "list [--json]",
		Short:   "List the subscribers by address",
		Example: "  devhub newsletter list",
	}, "print the subscribers as JSON", func(_ *cobra.Command, svc *services) ([]newsletterRow, error) {
		subs, err := svc.hub.NewsletterSubscribers(usecase.Owner())
		if err != nil {
			return nil, err
		}
		rows := make([]newsletterRow, 0, len(subs))
		for _, s := range subs {
			rows = append(rows, newsletterRow{Email: s.Email, Lang: s.Lang, Confirmed: s.Confirmed, CreatedAt: s.CreatedAt, ConfirmedAt: s.ConfirmedAt})
		}
		return rows, nil
	}, func(rows []newsletterRow) error {
		if len(rows) == 0 {
			env.Printf("no subscribers\n")
			return nil
		}
		tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "EMAIL\tLANG\tSTATE\tSINCE")
		for _, r := range rows {
			state, since := "confirmed", r.ConfirmedAt
			if !r.Confirmed {
				state, since = "awaiting confirmation", r.CreatedAt
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", termSafe(r.Email), r.Lang, state, since.Local().Format(time.DateTime))
		}
		return tw.Flush()
	})
}
