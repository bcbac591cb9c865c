package cli

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// The share link commands: `devhub file share|shares|unshare`. They make,
// list and revoke the same links as the file's page, as the owner.

func newFileShareCmds(env *Env) []*cobra.Command {
	return []*cobra.Command{newFileShareCmd(env), newFileSharesCmd(env), newFileUnshareCmd(env)}
}

// shareLink is sh as the CLI shows it: its URL under server.public_url
// when that is set, else its path.
func shareLink(svc *services, sh shares.Share) shares.Link {
	return svc.hub.ShareLink(sh, svc.cfg.Server.PublicURL)
}

func newFileShareCmd(env *Env) *cobra.Command {
	var (
		expires   string
		fromStdin bool
		maxDl     int
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "share ID [--expires 7d] [--password-stdin] [--max-downloads N] [--json]",
		Short: "Make a share link to a file (also a private one)",
		Long: `share makes a link that hands the file to whoever holds it until it expires,
is used up or is revoked (devhub file unshare). With --password-stdin the
first line of stdin is the password the link asks for. The link is
<server.public_url>/s/<token>; without public_url only its path is printed.`,
		Example: `  devhub file share 12
  echo "$PASSWORD" | devhub file share 12 --expires 36h --password-stdin --max-downloads 3 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseFileID(args[0])
			if err != nil {
				return err
			}
			ttl, err := auth.ParseTTL(expires)
			if err == nil && ttl <= 0 {
				err = errors.New("must be positive")
			}
			if err != nil {
				return fmt.Errorf("--expires: %w", err)
			}
			if cmd.Flags().Changed("max-downloads") && maxDl < 1 {
				return fmt.Errorf("--max-downloads must be at least 1 (leave it out for no limit)")
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			in := usecase.NewShare{TTL: ttl}
			if cmd.Flags().Changed("max-downloads") {
				in.MaxDownloads = &maxDl
			}
			if fromStdin {
				pw, err := readPassword(env, true)
				if err != nil {
					return err
				}
				in.Password = &pw
			}
			sh, err := svc.hub.CreateShare(cmd.Context(), usecase.Owner(), id, in)
			var verr *store.ValidationError
			if errors.As(err, &verr) {
				for field, fe := range verr.Fields {
					return fmt.Errorf("%s: %s", field, fe.Message)
				}
			}
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("file %d: %w", id, err)
			}
			if err != nil {
				return err
			}
			f, err := svc.Files.Get(id)
			if err != nil {
				return err
			}
			link := shareLink(svc, *sh)
			if asJSON {
				return env.PrintJSON(link)
			}
			env.Printf("%s\n", link.URL)
			limit := "no download limit"
			if maxDl > 0 {
				limit = fmt.Sprintf("at most %d downloads", maxDl)
			}
			pwNote := "no password"
			if sh.HasPassword() {
				pwNote = "password required"
			}
			fmt.Fprintf(env.Err, "link to file %d (%s): expires %s, %s, %s\n", f.ID, f.OriginalName,
				sh.ExpiresAt.Local().Format("2006-01-02 15:04"), limit, pwNote)
			return nil
		},
	}
	cmd.Flags().StringVar(&expires, "expires", "7d", "how long the link works: days (7d) or a duration (36h), at most 365d")
	cmd.Flags().BoolVar(&fromStdin, "password-stdin", false, "read the link's password from the first line of stdin")
	cmd.Flags().IntVar(&maxDl, "max-downloads", 0, "downloads before the link is used up (default: no limit)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the link as JSON")
	return needsStore(cmd)
}

func newFileSharesCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "shares [ID] [--json]",
		Short: "List share links (of one file, or all), newest first, in every state",
		Example: `  devhub file shares
  devhub file shares 12 --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var filter shares.Filter
			if len(args) == 1 {
				id, err := parseFileID(args[0])
				if err != nil {
					return err
				}
				filter.FileID = id
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			if filter.FileID != 0 {
				if _, err := svc.Files.Get(filter.FileID); err != nil {
					return fmt.Errorf("file %d: %w", filter.FileID, err)
				}
			}
			list, err := svc.Shares.List(filter)
			if err != nil {
				return err
			}
			links := make([]shares.Link, 0, len(list))
			for _, sh := range list {
				links = append(links, shareLink(svc, sh))
			}
			if asJSON {
				return env.PrintJSON(links)
			}
			if len(links) == 0 {
				env.Printf("no share links\n")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "TOKEN\tFILE\tSTATE\tEXPIRES\tDOWNLOADS\tPASSWORD\tBY")
			for _, l := range links {
				dl := fmt.Sprintf("%d", l.Downloads)
				if l.MaxDownloads != nil {
					dl += fmt.Sprintf("/%d", *l.MaxDownloads)
				}
				pw := "no"
				if l.HasPassword {
					pw = "yes"
				}
				fmt.Fprintf(tw, "%s\t%d %s\t%s\t%s\t%s\t%s\t%s\n", l.Token, l.FileID, l.FileName, l.State,
					l.ExpiresAt.Local().Format("2006-01-02 15:04"), dl, pw, l.Creator)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return needsStore(cmd)
}

func newFileUnshareCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "unshare TOKEN",
		Short:   "Revoke a share link: it answers 410 from now on",
		Example: "  devhub file unshare Xq3…\n  devhub file unshare -- -Xq3…   (a token that begins with '-', from before links avoided it)",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !shares.ValidToken(args[0]) {
				return fmt.Errorf("%q is not a share link token (see devhub file shares)", args[0])
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			sh, err := svc.hub.RevokeShare(cmd.Context(), usecase.Owner(), args[0])
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no share link %s", args[0])
			}
			if err != nil {
				return err
			}
			env.Printf("revoked share link %s (file %d)\n", sh.Token, sh.FileID)
			return nil
		},
	}
	return needsStore(cmd)
}
