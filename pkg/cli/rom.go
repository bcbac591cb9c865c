package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store"
)

func newRomCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rom",
		Short: "Manage the ROM library of the games page",
		Long: `The games page lists the ROMs found in roms/<console>/ (storage.roms_dir);
covers are roms/<console>/images/<rom base name>.png|jpg|webp. serve scans
the directory at start-up; rom scan does it while the server runs.`,
		Example: `  devhub rom scan
  devhub rom add ~/Downloads/game.nes --console nes --name "My Game" --image cover.png
  devhub rom list --console nes --json
  devhub rom rm 12
  devhub rom consoles`,
		SilenceUsage: true,
	}
	cmd.AddCommand(newRomScanCmd(env), newRomAddCmd(env), newRomListCmd(env), newRomRmCmd(env), newRomConsolesCmd(env))
	return cmd
}

// romsStartup is serve's once-per-start scan of roms/.
func (s *services) romsStartup(ctx context.Context) error {
	rep, err := s.Roms.Scan(ctx)
	if err != nil {
		return fmt.Errorf("scan roms: %w", err)
	}
	s.log.Info("scanned roms", slog.String("dir", s.Roms.Root()), slog.Int("games", rep.Total),
		slog.Int("added", rep.Added), slog.Int("removed", rep.Removed), slog.Int("skipped", len(rep.Skipped)))
	for _, sk := range rep.Skipped {
		s.log.Warn("rom skipped", slog.String("path", sk.Path), slog.String("reason", sk.Reason))
	}
	return nil
}

func newRomScanCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "scan",
		Short: "Index roms/ (new files are added, removed ones dropped, ids kept)",
		Example: `  devhub rom scan
  devhub rom scan --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			rep, err := svc.Roms.Scan(cmd.Context())
			if err != nil {
				return err
			}
			if rep.Skipped == nil {
				rep.Skipped = []roms.Skipped{}
			}
			if asJSON {
				return env.PrintJSON(rep)
			}
			for _, sk := range rep.Skipped {
				fmt.Fprintf(env.Err, "skipped %s: %s\n", sk.Path, sk.Reason)
			}
			env.Printf("%d games (%d added, %d updated, %d removed, %d skipped)\n", rep.Total, rep.Added, rep.Updated, rep.Removed, len(rep.Skipped))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the scan report as JSON")
	return needsStore(cmd)
}

func newRomAddCmd(env *Env) *cobra.Command {
	var in roms.AddInput
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "add FILE --console C [--name N] [--image IMG]",
		Short: "Copy a ROM (and its cover) into roms/<console>/ and index it",
		Example: `  devhub rom add game.nes --console nes
  devhub rom add sonic.md --console genesis --name "Sonic" --image sonic.png`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			in.Source = env.Abs(args[0])
			in.Image = env.Abs(in.Image)
			g, err := svc.Roms.Add(cmd.Context(), in)
			if errors.Is(err, store.ErrConflict) {
				return fmt.Errorf("a ROM with this file name is already in the library (%w); remove it first with `devhub rom rm ID`", err)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(g)
			}
			env.Printf("added %d %s (%s)\n", g.ID, g.Name, g.Path)
			return nil
		},
	}
	cmd.Flags().StringVar(&in.Console, "console", "", "console id or alias (see `devhub rom consoles`)")
	cmd.Flags().StringVar(&in.Name, "name", "", "display name (default: the file name)")
	cmd.Flags().StringVar(&in.Image, "image", "", "cover image (.png, .jpg or .webp)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the added game as JSON")
	_ = cmd.MarkFlagRequired("console")
	return needsStore(cmd)
}

func newRomListCmd(env *Env) *cobra.Command {
	var console string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--console C] [--json]",
		Short: "List the indexed games",
		Example: `  devhub rom list
  devhub rom list --console nes --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			id := console
			if c, ok := roms.LookupConsole(console); ok {
				id = c.ID
			}
			games, err := svc.Roms.All(id)
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no console %q in the library (see `devhub rom consoles`)", console)
			}
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(games)
			}
			tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tCONSOLE\tNAME\tPATH\tCOVER")
			for _, g := range games {
				cover := "-"
				if g.HasImage {
					cover = g.ImagePath
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", g.ID, g.Console, g.Name, g.Path, cover)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&console, "console", "", "only this console (id or alias)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return needsStore(cmd)
}

func newRomRmCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "rm ID",
		Short:   "Delete a ROM file (and its cover) from roms/ and the index",
		Example: "  devhub rom rm 12",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseUint(args[0], 10, 64)
			if err != nil || id == 0 {
				return fmt.Errorf("invalid ROM id %q: ids are positive numbers (see `devhub rom list`)", args[0])
			}
			svc, err := env.Services()
			if err != nil {
				return err
			}
			g, err := svc.Roms.Remove(cmd.Context(), id)
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no ROM with id %d", id)
			}
			if err != nil {
				return err
			}
			env.Printf("removed %d %s (%s)\n", g.ID, g.Name, g.Path)
			return nil
		},
	}
	return needsStore(cmd)
}

func newRomConsolesCmd(env *Env) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "consoles [--all] [--json]",
		Short: "List the library's consoles with their emulator core and game count",
		Example: `  devhub rom consoles
  devhub rom consoles --all   # every console devhub knows, with its folder aliases`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			type row struct {
				ID         string   `json:"id"`
				Name       string   `json:"name"`
				ShortName  string   `json:"shortName"`
				Core       string   `json:"core"`
				Games      int      `json:"games"`
				Extensions []string `json:"extensions"`
				Aliases    []string `json:"aliases"`
			}
			var rows []row
			have := map[string]int{}
			for _, c := range svc.Roms.Consoles() {
				have[c.ID] = c.Games
				rows = append(rows, row{c.ID, c.Name, c.ShortName, c.Core, c.Games, c.Extensions, c.Aliases})
			}
			if all {
				for _, c := range roms.KnownConsoles() {
					if _, ok := have[c.ID]; !ok {
						rows = append(rows, row{c.ID, c.Name, c.ShortName, c.Core, 0, c.Extensions, c.Aliases})
					}
				}
			}
			if rows == nil {
				rows = []row{}
			}
			for i := range rows {
				if rows[i].Aliases == nil {
					rows[i].Aliases = []string{}
				}
			}
			if asJSON {
				return env.PrintJSON(rows)
			}
			tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tCORE\tGAMES\tEXTENSIONS\tALIASES")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", r.ID, r.Name, r.Core, r.Games, strings.Join(r.Extensions, " "), strings.Join(r.Aliases, " "))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&all, "all", false, "also list known consoles that have no folder in roms/")
	return needsStore(cmd)
}
