package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime/multipart"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func newTestService(t *testing.T, max int64) *Service { return newTestServiceTB(t, max) }

func newTestServiceTB(t testing.TB, max int64) *Service {
	t.Helper()
	st := storetest.Open(t)
	s, err := New(st, filepath.Join(t.TempDir(), "uploads"), max, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// dirNames lists what is in the uploads directory.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

var (
	pngHead = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")
	mp4Head = []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
	mp3Head = []byte("ID3\x03\x00\x00\x00\x00\x00\x00")
	pdfHead = []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	zipHead = []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00")
	wavHead = []byte("RIFF\x24\x00\x00\x00WAVEfmt ")
	oggHead = []byte("OggS\x00\x02\x00\x00\x00\x00")
)

func TestDetect(t *testing.T) {
	cases := []struct {
		name     string
		head     []byte
		file     string
		wantMime string
		wantType string
	}{
		{"png by content", pngHead, "photo.png", "image/png", TypeImage},
		{"png content wins over a video name", pngHead, "x.mp4", "image/png", TypeImage},
		{"mp4", mp4Head, "clip.mp4", "video/mp4", TypeVideo},
		{"mp3 with ID3", mp3Head, "song.mp3", "audio/mpeg", TypeAudio},
		{"mp3 without ID3 by extension", []byte{0xff, 0xfb, 0x90, 0x64, 0x00, 0x0f, 0xf0}, "song.mp3", "audio/mpeg", TypeAudio},
		{"wav", wavHead, "a.wav", "audio/wave", TypeAudio},
		{"ogg audio", oggHead, "a.ogg", "audio/ogg", TypeAudio},
		{"ogg video by extension", oggHead, "a.ogv", "video/ogg", TypeVideo},
		{"pdf", pdfHead, "doc.pdf", "application/pdf", TypeDocument},
		{"docx is a zip", zipHead, "cv.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", TypeDocument},
		{"plain zip", zipHead, "a.zip", "application/zip", TypeOther},
		{"text", []byte("hello world\n"), "notes.txt", "text/plain; charset=utf-8", TypeDocument},
		{"markdown", []byte("# Title\n"), "README.md", "text/markdown; charset=utf-8", TypeDocument},
		{"svg with onload", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), "x.svg", "image/svg+xml", TypeImage},
		{"svg with xml prolog", []byte(`<?xml version="1.0"?><svg/>`), "x.svg", "image/svg+xml", TypeImage},
		{"html is html whatever its name", []byte("<html><script>alert(1)</script>"), "x.png", "text/html; charset=utf-8", TypeDocument},
		{"text never becomes a video", []byte("<script>alert(1)</script>"), "x.mp4", "text/html; charset=utf-8", TypeDocument},
		{"binary never becomes text", []byte{0, 1, 2, 3, 0xfe}, "x.html", "application/octet-stream", TypeOther},
		{"unknown binary", []byte{0, 1, 2, 3}, "blob", "application/octet-stream", TypeOther},
		{"empty text file", nil, "empty.txt", "text/plain; charset=utf-8", TypeDocument},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mt, typ := Detect(c.head, c.file)
			if mt != c.wantMime || typ != c.wantType {
				t.Fatalf("Detect(%q) = %q, %q; want %q, %q", c.file, mt, typ, c.wantMime, c.wantType)
			}
		})
	}
}

func TestSanitizeName(t *testing.T) {
	long := strings.Repeat("a", 296) + ".txt"
	cases := []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"../../tmp/p", "p"},
		{`..\..\p`, "p"},
		{"/etc/passwd", "passwd"},
		{`C:\Windows\system.ini`, "system.ini"},
		{"a\x00b.txt", "ab.txt"},
		{"a\r\nSet-Cookie: x=1\".txt", "aSet-Cookie: x=1\".txt"},
		{"..", "file"},
		{"", "file"},
		{"   ", "file"},
		{"dir/", "file"},
		{"\u202egnp.exe", "gnp.exe"},
		{"звіт 2024.pdf", "звіт 2024.pdf"},
		{"bad\xffutf8.txt", "badutf8.txt"},
		{long, strings.Repeat("a", 251) + ".txt"},
		{strings.Repeat("я", 200), strings.Repeat("я", 127)},
	}
	for _, c := range cases {
		got := SanitizeName(c.in)
		if got != c.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", c.in, got, c.want)
		}
		if len(got) > maxNameBytes {
			t.Errorf("SanitizeName(%q) is %d bytes", c.in, len(got))
		}
	}
}

func TestSaveGetOpenDelete(t *testing.T) {
	s := newTestService(t, 1<<20)
	data := bytes.Repeat([]byte("devhub "), 50000) // 350 kB, several buffers
	f, err := s.Save(context.Background(), "../../notes.txt", bytes.NewReader(data), Uploader{ID: 7, Name: "u@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if f.ID != 1 || f.OriginalName != "notes.txt" || f.Size != int64(len(data)) || f.SHA256 != hex.EncodeToString(sum[:]) ||
		f.Type != TypeDocument || f.UploaderID != 7 || f.Uploader != "u@example.com" || f.UploadedAt.IsZero() {
		t.Fatalf("saved %+v", f)
	}
	if !validStoredName(f.StoredName) {
		t.Fatalf("stored name %q is not server-generated", f.StoredName)
	}
	if names := dirNames(t, s.Dir()); len(names) != 1 || names[0] != f.StoredName {
		t.Fatalf("uploads dir holds %v, want only %s", names, f.StoredName)
	}
	got, fh, err := s.Open(f.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(fh)
	fh.Close()
	if !bytes.Equal(b, data) || got.ID != f.ID {
		t.Fatal("read back different bytes")
	}
	if _, err := s.Delete(t.Context(), f.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get after delete: %v", err)
	}
	if _, err := s.Delete(t.Context(), f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if names := dirNames(t, s.Dir()); len(names) != 0 {
		t.Fatalf("uploads dir not empty after delete: %v", names)
	}
}

func TestGrouped(t *testing.T) {
	s := newTestService(t, 1<<20)
	for _, f := range []struct {
		name string
		head []byte
	}{{"a.png", pngHead}, {"b.mp4", mp4Head}, {"c.mp3", mp3Head}, {"d.pdf", pdfHead}, {"e.zip", zipHead}, {"f.png", pngHead}} {
		if _, err := s.Save(context.Background(), f.name, bytes.NewReader(f.head), Uploader{}); err != nil {
			t.Fatal(err)
		}
	}
	g, err := s.Grouped()
	if err != nil {
		t.Fatal(err)
	}
	names := func(fs []File) string {
		var out []string
		for _, f := range fs {
			out = append(out, f.OriginalName)
		}
		return strings.Join(out, ",")
	}
	got := []string{names(g.Images), names(g.Videos), names(g.Audio), names(g.Documents), names(g.Other)}
	want := []string{"f.png,a.png", "b.mp4", "c.mp3", "d.pdf", "e.zip"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("groups = %q, want %q", got, want)
		}
	}
}

// failingReader yields some bytes, then fails like a connection cut off.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestSaveFailuresLeaveNothing(t *testing.T) {
	cases := []struct {
		name string
		max  int64
		r    func() io.Reader
		want error
	}{
		{"reader fails midway", 1 << 30, func() io.Reader {
			return &failingReader{data: make([]byte, 3<<20), err: io.ErrUnexpectedEOF}
		}, io.ErrUnexpectedEOF},
		{"over the limit", 1 << 20, func() io.Reader { return bytes.NewReader(make([]byte, 1<<20+1)) }, ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newTestService(t, c.max)
			_, err := s.Save(context.Background(), "x.bin", c.r(), Uploader{})
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if names := dirNames(t, s.Dir()); len(names) != 0 {
				t.Fatalf("left behind %v", names)
			}
			if all, _ := s.List(); len(all) != 0 {
				t.Fatalf("left records %v", all)
			}
		})
	}
	t.Run("exactly at the limit is kept", func(t *testing.T) {
		s := newTestService(t, 1<<20)
		if _, err := s.Save(context.Background(), "x.bin", bytes.NewReader(make([]byte, 1<<20)), Uploader{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a panic while reading", func(t *testing.T) {
		// The server recovers a handler's panic and goes on: the
		// write must still end (a temp file here, part buffers on S3).
		s := newTestService(t, 1<<30)
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("the reader's panic did not reach the caller")
				}
			}()
			s.Save(context.Background(), "x.bin", panickingReader{}, Uploader{})
		}()
		if names := dirNames(t, s.Dir()); len(names) != 0 {
			t.Fatalf("left behind %v", names)
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		s := newTestService(t, 1<<30)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Save(ctx, "x.bin", bytes.NewReader(make([]byte, 10)), Uploader{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if names := dirNames(t, s.Dir()); len(names) != 0 {
			t.Fatalf("left behind %v", names)
		}
	})
}

// panickingReader panics on its first read.
type panickingReader struct{}

func (panickingReader) Read(p []byte) (int, error) { panic("reader failed") }

func multipartBody(t *testing.T, parts map[string][]byte, order []string) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, name := range order {
		fw, err := w.CreateFormFile("files", name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(parts[name])
	}
	w.WriteField("note", "ignored")
	w.Close()
	return &b, w.Boundary()
}

func TestSaveMultipartAllOrNothing(t *testing.T) {
	s := newTestService(t, 1<<20)
	body, boundary := multipartBody(t, map[string][]byte{"a.png": pngHead, "b.pdf": pdfHead}, []string{"a.png", "b.pdf"})
	out, err := s.SaveMultipart(context.Background(), body, boundary, "files", 100, Uploader{ID: 1})
	if err != nil || len(out) != 2 || out[0].Type != TypeImage || out[1].Type != TypeDocument {
		t.Fatalf("out %+v err %v", out, err)
	}

	// The second file goes over the limit: the first one is not kept either.
	s2 := newTestService(t, 1<<20)
	body, boundary = multipartBody(t, map[string][]byte{"a.png": pngHead, "big.bin": make([]byte, 1<<20)}, []string{"a.png", "big.bin"})
	if _, err := s2.SaveMultipart(context.Background(), body, boundary, "files", 100, Uploader{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if names := dirNames(t, s2.Dir()); len(names) != 0 {
		t.Fatalf("left behind %v", names)
	}

	// A body cut off in the second part keeps nothing.
	body, boundary = multipartBody(t, map[string][]byte{"a.png": pngHead, "b.bin": make([]byte, 100000)}, []string{"a.png", "b.bin"})
	cut := bytes.NewReader(body.Bytes()[:body.Len()-5000])
	_, err = s2.SaveMultipart(context.Background(), cut, boundary, "files", 100, Uploader{})
	var me *MultipartError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v, want a MultipartError", err)
	}
	if names := dirNames(t, s2.Dir()); len(names) != 0 {
		t.Fatalf("left behind %v", names)
	}

	// No files at all.
	var empty bytes.Buffer
	w := multipart.NewWriter(&empty)
	w.WriteField("note", "x")
	w.Close()
	if _, err := s2.SaveMultipart(context.Background(), &empty, w.Boundary(), "files", 100, Uploader{}); !errors.Is(err, ErrNoFiles) {
		t.Fatalf("err = %v, want ErrNoFiles", err)
	}
}

func TestSweepTemps(t *testing.T) {
	s := newTestService(t, 1<<20)
	kept, err := s.Save(context.Background(), "kept.txt", strings.NewReader("kept"), Uploader{})
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("must survive"), 0o600)
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(s.Dir(), name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(".upload-0123456789abcdef.tmp")                           // interrupted upload
	write(".upload-feedface.tmp")                                   // another
	write(strings.Repeat("ab", 16))                                 // renamed, never recorded (orphan)
	write("README.txt")                                             // not ours: left alone
	write(strings.Repeat("AB", 16))                                 // not our pattern: left alone
	os.Symlink(outside, filepath.Join(s.Dir(), ".upload-link.tmp")) // a planted link
	// The resumable uploads' staging lives in the uploads directory: its
	// names look like stored ones, but it is the server's, not an orphan.
	staged := filepath.Join(s.Dir(), ".tus", strings.Repeat("cd", 16))
	if err := os.MkdirAll(filepath.Dir(staged), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{staged, staged + ".info"} {
		if err := os.WriteFile(p, []byte("staged"), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	n, err := s.SweepTemps(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Fatalf("removed %d, want 4", n)
	}
	want := []string{".tus", strings.Repeat("AB", 16), "README.txt", kept.StoredName}
	sort.Strings(want)
	if got := dirNames(t, s.Dir()); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("after sweep: %v, want %v", got, want)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "must survive" {
		t.Fatalf("symlink target touched: %q %v", b, err)
	}
	if got := dirNames(t, filepath.Dir(staged)); len(got) != 2 {
		t.Fatalf("the staging after the sweep: %v", got)
	}
	if all, _ := s.List(); len(all) != 1 {
		t.Fatalf("listed %d files, want the one stored", len(all))
	}
}

func TestOpenRefusesPlantedSymlink(t *testing.T) {
	s := newTestService(t, 1<<20)
	f, err := s.Save(context.Background(), "a.txt", strings.NewReader("hello"), Uploader{})
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("hello"), 0o600) // same size as the record
	p := filepath.Join(s.Dir(), f.StoredName)
	os.Remove(p)
	if err := os.Symlink(secret, p); err != nil {
		t.Fatal(err)
	}
	if _, fh, err := s.Open(f.ID); !errors.Is(err, store.ErrNotFound) {
		if fh != nil {
			fh.Close()
		}
		t.Fatalf("Open through a symlink out of uploads/: err = %v", err)
	}
	// A directory symlink does not lead out either.
	os.Remove(p)
	os.Symlink(filepath.Dir(secret), p)
	if _, _, err := s.Open(f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Open of a dir link: %v", err)
	}
	// Deleting removes the link, never the target.
	if _, err := s.Delete(t.Context(), f.ID); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "hello" {
		t.Fatalf("target touched: %q %v", b, err)
	}
}
