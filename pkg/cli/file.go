package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/usecase"
)

// cliUploader is who files added from the terminal belong to: the owner.
var cliUploader = files.Uploader{ID: 0, Name: "owner (cli)"}

// progressMinBytes is the size from which add and get draw a progress bar
// on a terminal; smaller files finish before a bar would be readable.
const progressMinBytes = 4 << 20

func newFileCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "file",
		Short: "Manage files in the file cloud",
		Long: `file adds, lists, fetches and removes files of the file cloud. It works on
the same store and uploads directory as the server, also while it runs.`,
		Example: `  devhub file add ./photo.png ./talk.mp4
  devhub file list --type videos
  devhub file get 12 -o talk.mp4
  devhub file rm 12`,
		SilenceUsage: true,
	}
	cmd.AddCommand(newFileAddCmd(env), newFileListCmd(env), newFileGetCmd(env), newFileRmCmd(env))
	cmd.AddCommand(newFileShareCmds(env)...)
	return cmd
}

// fileJSON is a file in --json output: the API's File (files.Info, with
// its hash) plus who uploaded it, which only the owner sees.
type fileJSON struct {
	files.Info
	Uploader string `json:"uploader"`
}

func toFileJSON(fs []files.File) []fileJSON {
	out := make([]fileJSON, 0, len(fs))
	for _, f := range fs {
		out = append(out, fileJSON{Info: f.Info(true), Uploader: f.Uploader})
	}
	return out
}

func newFileAddCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "add PATH...",
		Short: "Add files to the file cloud (all of them, or none on error)",
		Long: `add streams each file into the uploads directory, as an upload through the
site would: the files are kept all together or, if any fails, not at all.
On a terminal a progress bar is shown for large files.`,
		Example: `  devhub file add ./photo.png
  devhub file add ./a.pdf ./b.mp3 --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			// Check every path first, so a typo fails before anything is copied.
			paths := make([]string, len(args))
			var total int64
			for i, a := range args {
				p := env.Abs(a)
				fi, err := os.Stat(p)
				if err != nil {
					return err
				}
				if !fi.Mode().IsRegular() {
					return fmt.Errorf("%s is not a regular file", a)
				}
				total += fi.Size()
				paths[i] = p
			}
			if total > svc.Files.MaxBytes() {
				return fmt.Errorf("%d bytes is over files.max_upload_bytes (%d)", total, svc.Files.MaxBytes())
			}
			up := svc.Files.Begin(cliUploader)
			defer up.Abort()
			for _, p := range paths {
				if err := addOne(cmd, env, up, p, !asJSON); err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
			}
			saved, err := up.Commit(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return env.PrintJSON(toFileJSON(saved))
			}
			for _, f := range saved {
				env.Printf("added file %d: %s (%s, %s)\n", f.ID, f.OriginalName, text.Bytes(f.Size), f.MimeType)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the added files as JSON")
	return needsStore(cmd)
}

func addOne(cmd *cobra.Command, env *Env, up *files.Upload, path string, mayShowProgress bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	var r io.Reader = f
	var bar *progress
	if mayShowProgress && env.OutTTY && fi.Size() >= progressMinBytes {
		bar = newProgress(env.Out, filepath.Base(path), fi.Size())
		r = bar.reader(f)
	}
	err = up.Add(cmd.Context(), filepath.Base(path), r)
	if bar != nil {
		bar.done(err == nil)
	}
	if errors.Is(err, files.ErrTooLarge) {
		return fmt.Errorf("%w (files.max_upload_bytes)", err)
	}
	if errors.Is(err, files.ErrNoSpace) {
		return fmt.Errorf("%s: %w on the uploads directory's disk; nothing was kept", path, files.ErrNoSpace)
	}
	return err
}

// fileTypes maps --type values (group names, or the singular type) to a type.
var fileTypes = map[string]string{
	"images": files.TypeImage, "image": files.TypeImage,
	"videos": files.TypeVideo, "video": files.TypeVideo,
	"audio":     files.TypeAudio,
	"documents": files.TypeDocument, "document": files.TypeDocument,
	"other": files.TypeOther,
}

func newFileListCmd(env *Env) *cobra.Command {
	var asJSON bool
	var typ string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the files of the file cloud, newest first",
		Example: `  devhub file list
  devhub file list --type images --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := env.Services()
			if err != nil {
				return err
			}
			want := ""
			if typ != "" {
				var ok bool
				if want, ok = fileTypes[strings.ToLower(typ)]; !ok {
					return fmt.Errorf("unknown --type %q: use images, videos, audio, documents or other", typ)
				}
			}
			all, err := svc.Files.List()
			if err != nil {
				return err
			}
			var out []files.File
			for _, f := range all {
				if want == "" || f.Type == want {
					out = append(out, f)
				}
			}
			if asJSON {
				return env.PrintJSON(toFileJSON(out))
			}
			if len(out) == 0 {
				env.Printf("no files\n")
				return nil
			}
			tw := tabwriter.NewWriter(env.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTYPE\tSIZE\tUPLOADED\tNAME")
			for _, f := range out {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", f.ID, f.Type, text.Bytes(f.Size),
					f.UploadedAt.Local().Format("2006-01-02 15:04"), f.OriginalName)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&typ, "type", "", "only this group: images, videos, audio, documents or other")
	return needsStore(cmd)
}

func parseFileID(s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("file id must be a positive number, got %q", s)
	}
	return id, nil
}

func newFileGetCmd(env *Env) *cobra.Command {
	var out string
	cmd := idArgCmd(env, &cobra.Command{
		Use:   "get ID",
		Short: "Save a file from the file cloud, checking its sha256",
		Long: `get writes a stored file to -o FILE (or to stdout with -o -). Without -o it is
saved under its original name in the current directory, never over an
existing file. The bytes are checked against the sha256 recorded at upload;
on a mismatch nothing is left under the target name.`,
		Example: `  devhub file get 12
  devhub file get 12 -o /tmp/talk.mp4
  devhub file get 12 -o - | sha256sum`,
	}, parseFileID, func(_ *cobra.Command, svc *services, id uint64, _ string) error {
		f, fh, err := svc.Files.Open(id)
		if err != nil {
			return fmt.Errorf("file %d: %w", id, err)
		}
		defer fh.Close()
		if out == "-" {
			return copyVerified(env.Out, fh, f, nil)
		}
		target := env.Abs(out)
		overwrite := out != ""
		if out == "" {
			target = filepath.Join(env.Cwd, files.SanitizeName(f.OriginalName))
		}
		if err := getToFile(env, fh, f, target, overwrite); err != nil {
			return err
		}
		env.Printf("saved file %d to %s (%s, sha256 ok)\n", f.ID, target, text.Bytes(f.Size))
		return nil
	})
	cmd.Flags().StringVarP(&out, "output", "o", "", "where to write the file (- for stdout)")
	return cmd
}

// getToFile writes to a temp file beside target and renames it only after
// the hash matched, so target never holds wrong or partial bytes.
func getToFile(env *Env, src io.Reader, f *files.File, target string, overwrite bool) error {
	if !overwrite {
		if _, err := os.Lstat(target); err == nil {
			return fmt.Errorf("%s already exists; choose another name with -o", target)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".devhub-get-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	var bar *progress
	if env.OutTTY && f.Size >= progressMinBytes {
		bar = newProgress(env.Out, f.OriginalName, f.Size)
	}
	err = copyVerified(tmp, src, f, bar)
	if bar != nil {
		bar.done(err == nil)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if !overwrite {
		// Link fails if target appeared meanwhile, where rename would replace it.
		if err := os.Link(tmp.Name(), target); err != nil {
			return err
		}
		return nil
	}
	return os.Rename(tmp.Name(), target)
}

// copyVerified copies a stored file and fails unless its bytes still hash
// to what was recorded at upload.
func copyVerified(dst io.Writer, src io.Reader, f *files.File, bar *progress) error {
	h := sha256.New()
	if bar != nil {
		src = bar.reader(src)
	}
	n, err := io.CopyBuffer(io.MultiWriter(dst, h), src, make([]byte, 1<<20))
	if err != nil {
		return err
	}
	if n != f.Size {
		return fmt.Errorf("file %d: read %d bytes, expected %d", f.ID, n, f.Size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != f.SHA256 {
		return fmt.Errorf("file %d: sha256 mismatch: stored bytes hash to %s, recorded %s", f.ID, got, f.SHA256)
	}
	return nil
}

func newFileRmCmd(env *Env) *cobra.Command {
	return idArgCmd(env, &cobra.Command{
		Use:     "rm ID",
		Short:   "Delete a file from the file cloud (record and bytes)",
		Example: "  devhub file rm 12",
	}, parseFileID, func(cmd *cobra.Command, svc *services, id uint64, _ string) error {
		f, err := svc.hub.DeleteFile(cmd.Context(), usecase.Owner(), id)
		if err != nil {
			return fmt.Errorf("file %d: %w", id, err)
		}
		env.Printf("deleted file %d: %s\n", f.ID, f.OriginalName)
		return nil
	})
}

// progress draws a one-line progress bar, redrawn at most every 100 ms.
type progress struct {
	w     io.Writer
	label string
	total int64
	sent  int64
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, label string, total int64) *progress {
	// Cut by characters, not bytes: a Cyrillic name must not end in half a letter.
	if r := []rune(label); len(r) > 30 {
		label = string(r[:27]) + "..."
	}
	return &progress{w: w, label: label, total: total, start: time.Now()}
}

type progressReader struct {
	r io.Reader
	p *progress
}

func (pr progressReader) Read(b []byte) (int, error) {
	n, err := pr.r.Read(b)
	pr.p.add(int64(n))
	return n, err
}

func (p *progress) reader(r io.Reader) io.Reader { return progressReader{r: r, p: p} }

func (p *progress) add(n int64) {
	p.sent += n
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		p.draw()
	}
}

func (p *progress) draw() {
	const width = 30
	frac := 1.0
	if p.total > 0 {
		frac = float64(p.sent) / float64(p.total)
	}
	frac = min(frac, 1)
	filled := int(frac * width)
	speed := float64(p.sent) / max(time.Since(p.start).Seconds(), 1e-3)
	// Padded by characters (fmt's %-30s counts bytes).
	label := p.label + strings.Repeat(" ", max(0, 30-utf8.RuneCountInString(p.label)))
	fmt.Fprintf(p.w, "\r%s [%s%s] %3.0f%%  %s / %s  %s/s ", label,
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), frac*100,
		text.Bytes(p.sent), text.Bytes(p.total), text.Bytes(int64(speed)))
}

// done draws the final state and ends the line (or clears it on failure).
func (p *progress) done(ok bool) {
	if ok {
		p.draw()
		fmt.Fprintln(p.w)
		return
	}
	fmt.Fprint(p.w, "\r\033[K")
}
