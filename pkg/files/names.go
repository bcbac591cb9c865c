package files

import (
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/devhub/devhub/pkg/internal/text"
)

// maxNameBytes bounds a kept original name; longer ones are shortened
// keeping their extension (most file systems allow 255 bytes per name, and
// the name ends up in download headers).
const maxNameBytes = 255

// fallbackName is shown for a file whose name is empty after sanitising.
const fallbackName = "file"

// SanitizeName turns a client-supplied file name into a display name: only
// the last path element survives (for both / and \ separators, so
// "../../tmp/p", "..\..\p" and "C:\x\p" all become "p"), control
// characters (NUL, CR, LF, …) and invalid UTF-8 are dropped, surrounding
// spaces and dots are trimmed, and the result is at most 255 bytes. It is
// never used as a path: stored files have server-generated names.
func SanitizeName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' ||
			unicode.Is(unicode.Bidi_Control, r) {
			continue
		}
		b.WriteRune(r)
	}
	name = strings.Trim(b.String(), " .")
	if name == "" {
		return fallbackName
	}
	if len(name) > maxNameBytes {
		ext := path.Ext(name)
		if len(ext) > 16 || len(ext) == len(name) {
			ext = ""
		}
		name = text.Truncate(name[:len(name)-len(ext)], maxNameBytes-len(ext)) + ext
	}
	return name
}

// parseDisposition parses a part's Content-Disposition (RFC 2231 aware).
func parseDisposition(v string) (string, map[string]string, error) {
	return mime.ParseMediaType(v)
}

// sniffLen is how much of a file content sniffing looks at.
const sniffLen = 512

// extTypes maps lower-case extensions to a MIME type and group for what
// http.DetectContentType cannot tell apart (office formats look like zip,
// SVG and Markdown like text, MP3 without ID3 like nothing).
var extTypes = map[string]struct{ mime, typ string }{
	".jpg": {"image/jpeg", TypeImage}, ".jpeg": {"image/jpeg", TypeImage}, ".png": {"image/png", TypeImage},
	".gif": {"image/gif", TypeImage}, ".webp": {"image/webp", TypeImage}, ".bmp": {"image/bmp", TypeImage},
	".svg": {"image/svg+xml", TypeImage}, ".ico": {"image/x-icon", TypeImage}, ".avif": {"image/avif", TypeImage},
	".tif": {"image/tiff", TypeImage}, ".tiff": {"image/tiff", TypeImage}, ".heic": {"image/heic", TypeImage},

	".mp4": {"video/mp4", TypeVideo}, ".m4v": {"video/mp4", TypeVideo}, ".webm": {"video/webm", TypeVideo},
	".ogv": {"video/ogg", TypeVideo}, ".mov": {"video/quicktime", TypeVideo}, ".mkv": {"video/x-matroska", TypeVideo},
	".avi": {"video/x-msvideo", TypeVideo}, ".mpeg": {"video/mpeg", TypeVideo}, ".mpg": {"video/mpeg", TypeVideo},

	".mp3": {"audio/mpeg", TypeAudio}, ".wav": {"audio/wav", TypeAudio}, ".ogg": {"audio/ogg", TypeAudio},
	".oga": {"audio/ogg", TypeAudio}, ".opus": {"audio/ogg", TypeAudio}, ".flac": {"audio/flac", TypeAudio},
	".m4a": {"audio/mp4", TypeAudio}, ".aac": {"audio/aac", TypeAudio}, ".mid": {"audio/midi", TypeAudio},
	".midi": {"audio/midi", TypeAudio},

	".pdf": {"application/pdf", TypeDocument}, ".txt": {"text/plain; charset=utf-8", TypeDocument},
	".md": {"text/markdown; charset=utf-8", TypeDocument}, ".csv": {"text/csv; charset=utf-8", TypeDocument},
	".rtf": {"application/rtf", TypeDocument}, ".json": {"application/json", TypeDocument},
	".xml": {"application/xml", TypeDocument}, ".html": {"text/html; charset=utf-8", TypeDocument},
	".htm": {"text/html; charset=utf-8", TypeDocument}, ".epub": {"application/epub+zip", TypeDocument},
	".doc":  {"application/msword", TypeDocument},
	".docx": {"application/vnd.openxmlformats-officedocument.wordprocessingml.document", TypeDocument},
	".xls":  {"application/vnd.ms-excel", TypeDocument},
	".xlsx": {"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", TypeDocument},
	".ppt":  {"application/vnd.ms-powerpoint", TypeDocument},
	".pptx": {"application/vnd.openxmlformats-officedocument.presentationml.presentation", TypeDocument},
	".odt":  {"application/vnd.oasis.opendocument.text", TypeDocument},
	".ods":  {"application/vnd.oasis.opendocument.spreadsheet", TypeDocument},
	".odp":  {"application/vnd.oasis.opendocument.presentation", TypeDocument},
}

// genericSniffed are answers of http.DetectContentType that say little
// about what a file is, so the extension decides when it is known.
var genericSniffed = map[string]bool{
	"application/octet-stream":     true,
	"text/plain; charset=utf-8":    true,
	"text/plain; charset=utf-16be": true,
	"text/plain; charset=utf-16le": true,
	"application/zip":              true,
	"text/xml; charset=utf-8":      true,
	"application/ogg":              true,
	"application/x-gzip":           true,
}

// Detect chooses a file's MIME type and group from its first bytes and its
// name. The content wins whenever sniffing recognises it (a PNG named
// x.mp4 is an image; HTML named x.png is HTML, never an image), and the
// extension only refines a generic answer (zip → docx, XML → SVG, text →
// Markdown, Ogg → audio or video).
func Detect(head []byte, name string) (mimeType, typ string) {
	sniffed := http.DetectContentType(head)
	ext := strings.ToLower(path.Ext(name))
	if byExt, ok := extTypes[ext]; ok && genericSniffed[sniffed] && compatible(sniffed, byExt.mime) {
		return byExt.mime, byExt.typ
	}
	if sniffed == "application/ogg" {
		return "audio/ogg", TypeAudio
	}
	return sniffed, groupOf(sniffed)
}

// compatible says whether an extension's type may refine a generic sniffed
// type: text can only become a text format (or SVG, which is XML), and
// unrecognised binary (MP3 without ID3, AVIF, old Office files, zip-based
// formats) only a binary format, so "<script>" named x.mp4 stays text.
func compatible(sniffed, byExt string) bool {
	textual := strings.HasPrefix(byExt, "text/") || byExt == "image/svg+xml" ||
		byExt == "application/json" || byExt == "application/xml" || byExt == "application/rtf"
	return strings.HasPrefix(sniffed, "text/") == textual
}

// groupOf maps a MIME type to its group.
func groupOf(mt string) string {
	base, _, _ := strings.Cut(mt, ";")
	switch {
	case strings.HasPrefix(base, "image/"):
		return TypeImage
	case strings.HasPrefix(base, "video/"):
		return TypeVideo
	case strings.HasPrefix(base, "audio/"):
		return TypeAudio
	case strings.HasPrefix(base, "text/"), base == "application/pdf", base == "application/postscript",
		base == "application/json", base == "application/xml", base == "application/rtf":
		return TypeDocument
	default:
		return TypeOther
	}
}
