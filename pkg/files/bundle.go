package files

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/store"
)

// GiveToAdmins makes every file uploaderID added the administrators' (an
// account deleted without its files): its uploader becomes the owner's id
// 0, which only admins may change, and its uploader name the former
// account's, so the admins can tell where it came from. It returns how
// many files were passed on.
func (s *Service) GiveToAdmins(ctx context.Context, uploaderID uint64) (int, error) {
	return s.forUploadedBy(uploaderID, func(f File) error {
		_, err := s.change(ctx, f.ID, func(f *File) {
			f.UploaderID = 0
			f.Uploader = "admins (from " + f.Uploader + ")"
		})
		return err
	})
}

// UploadedBy lists the files uploaderID added, newest first.
func (s *Service) UploadedBy(uploaderID uint64) []File {
	all, _ := s.List()
	out := []File{}
	for _, f := range all {
		if f.UploaderID == uploaderID {
			out = append(out, f)
		}
	}
	return out
}

// storedTypes are types whose bytes are already compressed: a bundle
// stores them as they are rather than spend CPU deflating them for nothing.
var storedTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "video/", "audio/",
	"application/zip", "application/gzip", "application/x-7z-compressed", "application/x-rar-compressed",
	"application/x-xz", "application/x-bzip2", "application/zstd", "application/pdf"}

func alreadyCompressed(mt string) bool {
	for _, t := range storedTypes {
		if strings.HasPrefix(mt, t) {
			return true
		}
	}
	return false
}

// EntryNames are the names fs get inside one zip under dir ("" for the
// top): each its original name made safe (SanitizeName: no path, no
// control characters), and a name met again gets " (2)", " (3)"… before
// its extension, so no entry hides another.
func EntryNames(fs []File, dir string) []string {
	taken := map[string]bool{}
	out := make([]string, len(fs))
	for i, f := range fs {
		name := SanitizeName(f.OriginalName)
		ext := path.Ext(name)
		stem := strings.TrimSuffix(name, ext)
		cand := name
		for k := 2; taken[strings.ToLower(cand)]; k++ {
			cand = stem + " (" + strconv.Itoa(k) + ")" + ext
		}
		taken[strings.ToLower(cand)] = true
		out[i] = dir + cand
	}
	return out
}

// WriteZip streams fs into zw under names (EntryNames), one after the
// other from their backend: nothing is copied to disk or held whole in
// memory. Already compressed types are stored, the rest deflated. A file
// whose bytes cannot be read ends the archive with an error (the client
// sees a cut-off download, never a wrong file).
func (s *Service) WriteZip(ctx context.Context, zw *zip.Writer, fs []File, names []string) error {
	for i, f := range fs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.writeEntry(zw, f, names[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) writeEntry(zw *zip.Writer, f File, name string) error {
	_, r, err := s.Open(f.ID)
	if err != nil {
		return err
	}
	defer r.Close()
	method := zip.Deflate
	if alreadyCompressed(f.MimeType) {
		method = zip.Store
	}
	h := &zip.FileHeader{Name: name, Method: method, Modified: f.UploadedAt.UTC()}
	h.SetMode(0o644)
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		return fmt.Errorf("file %d: %w", f.ID, err)
	}
	return nil
}

// Bundle is a set of files chosen for one download, checked against its
// limits.
type Bundle struct {
	Files []File
	Names []string
	Bytes int64
}

// NewBundle checks the files ids for viewer v: every one must exist and be
// visible to v (else store.ErrNotFound for the whole set, naming the first
// missing id), there are at most maxFiles of them and at most maxBytes in
// all (store.KindTooLarge). Repeated ids count once.
func (s *Service) NewBundle(v *Viewer, ids []uint64, maxFiles int, maxBytes int64) (*Bundle, error) {
	if len(ids) == 0 {
		return nil, store.Invalid("ids", "required", "name at least one file id")
	}
	seen := map[uint64]bool{}
	b := &Bundle{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		if maxFiles > 0 && len(b.Files) >= maxFiles {
			return nil, store.Refuse(store.KindTooLarge, fmt.Sprintf("at most %d files may be downloaded together", maxFiles))
		}
		f, err := s.GetFor(v, id)
		if err != nil {
			return nil, err
		}
		b.Files = append(b.Files, *f)
		b.Bytes += f.Size
		if maxBytes > 0 && b.Bytes > maxBytes {
			return nil, store.Refuse(store.KindTooLarge, fmt.Sprintf("the files chosen hold more than the %d bytes that may be downloaded together", maxBytes))
		}
	}
	b.Names = EntryNames(b.Files, "")
	return b, nil
}

// zipTime is a stable timestamp for generated entries.
func zipTime(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// WriteJSONEntry adds one generated entry (an export's account.json) to zw.
func WriteJSONEntry(zw *zip.Writer, name string, data []byte, at time.Time) error {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: zipTime(at)})
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
