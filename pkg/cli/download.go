package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/usecase"
)

func newDownloadCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "download",
		Short: "Manage the downloads (/programs and /alavar)",
		Long: `download adds, edits, lists and removes the entries of the download sections
(programs and alavar) and publishes their releases. It works on the same
store and storage as the server, also while it runs.`,
		Example: `  devhub download add my-tool --section programs --name "My tool" --systems windows-10,windows-11
  devhub download release my-tool --version 1.0 --notes NOTES.md my-tool.exe@windows/x64
  devhub download list --json
  devhub download rm my-tool`,
		SilenceUsage: true,
	}
	cmd.AddCommand(newDownloadAddCmd(env), newDownloadEditCmd(env), newDownloadListCmd(env), newDownloadRmCmd(env),
		newDownloadReleaseCmd(env))
	return cmd
}

// downloadFlags are an entry's fields as flags.
type downloadFlags struct {
	section, name, summary, descFile, requirements, licence, homepage string
	systems                                                           []string
	hidden                                                            bool
	order                                                             int
}

func (f *downloadFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.section, "section", "", "programs or alavar")
	fl.StringVar(&f.name, "name", "", "the name shown")
	fl.StringVar(&f.summary, "summary", "", "one line about it")
	fl.StringVar(&f.descFile, "description-file", "", "Markdown file with the description (- for stdin)")
	fl.StringSliceVar(&f.systems, "systems", nil, "systems it runs on: "+strings.Join(downloads.Systems, ", "))
	fl.StringVar(&f.requirements, "requirements", "", "system requirements")
	fl.StringVar(&f.licence, "licence", "", "licence")
	fl.StringVar(&f.homepage, "homepage", "", "homepage (http:// or https://)")
	fl.BoolVar(&f.hidden, "hidden", false, "hide the entry from visitors")
	fl.IntVar(&f.order, "order", 0, "place in the section's list (1 is first)")
}

// change is what the flags the owner gave change.
func (f *downloadFlags) change(env *Env, cmd *cobra.Command) (usecase.DownloadChange, error) {
	var c usecase.DownloadChange
	fl := cmd.Flags()
	str := func(name string, v *string) *string {
		if fl.Changed(name) {
			return v
		}
		return nil
	}
	c.Section, c.Name, c.Summary = str("section", &f.section), str("name", &f.name), str("summary", &f.summary)
	c.Requirements, c.Licence, c.Homepage = str("requirements", &f.requirements), str("licence", &f.licence), str("homepage", &f.homepage)
	if fl.Changed("systems") {
		c.Systems = &f.systems
	}
	if fl.Changed("hidden") {
		c.Hidden = &f.hidden
	}
	if fl.Changed("order") {
		c.Order = &f.order
	}
	if f.descFile != "" {
		d, err := readTextArg(env, f.descFile)
		if err != nil {
			return c, err
		}
		c.Description = &d
	}
	return c, nil
}

// readTextArg reads a text file argument, - being stdin.
func readTextArg(env *Env, path string) (string, error) {
	var r io.Reader = env.In
	if path != "-" {
		f, err := os.Open(env.Abs(path))
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, 1<<20+1))
	if err != nil {
		return "", err
	}
	if len(b) > 1<<20 {
		return "", fmt.Errorf("%s: longer than 1 MiB", path)
	}
	return string(b), nil
}

func printEntry(env *Env, e *downloads.Entry, asJSON bool) error {
	if asJSON {
		return env.PrintJSON(e.View())
	}
	env.Printf("%s/%s\t%s\n", e.Section, e.Slug, e.Name)
	return nil
}

// entryWriteCmd completes cmd, which writes the entry SLUG from the
// entry's flags with write and prints what it wrote (as JSON with --json).
func entryWriteCmd(env *Env, cmd *cobra.Command, write func(cmd *cobra.Command, svc *services, slug string, c usecase.DownloadChange) (*downloads.Entry, error)) *cobra.Command {
	var f downloadFlags
	var asJSON bool
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		svc, err := env.Services()
		if err != nil {
			return err
		}
		c, err := f.change(env, cmd)
		if err != nil {
			return err
		}
		out, err := write(cmd, svc, args[0], c)
		if err != nil {
			return err
		}
		return printEntry(env, out, asJSON)
	}
	f.bind(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the entry as JSON")
	return needsStore(cmd)
}

func newDownloadAddCmd(env *Env) *cobra.Command {
	return entryWriteCmd(env, &cobra.Command{
		Use:     "add SLUG",
		Short:   "Add an entry to a download section",
		Example: `  devhub download add my-tool --section programs --name "My tool" --summary "Does one thing" --systems windows-10,windows-11`,
	}, func(cmd *cobra.Command, svc *services, slug string, c usecase.DownloadChange) (*downloads.Entry, error) {
		e := downloads.Entry{Slug: slug}
		usecase.ApplyDownloadChange(&e, c)
		return svc.hub.CreateDownload(cmd.Context(), usecase.Owner(), e)
	})
}

func newDownloadEditCmd(env *Env) *cobra.Command {
	return entryWriteCmd(env, &cobra.Command{
		Use:   "edit SLUG",
		Short: "Change an entry (only the flags given)",
		Example: `  devhub download edit my-tool --summary "Does two things"
  devhub download edit my-tool --hidden`,
	}, func(cmd *cobra.Command, svc *services, slug string, c usecase.DownloadChange) (*downloads.Entry, error) {
		return svc.hub.ChangeDownload(cmd.Context(), usecase.Owner(), slug, c)
	})
}

func newDownloadListCmd(env *Env) *cobra.Command {
	var section, search string
	var asJSON bool
	cmd := needsStore(&cobra.Command{
		Use:   "list",
		Short: "List the entries (hidden ones too)",
		Example: `  devhub download list --section alavar
  devhub download list --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			es, _, err := svc.hub.ListDownloads(usecase.Owner(), downloads.Query{Section: section, Search: search, Limit: downloads.MaxLimit, Page: 1})
			for page := 2; err == nil && len(es) == (page-1)*downloads.MaxLimit; page++ {
				var more []downloads.Entry
				more, _, err = svc.hub.ListDownloads(usecase.Owner(), downloads.Query{Section: section, Search: search, Limit: downloads.MaxLimit, Page: page})
				es = append(es, more...)
			}
			if err != nil {
				return err
			}
			if asJSON {
				out := make([]downloads.EntryView, 0, len(es))
				for i := range es {
					out = append(out, es[i].View())
				}
				return env.PrintJSON(out)
			}
			tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SECTION\tSLUG\tNAME\tLATEST\tFILES\tDOWNLOADS\tHIDDEN")
			for _, e := range es {
				latest, nfiles := "-", 0
				if r := e.Latest(); r != nil {
					latest, nfiles = r.Version, len(r.Files)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%v\n", e.Section, e.Slug, e.Name, latest, nfiles, e.TotalDownloads(), e.Hidden)
			}
			return tw.Flush()
		},
	})
	cmd.Flags().StringVar(&section, "section", "", "only this section (programs or alavar)")
	cmd.Flags().StringVar(&search, "search", "", "only entries matching these words")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newDownloadRmCmd(env *Env) *cobra.Command {
	var version string
	cmd := needsStore(&cobra.Command{
		Use:   "rm SLUG",
		Short: "Remove an entry with all its files (or, with --version, one release)",
		Example: `  devhub download rm my-tool
  devhub download rm my-tool --version 0.9`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			if version != "" {
				if _, err := svc.hub.DeleteRelease(cmd.Context(), usecase.Owner(), args[0], version); err != nil {
					return err
				}
				env.Printf("release %s of %s removed\n", version, args[0])
				return nil
			}
			if err := svc.hub.DeleteDownload(cmd.Context(), usecase.Owner(), args[0]); err != nil {
				return err
			}
			env.Printf("%s removed\n", args[0])
			return nil
		},
	})
	cmd.Flags().StringVar(&version, "version", "", "remove only this release")
	return cmd
}

// releaseFileArg is a FILE argument of `download release`: a path with
// what it is built for, PATH@SYSTEM/ARCH, where the suffix is optional
// (the --system and --arch defaults then apply).
func releaseFileArg(arg, defSystem, defArch string) (path, system, arch string) {
	path, system, arch = arg, defSystem, defArch
	if i := strings.LastIndexByte(arg, '@'); i > 0 && !strings.ContainsAny(arg[i:], `\`) {
		spec := arg[i+1:]
		if sys, a, ok := strings.Cut(spec, "/"); ok && !strings.Contains(a, "/") {
			path, system, arch = arg[:i], sys, a
		} else if !strings.Contains(spec, "/") {
			path, system = arg[:i], spec
		}
	}
	return path, system, arch
}

func newDownloadReleaseCmd(env *Env) *cobra.Command {
	var version, notesFile, system, arch string
	var asJSON bool
	cmd := needsStore(&cobra.Command{
		Use:   "release SLUG --version V [--notes FILE] FILE[@SYSTEM/ARCH]...",
		Short: "Publish a release of an entry with its files",
		Long: `release stores each file (computing its SHA-256 on the way) and records them as
a new release of the entry. Each FILE may say what it is built for as
PATH@SYSTEM/ARCH (systems: ` + strings.Join(downloads.FileSystems, ", ") + `; architectures: ` +
			strings.Join(downloads.Archs, ", ") + `); otherwise --system and --arch apply. The files
are kept all together or, if any fails, not at all.`,
		Example: `  devhub download release my-tool --version 1.2 --notes CHANGES.md dist/my-tool.exe@windows/x64 dist/my-tool-x86.exe@windows/x86
  devhub download release old-game --version 1.0 --system windows --arch x86 setup.exe`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			if strings.TrimSpace(version) == "" {
				return errors.New("--version is required")
			}
			notes := ""
			if notesFile != "" {
				if notes, err = readTextArg(env, notesFile); err != nil {
					return err
				}
			}
			type arg struct{ path, system, arch string }
			var list []arg
			for _, a := range args[1:] {
				p, sys, ar := releaseFileArg(a, system, arch)
				p = env.Abs(p)
				if st, err := os.Stat(p); err != nil {
					return err
				} else if !st.Mode().IsRegular() {
					return fmt.Errorf("%s: not a regular file", p)
				}
				list = append(list, arg{p, sys, ar})
			}
			if _, err := svc.hub.DownloadForChange(usecase.Owner(), args[0]); err != nil {
				return err
			}
			var in usecase.NewRelease
			in.Version, in.Notes = version, notes
			for _, a := range list {
				st, err := storeReleaseFile(cmd, svc, a.path)
				if err != nil {
					for _, f := range in.Files {
						svc.Downloads.Discard(cmd.Context(), []*downloads.Stored{f.Stored})
					}
					return err
				}
				in.Files = append(in.Files, downloads.NewFile{Stored: st, System: a.system, Arch: a.arch})
			}
			out, err := svc.hub.AddRelease(cmd.Context(), usecase.Owner(), args[0], in)
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(out.View())
			}
			r := out.Latest()
			env.Printf("%s %s published\n", out.Slug, r.Version)
			for _, f := range r.Files {
				env.Printf("  %s\t%s/%s\t%s\tsha256 %s\n", f.Name, f.System, f.Arch, text.Bytes(f.Size), f.SHA256)
			}
			return nil
		},
	})
	fl := cmd.Flags()
	fl.StringVar(&version, "version", "", "the release's version (required)")
	fl.StringVar(&notesFile, "notes", "", "Markdown file with the release notes (- for stdin)")
	fl.StringVar(&system, "system", "any", "system of files that do not say theirs")
	fl.StringVar(&arch, "arch", "any", "architecture of files that do not say theirs")
	fl.BoolVar(&asJSON, "json", false, "print the entry as JSON")
	return cmd
}

func storeReleaseFile(cmd *cobra.Command, svc *services, path string) (*downloads.Stored, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return svc.Downloads.StoreFile(cmd.Context(), filepath.Base(path), f, svc.cfg.Files.MaxUploadBytes)
}
